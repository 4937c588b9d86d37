import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { chatStream, fileBytes, transcribe as transcribeAudio } from '@parley/api-client/streams';
import type { ChatRequest, ChatSummary, ModelId } from '@parley/contract';
import { readUiMessageStream } from '@parley/ui/chat-stream';
import { apiClient } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';

export const chatKeys = {
  all: ['chat'] as const,
  histories: (q: string) => ['chat', 'histories', q] as const,
  history: (id: string) => ['chat', 'history', id] as const,
};

export const useChatHistories = (q: string) =>
  useQuery({
    queryKey: chatKeys.histories(q),
    queryFn: () => apiClient.call('chatHistories', { query: q ? { q } : {} }),
    placeholderData: keepPreviousData,
  });

export const useChatHistory = (id: string | undefined) =>
  useQuery({
    queryKey: chatKeys.history(id ?? ''),
    queryFn: () => apiClient.call('chatHistory', { query: { chatHistoryId: id! } }),
    enabled: Boolean(id),
    // A conversation is read once when it is opened; the page then holds it.
    staleTime: Infinity,
    gcTime: 0,
  });

export function useDeleteChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chatHistoryId: string) => apiClient.call('deleteChatHistory', { query: { chatHistoryId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chat', 'histories'] }),
  });
}

export function useRenameChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { chatHistoryId: string; title: string }) => apiClient.call('renameChatHistory', { body }),
    onSuccess: (chat) => {
      // Every list (searched or not) shows the new name at once; the server's order is unchanged by a rename.
      queryClient.setQueriesData<ChatSummary[]>({ queryKey: ['chat', 'histories'] }, (list) =>
        list?.map((c) => (c.chatHistoryId === chat.chatHistoryId ? chat : c)),
      );
      return queryClient.invalidateQueries({ queryKey: ['chat', 'histories'] });
    },
  });
}

export function useDeleteAllChats() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.call('deleteChatHistories'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chat', 'histories'] }),
  });
}

export function useTranslate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { text: string; target: string; model?: ModelId }) => apiClient.call('translate', { body }),
    // A translation spends a credit: the credits shown elsewhere follow.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
}

/**
 * Sends one chat turn and returns its chunks as they arrive. Errors before the stream starts (no credits, bad file,
 * model unavailable…) throw an ApiError with the server's localized message; aborting `signal` stops the answer.
 */
export async function streamChat(request: ChatRequest, files: File[], signal: AbortSignal) {
  const response = await chatStream(apiClient, request, files, signal);
  return readUiMessageStream(response.body!);
}

/** Speech to text on the server (when the browser has no SpeechRecognition). */
export async function transcribe(audio: Blob, signal?: AbortSignal): Promise<string> {
  const extension = audio.type.includes('ogg') ? 'ogg' : audio.type.includes('mp4') ? 'm4a' : 'webm';
  return (await transcribeAudio(apiClient, audio, `voice.${extension}`, signal)).text;
}

/** An attachment's bytes (the file route needs the bearer header). */
export const attachmentBytes = (id: string, signal?: AbortSignal) => fileBytes(apiClient, id, signal);

/**
 * An attachment's bytes as an object URL (the file route needs the bearer header, so an <img src> cannot load
 * it directly). Revoked when the component goes away.
 */
export function useAttachmentUrl(id: string | null) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    attachmentBytes(id, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name !== 'AbortError') setFailed(true);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  return { url, failed };
}
