import type { Page } from '@playwright/test';
import { buildPdf, buildPng } from '../../../apps/api/src/modules/documents/test-fixtures.js';
import { apiGet, apiSignUp, shot, tr, uniqueEmail, type Lng } from '../../support.js';
import { apiPost, expect, postUpdateToken, test } from '../fixtures.js';

/**
 * The side panel's chat has the web chat's tools (the same components): files, Ask For Web, voice input, read
 * aloud and translate, every call going through the background.
 */

// A microphone (Chromium's fake device) whose permission prompt is answered "allow".
test.use({ browserArgs: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] });

async function openPanel(page: Page, openExtensionPage: (file: 'sidepanel.html') => Promise<Page>, lng: Lng = 'en') {
  const user = await apiSignUp(uniqueEmail(`panel-tools-${lng}`));
  if (lng !== 'en') expect((await apiPost('/api/user/profile', user.token, { language: lng })).status).toBe(200);
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  const panel = await openExtensionPage('sidepanel.html');
  await panel.setViewportSize({ width: 400, height: 760 });
  await expect(panel.getByRole('button', { name: /parley-test-model/ })).toBeVisible();
  return { panel, user };
}

const composer = (panel: Page, lng: Lng = 'en') =>
  panel.getByRole('textbox', { name: tr(lng, 'chat:composer.label'), exact: true });
const answered = (panel: Page, lng: Lng = 'en') =>
  expect(panel.getByRole('button', { name: tr(lng, 'chat:composer.stop'), exact: true })).toHaveCount(0, {
    timeout: 20_000,
  });
const lastAnswer = (panel: Page) => panel.getByRole('log').getByRole('article').last();

test('the side panel attaches an image and a PDF picked from the computer, with their sizes', async ({
  page,
  openExtensionPage,
}) => {
  const { panel } = await openPanel(page, openExtensionPage);
  await expect(composer(panel)).toBeFocused();
  const chooser = panel.waitForEvent('filechooser');
  await panel.getByRole('button', { name: tr('en', 'chat:composer.attach') }).click();
  const png = Buffer.from(buildPng());
  await (
    await chooser
  ).setFiles([
    { name: 'pixel.png', mimeType: 'image/png', buffer: png },
    {
      name: 'report.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(buildPdf([['Alpha page about apples'], ['Bravo page about the budget of 2025']])),
    },
  ]);
  const chips = panel.getByRole('list', { name: tr('en', 'chat:composer.attachments') });
  await expect(chips).toContainText('pixel.png');
  await expect(chips).toContainText(`${png.length} bytes`);
  await expect(chips).toContainText('report.pdf');
  await shot(panel, 'panel-files-attached');

  await composer(panel).fill('What is the budget in these files?');
  await composer(panel).press('Enter');
  await answered(panel);
  await expect(lastAnswer(panel)).toContainText('I can see 1 image(s).');
  await expect(lastAnswer(panel)).toContainText('From the document (p.');
  await expect(chips).toHaveCount(0);
  // The files went with the question: they are listed over it.
  await expect(panel.getByRole('log')).toContainText('pixel.png');
  await expect(panel.getByRole('log')).toContainText('report.pdf');

  // A file of another kind is refused with the web chat's message.
  const again = panel.waitForEvent('filechooser');
  await panel.getByRole('button', { name: tr('en', 'chat:composer.attach') }).click();
  await (await again).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(panel.getByRole('alert')).toHaveText(tr('en', 'chat:files.unsupported'));
});

