import { expect, test } from '@playwright/test';
import { shot, tr } from '../support';
import { micButton, openChat, switchLanguage, withoutBrowserRecognition } from './chat-helpers';

// The configuration's own Chromium flags: no microphone device at all.

test.describe('voice input without any microphone', () => {
  test('says that no microphone was found (in Spanish)', async ({ page }) => {
    await withoutBrowserRecognition(page);
    await openChat(page, 'voice-nomic');
    await switchLanguage(page, 'es');
    await micButton(page, 'es').click();
    await expect(page.getByRole('alert')).toContainText(tr('es', 'chat:voice.noMicrophone'));
    await expect(micButton(page, 'es')).toBeVisible();
    await shot(page, `voice-no-microphone-es`);
  });
});
