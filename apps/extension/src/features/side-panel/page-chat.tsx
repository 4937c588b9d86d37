import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageContent } from '../../messaging/protocol';
import { sendTabMessage } from '../../messaging/messaging';
import { targetTab } from '../capture/tab-access';

/** "Chat with this page": reads the page through its content script and shows exactly what would be sent. */
export function PageChat({
  value,
  onChange,
}: {
  value: PageContent | null;
  onChange: (v: PageContent | null) => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'reading' | 'failed'>('idle');

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

  return (
    <section className="stack" aria-label={t('pageChat.button')}>
      <div className="row">
        <button onClick={() => void read()} disabled={state === 'reading'}>
          {state === 'reading' ? t('pageChat.reading') : t('pageChat.button')}
        </button>
        {value && <button onClick={() => onChange(null)}>{t('pageChat.discard')}</button>}
      </div>
      {state === 'failed' && (
        <p role="alert" className="error">
          {t('pageChat.unavailable')}
        </p>
      )}
      {value && (
        <div className="stack" style={{ gap: 6 }}>
          <strong>{t('pageChat.previewTitle')}</strong>
          <span className="muted">
            {t('pageChat.previewHint')} {t('pageChat.chars', { count: value.text.length })}
          </span>
          {value.truncated && <span className="notice">{t('pageChat.truncated', { count: value.text.length })}</span>}
          <pre className="preview" data-testid="page-preview">
            {value.text}
          </pre>
        </div>
      )}
    </section>
  );
}
