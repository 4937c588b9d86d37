import type { Settings } from './settings.js';

/** Sites with a Summarize button, in the order settings list them; each has a `summarize<Site>` flag. */
export const SUMMARIZE_SITES = ['Gmail', 'Outlook', 'Youtube'] as const;
/** Sites with instant reply, in the order settings list them; each has an `instantReply<Site>` flag. */
export const INSTANT_REPLY_SITES = [
  'Gmail',
  'Outlook',
  'Linkedin',
  'Instagram',
  'Facebook',
  'Youtube',
  'Twitter',
] as const;

/** The settings stored as the strings '1' and '0'. */
export type SettingFlag = { [K in keyof Settings]: Settings[K] extends '1' | '0' ? K : never }[keyof Settings];

const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * A host for the disabled-sites list from what a person typed (a host or a whole address): lower case, without
 * "www." or a trailing dot; null when it is not a host name.
 */
export function siteHostFromInput(input: string): string | null {
  let value = input.trim().toLowerCase();
  if (!value) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  }
  value = value
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  return value.length <= 253 && HOST_PATTERN.test(value) ? value : null;
}
