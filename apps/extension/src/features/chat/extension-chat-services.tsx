import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import type { ModelId } from '@parley/contract';
import type { ChatServices } from '@parley/ui/chat';
import { blobToDataUrl } from '../../platform/messaging/data-url';
import { apiCall, sendMessage } from '../../platform/messaging/messaging';
import { WEB_ORIGIN } from '../../config';
import { FULL_PAGE_PATH } from '../../platform/tabs/panel-control';

/** The credits in the header follow a call that spent one. */
const refreshCredits = () => void apiCall('profile').catch(() => undefined);

/** Resolves with `promise`, or rejects with an AbortError as soon as `signal` aborts (a message cannot be called back). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new DOMException('aborted', 'AbortError'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const recordingName = (type: string) => `voice.${type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm'}`;

/**
 * The shared chat tools in the extension's pages: every call goes through the background, which holds the token.
 * In the side panel the browser shows no microphone prompt, so a refusal there offers to open Parley in a tab, where
 * the prompt appears; the permission then holds for the side panel too (same extension origin).
 */
export function useExtensionChatServices(mode: 'panel' | 'page'): ChatServices {
  const { t } = useTranslation('extension');
  return useMemo(
    () => ({
      transcribe: async (audio, signal) => {
        const recording = await blobToDataUrl(audio);
        const { text } = await abortable(
          sendMessage('TRANSCRIBE', { audio: recording, name: recordingName(audio.type) }),
          signal,
        );
        refreshCredits();
        return text;
      },
      translate: async ({ text, target, model }) => {
        const result = await apiCall('translate', {
          body: { text, target, ...(model ? { model: model as ModelId } : {}) },
        });
        refreshCredits();
        return result.data.text;
      },
      // Refused for credits or plan (402): the plans are on the web app, in a tab.
      upgradeLink: (error) =>
        (error as { status?: number } | null)?.status === 402 ? (
          <button
            type="button"
            className="font-medium underline"
            onClick={() => void browser.tabs.create({ url: `${WEB_ORIGIN}/subscription` })}
          >
            {t('chat.seePlans')}
          </button>
        ) : null,
      errorText: (error) => {
        const e = error as { name?: string; code?: string; status?: number; message?: string } | null;
        if (e?.name !== 'ExtensionMessageError') return null;
        if (e.status === 0) return t('errors.network');
        return e.message || null;
      },
      ...(mode === 'panel'
        ? {
            microphoneHelp: (
              <>
                {t('chat.microphoneHelp')}{' '}
                <button
                  type="button"
                  className="font-medium underline"
                  onClick={() => void browser.tabs.create({ url: browser.runtime.getURL(FULL_PAGE_PATH) })}
                >
                  {t('header.fullPage')}
                </button>
              </>
            ),
          }
        : {}),
    }),
    [mode, t],
  );
}
