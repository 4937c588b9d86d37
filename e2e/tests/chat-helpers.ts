import { expect, type Page } from '@playwright/test';
import { apiGet, apiSignUp, openSignedIn, tr, uniqueEmail, type Lng } from '../support';

/** What the chat specs share: a signed-in chat page, the composer, asking and waiting for an answer. */

export const MODEL_LABEL = 'parley-test-model';

export const composer = (page: Page, lng: Lng = 'en') =>
  page.getByRole('textbox', { name: tr(lng, 'chat:composer.label'), exact: true });
export const log = (page: Page) => page.getByRole('log');

/** A fresh account (each test gets its own credits), signed in on /chat. */
export async function openChat(page: Page, tag: string) {
  const { token } = await apiSignUp(uniqueEmail(tag));
  await openSignedIn(page, token, '/chat');
  await expect(composer(page)).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(MODEL_LABEL) })).toBeVisible();
  return token;
}

/** Switches the interface language from the header, as a person would, and waits until it is saved. */
export async function switchLanguage(page: Page, lng: Lng) {
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/profile') && r.request().method() === 'POST');
  await page.locator('#header-language').selectOption(lng);
  await saved;
  await expect(composer(page, lng)).toBeVisible();
}

/** Sends a question and waits until its answer is complete (the Stop button has gone). */
export async function askAndWait(page: Page, question: string, lng: Lng = 'en') {
  await composer(page, lng).fill(question);
  await composer(page, lng).press('Enter');
  await expect(page.getByRole('button', { name: tr(lng, 'chat:composer.stop'), exact: true })).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(log(page).getByRole('article').last()).toContainText('You asked:');
}

/** The last answer of the conversation. */
export const lastAnswer = (page: Page) => log(page).getByRole('article').last();

/** What can pay for a basic model (daily credits first, then basic ones), and the basic credits used. */
export async function basicCredits(token: string) {
  const { data } = await apiGet<{ basicUse: number; credits: { dailyCredit: number; basicCredit: number } }>(
    '/api/user/profile',
    token,
  );
  return { basicUse: data.basicUse, left: data.credits.dailyCredit + data.credits.basicCredit };
}

/** The browser's own speech recognition is taken away, so the microphone is recorded and sent to the server. */
export const withoutBrowserRecognition = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.webkitSpeechRecognition;
    delete w.SpeechRecognition;
  });

export const micButton = (page: Page, lng: Lng = 'en') =>
  page.getByRole('button', { name: tr(lng, 'chat:voice.start'), exact: true });
export const doneButton = (page: Page, lng: Lng = 'en') =>
  page.getByRole('button', { name: tr(lng, 'chat:voice.stop'), exact: true });
/** "Recording 0:01": the words before the time. */
export const recordingStatus = (page: Page, lng: Lng = 'en') =>
  page.getByRole('status').filter({ hasText: tr(lng, 'chat:voice.recording', { time: '' }).trim() });
