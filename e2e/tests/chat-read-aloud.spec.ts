import { expect, test, type Page } from '@playwright/test';
import { type Lng, shot, tr } from '../support';
import { askAndWait, lastAnswer, log, openChat, switchLanguage } from './chat-helpers';

type Spoken = { text: string; lang: string };
type Recorder = { spoken: Spoken[]; cancels: number };

/**
 * Records what the page asks the browser to say (text and language of each utterance) and each cancel.
 * With `withVoice`, a voice stands in for the engine: headless Chromium has none, so its real engine fails every
 * utterance at once; the stand-in speaks until cancelled (then fires 'interrupted', as Chromium does) or until the
 * test ends it. Without it, the real engine runs.
 */
async function recordSpeech(page: Page, withVoice: boolean) {
  await page.addInitScript((standIn: boolean) => {
    const record: Recorder = { spoken: [], cancels: 0 };
    const w = window as unknown as { __speech: Recorder; __finishSpeaking: () => void };
    w.__speech = record;
    const synth = window.speechSynthesis;
    const realSpeak = synth.speak.bind(synth);
    const realCancel = synth.cancel.bind(synth);
    let current: SpeechSynthesisUtterance | null = null;
    synth.speak = (utterance) => {
      record.spoken.push({ text: utterance.text, lang: utterance.lang });
      if (!standIn) return realSpeak(utterance);
      current = utterance;
      setTimeout(() => utterance.dispatchEvent(new SpeechSynthesisEvent('start', { utterance })), 10);
    };
    synth.cancel = () => {
      record.cancels += 1;
      const interrupted = current;
      current = null;
      if (interrupted) {
        setTimeout(
          () =>
            interrupted.dispatchEvent(
              new SpeechSynthesisErrorEvent('error', { utterance: interrupted, error: 'interrupted' }),
            ),
          10,
        );
      }
      realCancel();
    };
    w.__finishSpeaking = () => {
      const done = current;
      current = null;
      done?.dispatchEvent(new SpeechSynthesisEvent('end', { utterance: done }));
    };
  }, withVoice);
}

const speech = (page: Page) => page.evaluate(() => (window as unknown as { __speech: Recorder }).__speech);

const readButton = (page: Page, lng: Lng = 'en', answer = lastAnswer(page)) =>
  answer.getByRole('button', { name: tr(lng, 'chat:message.readAloud'), exact: true });
const stopButton = (page: Page, lng: Lng = 'en', answer = lastAnswer(page)) =>
  answer.getByRole('button', { name: tr(lng, 'chat:message.stopReading'), exact: true });

test.describe('read aloud', () => {
  test('speaks the answer as words, turns into Stop reading, and Stop cancels', async ({ page }) => {
    await recordSpeech(page, true);
    await openChat(page, 'read-aloud');
    await askAndWait(page, 'Read **this** answer [aloud](https://example.com), please');
    const first = log(page).getByRole('article').first();

    await readButton(page).click();
    await expect(stopButton(page)).toBeVisible();
    await expect(stopButton(page)).toHaveAttribute('aria-pressed', 'true');
    // Markdown is read as words: no asterisks, no link address.
    expect((await speech(page)).spoken).toEqual([{ text: 'You asked: Read this answer aloud, please', lang: 'en-US' }]);
    await shot(page, `read-aloud-speaking`);

    const cancelsBefore = (await speech(page)).cancels;
    await stopButton(page).click();
    await expect(readButton(page)).toBeVisible();
    await expect(readButton(page)).toHaveAttribute('aria-pressed', 'false');
    expect((await speech(page)).cancels).toBeGreaterThan(cancelsBefore);
    // Being stopped is not a failure.
    await page.waitForTimeout(100);
    await expect(log(page).getByRole('alert')).toHaveCount(0);
    expect((await speech(page)).spoken).toHaveLength(1);

    // Reading to the end gives the button back too.
    await readButton(page).click();
    await expect(stopButton(page)).toBeVisible();
    await page.evaluate(() => (window as unknown as { __finishSpeaking: () => void }).__finishSpeaking());
    await expect(readButton(page)).toBeVisible();

    // One message at a time: reading the second answer stops the first.
    await askAndWait(page, 'A second question');
    const second = lastAnswer(page);
    await readButton(page, 'en', first).click();
    await expect(stopButton(page, 'en', first)).toBeVisible();
    await readButton(page, 'en', second).click();
    await expect(stopButton(page, 'en', second)).toBeVisible();
    await expect(readButton(page, 'en', first)).toBeVisible();
    expect((await speech(page)).spoken.at(-1)).toEqual({ text: 'You asked: A second question', lang: 'en-US' });
    await stopButton(page, 'en', second).click();
    await expect(page.getByRole('button', { name: tr('en', 'chat:message.stopReading') })).toHaveCount(0);
  });

  test('in Spanish the utterance is Spanish and the controls are too', async ({ page }) => {
    await recordSpeech(page, true);
    await openChat(page, 'read-aloud-es');
    await switchLanguage(page, 'es');
    await askAndWait(page, 'Hola, ¿qué tal?', 'es');

    await readButton(page, 'es').click();
    await expect(stopButton(page, 'es')).toBeVisible();
    expect((await speech(page)).spoken).toEqual([{ text: 'You asked: Hola, ¿qué tal?', lang: 'es-ES' }]);
    await shot(page, `read-aloud-es`);
    await stopButton(page, 'es').click();
    await expect(readButton(page, 'es')).toBeVisible();
  });

  test('with no voice in the browser (headless Chromium), says it could not read aloud and lets you retry', async ({
    page,
  }) => {
    await recordSpeech(page, false);
    await openChat(page, 'read-aloud-novoice');
    expect(await page.evaluate(() => window.speechSynthesis.getVoices().length)).toBe(0);
    await askAndWait(page, 'Say something');

    await readButton(page).click();
    const alert = lastAnswer(page).getByRole('alert');
    await expect(alert).toHaveText(tr('en', 'chat:message.readAloudFailed'));
    await expect(readButton(page)).toBeVisible();
    await expect(readButton(page)).toHaveAttribute('aria-pressed', 'false');
    expect((await speech(page)).spoken).toEqual([{ text: 'You asked: Say something', lang: 'en-US' }]);
    await shot(page, `read-aloud-no-voice`);

    // The real engine was asked again, and failed again: the message is still there, nothing else broke.
    await readButton(page).click();
    await expect.poll(async () => (await speech(page)).spoken.length).toBe(2);
    await expect(alert).toHaveText(tr('en', 'chat:message.readAloudFailed'));
    await expect(readButton(page)).toBeVisible();

    // The chat goes on; the message belongs to the answer that could not be read, and moves with the next try.
    const first = log(page).getByRole('article').first();
    await askAndWait(page, 'Another one');
    await expect(first.getByRole('alert')).toBeVisible();
    await readButton(page).click();
    await expect(lastAnswer(page).getByRole('alert')).toHaveText(tr('en', 'chat:message.readAloudFailed'));
    await expect(log(page).getByRole('alert')).toHaveCount(1);
  });
});
