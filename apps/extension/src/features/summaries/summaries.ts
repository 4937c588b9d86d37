import { DEFAULT_SETTINGS } from '@parley/contract/values';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { apiCall } from '../../platform/messaging/messaging';
import { readStoredSettings } from '../../platform/storage/settings-store';
import type { MailSummarySite, ReplySite, VideoSummarySite } from '../../sites/shared/types';
import { copyButton } from '../../ui/on-site/copy';
import { watchPage } from '../../ui/on-site/observe';
import { el, errorMessage, mountShadowUi, showText } from '../../ui/on-site/shadow';
import type { Translate } from '../../ui/on-site/strings';
import { listenTrusted } from '../../ui/on-site/trusted';

export type SummarySite = Pick<ReplySite, 'match'> &
  ({ kind: 'mail'; site: MailSummarySite } | { kind: 'video'; site: VideoSummarySite });

/** What the summary endpoint gets: the text read from the page (and, for a video, its address). */
export function summaryRequest(source: SummarySite): { kind: 'mail' | 'video'; text?: string; url?: string } | null {
  const url = new URL(location.href);
  if (source.kind === 'mail') {
    const mail = source.site.readForSummary(document);
    return mail?.text ? { kind: 'mail', text: mail.text } : null;
  }
  const video = source.site.readForSummary(document, url);
  if (!video) return null;
  return { kind: 'video', url: url.href, ...(video.transcript && video.text ? { text: video.text } : {}) };
}

/**
 * A Summarize button at the site's summary anchor (the open mail, the video's title). The summary, or the server's
 * localized failure, shows in a panel in the same shadow root.
 */
export function startSummaries(ctx: ContentScriptContext, source: SummarySite, t: Translate): () => void {
  let current: { anchor: Element; host?: Element; remove?: () => void } | null = null;
  const scan = () => {
    const found = source.match(new URL(location.href)) ? source.site.findSummaryAnchor(document) : null;
    if (current && (current.anchor !== found?.anchor || (current.host && !current.host.isConnected))) {
      current.remove?.();
      current = null;
    }
    if (!found || current) return;
    const entry: { anchor: Element; host?: Element; remove?: () => void } = { anchor: found.anchor };
    current = entry;
    void mountShadowUi(ctx, found.anchor, found.placement, (container) => buildSummaryUi(container, source, t)).then(
      (ui) => {
        entry.host = ui.shadowHost;
        entry.remove = () => ui.remove();
        if (current !== entry) ui.remove();
      },
      () => {
        if (current === entry) current = null;
      },
    );
  };
  const unwatch = watchPage(ctx, scan);
  return () => {
    unwatch();
    current?.remove?.();
    current = null;
  };
}

function buildSummaryUi(container: HTMLElement, source: SummarySite, t: Translate) {
  const root = el('div', 'parley');
  const open = el('button', 'primary', t('summarize'));
  open.type = 'button';
  open.dataset.parley = 'summarize';
  const panel = el('div', 'panel');
  panel.hidden = true;
  panel.dataset.parley = 'summary-panel';
  const body = el('p', 'text');
  body.dataset.parley = 'summary';
  const close = el('button', '', t('close'));
  close.type = 'button';
  let summary = '';
  const copy = copyButton(t, () => summary);
  copy.disabled = true;
  const actions = el('div', 'actions');
  actions.append(close, copy);
  panel.append(el('p', 'title', t('summaryTitle')), body, actions);
  root.append(open, panel);
  container.append(root);

  let generation = 0;
  listenTrusted(open, 'click', async () => {
    const id = ++generation;
    panel.hidden = false;
    open.disabled = true;
    summary = '';
    copy.disabled = true;
    body.classList.remove('error');
    showText(body, t('summarizing'));
    try {
      const request = summaryRequest(source);
      if (!request) throw new Error('empty');
      const settings = (await readStoredSettings()) ?? DEFAULT_SETTINGS;
      const { data } = await apiCall('summary', { body: { ...request, language: settings.language } });
      if (id === generation) {
        summary = data.text;
        showText(body, summary);
        copy.disabled = false;
      }
    } catch (error) {
      if (id !== generation) return;
      body.classList.add('error');
      // The server words this failure in the profile's language; the panel speaks the on-site UI's.
      const failed = (error as { code?: string } | null)?.code === 'SUMMARY_FAILED';
      showText(body, failed ? t('summaryFailed') : errorMessage(error, t('summaryFailed')));
    } finally {
      open.disabled = false;
    }
  });
  listenTrusted(close, 'click', () => {
    generation++;
    panel.hidden = true;
  });
}
