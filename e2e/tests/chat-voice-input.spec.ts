import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config';
import { shot, tr } from '../support';
import {
  basicCredits,
  composer,
  doneButton,
  micButton,
  openChat,
  recordingStatus,
  withoutBrowserRecognition,
} from './chat-helpers';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const transcribed = /^Transcribed [1-9]\d* bytes of audio\.$/;

// A microphone (Chromium's fake device) whose permission prompt is answered "allow".
test.use({
  launchOptions: {
    executablePath,
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  },
});

test.describe('voice input with a microphone', () => {
  test('records, transcribes on the server, puts the text in the composer and spends one credit', async ({ page }) => {
    await withoutBrowserRecognition(page);
    const token = await openChat(page, 'voice-record');
    const before = await basicCredits(token);
    await composer(page).fill('Please note:');

    await micButton(page).click();
    await expect(recordingStatus(page)).toBeVisible();
    await expect(recordingStatus(page)).toContainText('0:01', { timeout: 5_000 });
    await shot(page, `voice-recording`);

    const upload = page.waitForRequest((r) => r.url().endsWith('/api/ai/transcribe') && r.method() === 'POST');
    // The credits shown elsewhere are read again once the transcription has spent one.
    const profileRefresh = page.waitForRequest((r) => r.url().endsWith('/api/user/profile') && r.method() === 'GET');
    await doneButton(page).click();
    const request = await upload;
    await profileRefresh;
    expect(request.headers()['content-type']).toMatch(/^multipart\/form-data/);
    expect(request.headers()['authorization']).toMatch(/^Bearer /);

    // What was said is added after what was typed; the microphone is offered again.
    await expect(composer(page)).toHaveValue(/^Please note: Transcribed [1-9]\d* bytes of audio\.$/);
    await expect(composer(page)).toBeFocused();
    await expect(micButton(page)).toBeVisible();
    await shot(page, `voice-transcribed`);
    const after = await basicCredits(token);
    expect(after.basicUse).toBe(before.basicUse + 1);
    expect(after.left).toBe(before.left - 1);

    // The text is a question like any other.
    await composer(page).press('Enter');
    await expect(page.getByRole('log')).toContainText('You asked: Please note: Transcribed', { timeout: 20_000 });
  });

  test('Cancel throws the recording away: nothing is sent, nothing is spent', async ({ page }) => {
    await withoutBrowserRecognition(page);
    const token = await openChat(page, 'voice-cancel');
    const before = await basicCredits(token);
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/ai/transcribe')) uploads.push(r.url());
    });

    await micButton(page).click();
    await expect(recordingStatus(page)).toBeVisible();
    await page.waitForTimeout(500);
    await page.getByRole('button', { name: tr('en', 'chat:voice.cancel') }).click();
    await expect(micButton(page)).toBeVisible();
    await page.waitForTimeout(500);
    expect(uploads).toEqual([]);
    await expect(composer(page)).toHaveValue('');
    expect(await basicCredits(token)).toEqual(before);
  });

  test("where the browser's own recognition cannot hear (Chromium without a speech service), records instead", async ({
    page,
  }) => {
    // Debian's Chromium has webkitSpeechRecognition, but it cannot capture here ('audio-capture').
    const token = await openChat(page, 'voice-fallback');
    expect(
      await page.evaluate(() => typeof (window as unknown as Record<string, unknown>).webkitSpeechRecognition),
    ).toBe('function');
    const before = await basicCredits(token);

    await micButton(page).click();
    await expect(recordingStatus(page)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(recordingStatus(page)).toContainText('0:01', { timeout: 5_000 });
    await doneButton(page).click();
    await expect(composer(page)).toHaveValue(transcribed);
    expect((await basicCredits(token)).basicUse).toBe(before.basicUse + 1);

    // The next time it goes straight to recording.
    await micButton(page).click();
    await expect(recordingStatus(page)).toBeVisible();
    await page.getByRole('button', { name: tr('en', 'chat:voice.cancel') }).click();
    await expect(micButton(page)).toBeVisible();
  });
});