test('Ask For Web searches and cites its sources; read aloud and translate work on the answer', async ({
  page,
  openExtensionPage,
}) => {
  const { panel, user } = await openPanel(page, openExtensionPage);
  const web = panel.getByRole('button', { name: tr('en', 'chat:composer.webSearch') });
  await expect(web).toHaveAttribute('aria-pressed', 'false');
  await web.click();
  await expect(web).toHaveAttribute('aria-pressed', 'true');
  await composer(panel).fill('How many moons does Mars have?');
  await composer(panel).press('Enter');
  await answered(panel);
  const answer = lastAnswer(panel);
  await expect(answer).toContainText('According to [1]');
  await expect(answer.getByRole('link', { name: /Mars facts/ })).toHaveAttribute(
    'href',
    'https://science.example.org/mars',
  );

  // Read aloud: the browser is asked to say the answer in the interface's language, and Stop stops it.
  await panel.evaluate(() => {
    const w = window as unknown as { __spoken: { text: string; lang: string }[] };
    w.__spoken = [];
    window.speechSynthesis.speak = (utterance) => {
      w.__spoken.push({ text: utterance.text, lang: utterance.lang });
      setTimeout(() => utterance.dispatchEvent(new SpeechSynthesisEvent('start', { utterance })), 10);
    };
  });
  await answer.getByRole('button', { name: tr('en', 'chat:message.readAloud'), exact: true }).click();
  await expect(answer.getByRole('button', { name: tr('en', 'chat:message.stopReading'), exact: true })).toBeVisible();
  const spoken = await panel.evaluate(
    () => (window as unknown as { __spoken: { text: string; lang: string }[] }).__spoken,
  );
  expect(spoken).toHaveLength(1);
  expect(spoken[0]!.text).toContain('You asked: How many moons does Mars have?');
  expect(spoken[0]!.lang).toBe('en-US');
  await answer.getByRole('button', { name: tr('en', 'chat:message.stopReading'), exact: true }).click();
  await expect(answer.getByRole('button', { name: tr('en', 'chat:message.readAloud'), exact: true })).toBeVisible();

  // Translate: the menu of languages, the translation under the answer, one credit, the header follows.
  const before = (
    await apiGet<{ credits: { basicCredit: number; dailyCredit: number } }>('/api/user/profile', user.token)
  ).data.credits;
  await answer.getByRole('button', { name: tr('en', 'chat:message.translate'), exact: true }).click();
  const menu = panel.getByRole('menu', { name: tr('en', 'chat:message.translateTo') });
  await expect(menu.getByRole('menuitem').first()).toBeInViewport({ ratio: 1 });
  await menu.getByRole('menuitem', { name: /^\s*Spanish\s*$/i }).click();
  const region = answer.getByRole('region', { name: tr('en', 'chat:message.translation', { language: 'Spanish' }) });
  await expect(region).toContainText('(Spanish) You asked: How many moons does Mars have?');
  const after = (
    await apiGet<{ credits: { basicCredit: number; dailyCredit: number } }>('/api/user/profile', user.token)
  ).data.credits;
  expect(after.basicCredit + after.dailyCredit).toBe(before.basicCredit + before.dailyCredit - 1);
  await shot(panel, 'panel-web-translate');
  await region.getByRole('button', { name: tr('en', 'chat:message.closeTranslation') }).click();
  await expect(region).toHaveCount(0);
});

test('voice input records in the panel and the background has it transcribed', async ({ page, openExtensionPage }) => {
  const { panel } = await openPanel(page, openExtensionPage);
  await composer(panel).fill('Please note:');
  // Chromium's own recognition needs Google's service: the recording (MediaRecorder) path is the one that runs here.
  await panel.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.webkitSpeechRecognition;
    delete w.SpeechRecognition;
  });
  await panel.getByRole('button', { name: tr('en', 'chat:voice.start'), exact: true }).click();
  await expect(panel.getByRole('status').filter({ hasText: '0:01' })).toBeVisible({ timeout: 5_000 });
  await shot(panel, 'panel-voice-recording');
  await panel.getByRole('button', { name: tr('en', 'chat:voice.stop'), exact: true }).click();
  await expect(composer(panel)).toHaveValue(/^Please note: Transcribed [1-9]\d* bytes of audio\.$/, {
    timeout: 15_000,
  });
  await expect(composer(panel)).toBeFocused();
});

for (const lng of ['es', 'fr'] as const) {
  test(`in ${lng}, the panel's chat tools speak ${lng}`, async ({ page, openExtensionPage }) => {
    const { panel } = await openPanel(page, openExtensionPage, lng);
    for (const key of ['chat:composer.attach', 'chat:composer.url', 'chat:voice.start']) {
      await expect(panel.getByRole('button', { name: tr(lng, key), exact: true })).toBeVisible();
    }
    await expect(panel.getByRole('button', { name: tr(lng, 'chat:composer.webSearch') })).toBeVisible();
    await composer(panel, lng).fill('Bonjour');
    await composer(panel, lng).press('Enter');
    await answered(panel, lng);
    const answer = lastAnswer(panel);
    await expect(answer.getByRole('button', { name: tr(lng, 'chat:message.readAloud'), exact: true })).toBeVisible();
    await answer.getByRole('button', { name: tr(lng, 'chat:message.translate'), exact: true }).click();
    await expect(panel.getByRole('menu', { name: tr(lng, 'chat:message.translateTo') })).toBeVisible();
    await shot(panel, `panel-chat-${lng}`);
    await panel.keyboard.press('Escape');
  });
}
