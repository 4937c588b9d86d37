import { expect, type Page } from '@playwright/test';
import { apiGet } from '../support';

/** A conversation made through the API (one question, its answer), once the server has named it. */
export async function apiChat(token: string, text: string) {
  const form = new FormData();
  form.set('request', JSON.stringify({ model: 'CUSTOM_OPENAI_COMPATIBLE', text }));
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/ai/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(200);
  const id = res.headers.get('x-chat-id')!;
  await res.text();
  await expect
    .poll(async () => {
      const { data } = await apiGet<{ chatHistoryId: string; title: string }[]>(
        '/api/mongo/users/chat/histories',
        token,
      );
      return data.find((c) => c.chatHistoryId === id)?.title;
    })
    .toBe('Test chat title');
  return id;
}

/** Renames a conversation through the API (to tell conversations apart on screen). */
export async function apiRename(token: string, chatHistoryId: string, title: string) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/mongo/users/chat/rename`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ chatHistoryId, title }),
  });
  expect(res.status).toBe(200);
}

/** Light or dark, and the font size setting, as the Appearance page stores them in this browser. */
export async function setAppearance(page: Page, appearance: { theme?: 'light' | 'dark'; fontSize?: number }) {
  await page.evaluate((a) => {
    if (a.theme) localStorage.setItem('theme', a.theme);
    if (a.fontSize) localStorage.setItem('fontSize', String(a.fontSize));
  }, appearance);
}

/** True when the page cannot be scrolled sideways (nothing pokes out to the right). */
export const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
