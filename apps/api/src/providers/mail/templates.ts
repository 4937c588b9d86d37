import { translate } from '@parley/i18n/server';
import type { MailMessage } from './index.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Kind = 'verify' | 'reset' | 'exists' | 'student';

/** A localized mail with one action link, as plain text and simple HTML. */
export function renderMail(
  lang: string,
  kind: Kind,
  to: string,
  vars: { name: string; link: string; hours?: number; minutes?: number },
): MailMessage {
  const t = (key: string) =>
    translate(lang, 'mail', key, { name: vars.name, hours: vars.hours ?? 0, minutes: vars.minutes ?? 0 });
  const subject = t(`${kind}.subject`);
  const lines = [t('greeting'), '', t(`${kind}.body`), '', vars.link, '', t(`${kind}.note`), '', t('signature')];
  const html = `<!doctype html><html lang="${escapeHtml(lang)}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(t('greeting'))}</p>
<p>${escapeHtml(t(`${kind}.body`))}</p>
<p><a href="${escapeHtml(vars.link)}" style="display:inline-block;background:#3b82f6;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(t(`${kind}.action`))}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(vars.link)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(t(`${kind}.note`))}</p>
<p>${escapeHtml(t('signature'))}</p>
</body></html>`;
  return { to, subject, text: lines.join('\n'), html, link: vars.link };
}
