import { shot, tr } from '../../support.js';
import { allowClipboard, clipboardText, expect, onSite, signIn, test, URLS } from '../sites.js';

const SUMMARY_FAILED = 'Could not generate summary, try again after reloading the page';

test('Outlook: Summarize shows a summary of the open conversation', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.outlook);
  const summary = onSite(site, 'summary');
  await summary.click(tr('en', 'extension:onSite.summarize'));
  const text = () => summary.text('[data-parley=summary]');
  // The fake AI answers with what it was given: the conversation read from the page.
  await expect.poll(text).toContain('You asked:');
  expect(await text()).toContain('Invoice 2291');
  expect(await summary.classes('[data-parley=summary]')).not.toContain('error');
  expect(await summary.text('[data-parley=summary-panel] .title')).toBe(tr('en', 'extension:onSite.summaryTitle'));
  expect(await summary.visible('[data-parley=summary-panel] .title')).toBe(true);
  // The summary is drawn, not selectable: Copy puts it on the clipboard.
  await allowClipboard(context);
  await summary.click(tr('en', 'extension:onSite.copy'));
  await expect.poll(() => summary.buttonNames()).toContain(tr('en', 'extension:onSite.copied'));
  expect(await clipboardText(site)).toBe(await text());
  await shot(site, 'extension-outlook-summary');
});

test('Outlook: when the AI fails, the panel says the summary could not be made', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.outlook);
  const summary = onSite(site, 'summary');
  const SUMMARIZE = tr('en', 'extension:onSite.summarize');
  await expect.poll(() => summary.buttonNames()).toContain(SUMMARIZE);
  // A marker in the mail makes the fake AI answer 500.
  await site.evaluate(() =>
    document.querySelectorAll('[aria-label="Message body"][role=document]').forEach((body) => body.append(' #fail500')),
  );
  await summary.click(SUMMARIZE);
  await expect.poll(() => summary.text('[data-parley=summary]')).toBe(SUMMARY_FAILED);
  expect(await summary.classes('[data-parley=summary]')).toContain('error');
  expect(tr('en', 'extension:onSite.summaryFailed')).toBe(SUMMARY_FAILED);
  // A failure is nothing to copy.
  const COPY = tr('en', 'extension:onSite.copy');
  expect((await summary.buttons()).find((b) => b.name === COPY)).toEqual({ name: COPY, visible: true, enabled: false });
  // The button works again: a later try is possible.
  await expect
    .poll(async () => (await summary.buttons()).find((b) => b.name === SUMMARIZE))
    .toEqual({ name: SUMMARIZE, visible: true, enabled: true });
  await shot(site, 'extension-outlook-summary-failed');
});
