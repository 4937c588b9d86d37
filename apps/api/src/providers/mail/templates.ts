import { translate } from '@parley/i18n/server';
import type { MailMessage } from './index.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Kind = 'verify' | 'reset' | 'exists' | 'student' | 'invite';

/** A name people chose, as one short line: no line breaks or control characters reach a mail. */
const oneLine = (s: string, max = 100) => {
  const clean = s
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

/** A localized mail with one action link, as plain text and simple HTML. */
export function renderMail(
  lang: string,
  kind: Kind,
  to: string,
  vars: {
    name: string;
    link: string;
    hours?: number;
    minutes?: number;
    days?: number;
    inviter?: string;
    organization?: string;
  },
): MailMessage {
  const t = (key: string) =>
    translate(lang, 'mail', key, {
      name: oneLine(vars.name),
      hours: vars.hours ?? 0,
      minutes: vars.minutes ?? 0,
      days: vars.days ?? 0,
      inviter: oneLine(vars.inviter ?? ''),
      organization: oneLine(vars.organization ?? ''),
    });
  const subject = t(`${kind}.subject`);
  // An invitation may go to someone without an account: no name to greet.
  const greeting = vars.name ? t('greeting') : translate(lang, 'mail', 'greetingNoName');
  const lines = [greeting, '', t(`${kind}.body`), '', vars.link, '', t(`${kind}.note`), '', t('signature')];
  const html = `<!doctype html><html lang="${escapeHtml(lang)}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t(`${kind}.body`))}</p>
<p><a href="${escapeHtml(vars.link)}" style="display:inline-block;background:#3b82f6;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(t(`${kind}.action`))}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(vars.link)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(t(`${kind}.note`))}</p>
<p>${escapeHtml(t('signature'))}</p>
</body></html>`;
  return { to, subject, text: lines.join('\n'), html, link: vars.link };
}
