import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ModelId } from '@parley/contract';
import type { ChatServices } from '@parley/ui/chat';
import { ApiError, errorMessage } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';
import { transcribe, useTranslate } from '../api/chat-api';

/** The shared chat tools, over the web app's API client. Each call spends a credit: the credits shown follow. */
export function useWebChatServices(): ChatServices {
  const queryClient = useQueryClient();
  const { mutateAsync: translate } = useTranslate();
  return useMemo(
    () => ({
      transcribe: async (audio, signal) => {
        const text = await transcribe(audio, signal);
        void queryClient.invalidateQueries({ queryKey: currentUserKey });
        return text;
      },
      translate: async ({ text, target, model }) =>
        (await translate({ text, target, ...(model ? { model: model as ModelId } : {}) })).text,
      errorText: (error) => (error instanceof ApiError ? errorMessage(error) : null),
    }),
    [queryClient, translate],
  );
}
