import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config';
import { shot, tr } from '../support';
import { composer, micButton, openChat, switchLanguage, withoutBrowserRecognition } from './chat-helpers';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// A microphone exists, but the permission prompt is answered "no" (headless Chromium's default without
// --use-fake-ui-for-media-stream).
test.use({ launchOptions: { executablePath, args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream'] } });

test.describe('voice input with the microphone refused', () => {
  test('recording: a clear message instead of a crash, and the chat goes on', async ({ page }) => {
    await withoutBrowserRecognition(page);
    await openChat(page, 'voice-denied');
    await micButton(page).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(tr('en', 'chat:voice.denied'));
    await expect(micButton(page)).toBeVisible();
    await shot(page, `voice-denied`);
    await alert.getByRole('button', { name: tr('en', 'chat:composer.dismiss') }).click();
    await expect(alert).toHaveCount(0);
    await composer(page).fill('Still here');
    await composer(page).press('Enter');
    await expect(page.getByRole('log')).toContainText('You asked: Still here', { timeout: 20_000 });
  });

  test("in French, with the browser's own recognition: the refusal is said in French", async ({ page }) => {
    await openChat(page, 'voice-denied-fr');
    await switchLanguage(page, 'fr');
    await micButton(page, 'fr').click();
    await expect(page.getByRole('alert')).toContainText(tr('fr', 'chat:voice.denied'));
    await expect(micButton(page, 'fr')).toBeVisible();
    await shot(page, `voice-denied-fr`);
  });
});
