import { browser, type Browser } from 'wxt/browser';

export type Tab = Browser.tabs.Tab;

/** The tab to work on: the active one, or (when that is this very page, opened in a tab) the one used just before. */
export async function targetTab(): Promise<Tab | null> {
  const self = await browser.tabs.getCurrent().catch(() => undefined);
  let tabs = await browser.tabs.query({ currentWindow: true });
  if (!tabs.some((tab) => tab.id !== self?.id)) tabs = await browser.tabs.query({});
  const others = tabs.filter((tab) => tab.id !== undefined && tab.id !== self?.id);
  const active = others.find((tab) => tab.active);
  if (active) return active;
  others.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0));
  return others[0] ?? null;
}
