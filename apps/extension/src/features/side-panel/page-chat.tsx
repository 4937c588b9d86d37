import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@parley/ui';
import { sendTabMessage } from '../../platform/messaging/messaging';
import type { PageContent } from '../../platform/messaging/protocol';
import { targetTab } from '../../platform/tabs/tabs';
import { PageIcon } from '../../ui/icons';
import { errorText, muted, notice, toolButton } from '../../ui/styles';

type ReadState = 'idle' | 'reading' | 'failed';
export type PageReader = { state: ReadState; read: () => Promise<void> };

/** "Chat with this page": reads the page through its content script. */
export function usePageReader(onChange: (v: PageContent | null) => void): PageReader {
  const [state, setState] = useState<ReadState>('idle');
  async function read() {
    setState('reading');
    try {
      const tabId = (await targetTab())?.id;
      if (tabId === undefined) throw new Error('no tab');
      onChange(await sendTabMessage(tabId, 'READ_PAGE'));
      setState('idle');
    } catch {
      onChange(null);
      setState('failed');
    }
  }
  return { state, read };
}

/** The "Chat with this page" button of the panel's action row. */
export function PageChatButton({ reader }: { reader: PageReader }) {
  const { t } = useTranslation();
  const reading = reader.state === 'reading';
  return (
    <button type="button" className={toolButton} onClick={() => void reader.read()} disabled={reading}>
      {reading ? <Spinner className="h-3.5 w-3.5 text-blue-500" /> : <PageIcon className="text-blue-500" />}
      {reading ? t('pageChat.reading') : t('pageChat.button')}
    </button>
  );
}

/** Why the page could not be read, or exactly what would be sent with the next question. */
export function PagePreview({
  reader,
  value,
  onChange,
}: {
  reader: PageReader;
  value: PageContent | null;
  onChange: (v: PageContent | null) => void;
}) {
  const { t } = useTranslation();
  const failed = reader.state === 'failed' && (
    <p role="alert" className={errorText}>
      {t('pageChat.unavailable')}
    </p>
  );
  if (!value) return failed || null;
  return (
    <>
      {failed}
      <section
        className="space-y-2 rounded-xl border border-zinc-200 bg-zinc-50 p-3 dark:border-zinc-800 dark:bg-zinc-900"
        aria-label={t('pageChat.previewTitle')}
      >
        <div className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <strong className="block text-sm font-semibold">{t('pageChat.previewTitle')}</strong>
            <span className={`block text-xs ${muted}`}>
              {t('pageChat.previewHint')} {t('pageChat.chars', { count: value.text.length })}
            </span>
          </div>
          <button
            type="button"
            className="shrink-0 rounded-md px-2 py-1 text-xs font-medium text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800"
            onClick={() => onChange(null)}
          >
            {t('pageChat.discard')}
          </button>
        </div>
        {value.truncated && (
          <span className={`block text-xs ${notice}`}>{t('pageChat.truncated', { count: value.text.length })}</span>
        )}
        <pre
          className="max-h-40 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-zinc-200 bg-white p-2.5 font-sans text-xs leading-relaxed text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300"
          data-testid="page-preview"
        >
          {value.text}
        </pre>
      </section>
    </>
  );
}
