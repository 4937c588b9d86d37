import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api';

/** How many conversations the dashboard lists. */
export const RECENT_CHATS = 5;

export const recentChatsKey = ['home', 'recentChats'] as const;

/** The latest conversations, newest first; read again each time the dashboard opens. */
export const useRecentChats = () =>
  useQuery({
    queryKey: recentChatsKey,
    queryFn: () => apiClient.call('chatHistories', { query: { limit: RECENT_CHATS } }),
    staleTime: 0,
  });
