import type { Settings } from '@parley/contract';
import { readStoredSettings } from './settings-store';

/** Lower case, no trailing dot, no leading "www." (so "www.example.com" and "example.com" name the same site). */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
}

/**
 * Whether the person turned the extension off on this host. An entry covers the host and its subdomains:
 * "example.com" disables example.com, www.example.com and mail.example.com, but not notexample.com.
 */
export function isDisabled(hostname: string, settings: Pick<Settings, 'disabledSites'> | null | undefined): boolean {
  const host = normalizeHost(hostname);
  if (!host) return false;
  for (const entry of settings?.disabledSites ?? []) {
    const site = normalizeHost(entry);
    if (site && (host === site || host.endsWith(`.${site}`))) return true;
  }
  return false;
}

/** Whether the host of this page is disabled now (the content scripts follow changes live, see ui/on-site/live.ts). */
export async function isDisabledHere(hostname: string = location.hostname): Promise<boolean> {
  return isDisabled(hostname, await readStoredSettings());
}
