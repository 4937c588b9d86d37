import { shot, tr } from '../../support.js';
import { expect, parley, signIn, test, URLS } from '../sites.js';

const SUMMARY_FAILED = 'Could not generate summary, try again after reloading the page';

test('Outlook: Summarize shows a summary of the open conversation', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.outlook);
  const summary = parley(site, 'summary');
  await summary.getByRole('button', { name: tr('en', 'extension:onSite.summarize') }).click();
  const text = summary.locator('[data-parley=summary]');
  // The fake AI answers with what it was given: the conversation read from the page.
  await expect(text).toContainText('You asked:');
  await expect(text).toContainText('Invoice 2291');
  await expect(text).not.toHaveClass(/error/);
  await expect(summary.getByText(tr('en', 'extension:onSite.summaryTitle'), { exact: true })).toBeVisible();
  await shot(site, 'extension-outlook-summary');
});

test('Outlook: when the AI fails, the panel says the summary could not be made', async ({ context, page, storage }) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.outlook);
  const summary = parley(site, 'summary');
  const button = summary.getByRole('button', { name: tr('en', 'extension:onSite.summarize') });
  await expect(button).toBeVisible();
  // A marker in the mail makes the fake AI answer 500.
  await site.evaluate(() =>
    document.querySelectorAll('[aria-label="Message body"][role=document]').forEach((body) => body.append(' #fail500')),
  );
  await button.click();
  const text = summary.locator('[data-parley=summary]');
  await expect(text).toHaveText(SUMMARY_FAILED);
  await expect(text).toHaveClass(/error/);
  expect(tr('en', 'extension:onSite.summaryFailed')).toBe(SUMMARY_FAILED);
  // The button works again: a later try is possible.
  await expect(button).toBeEnabled();
  await shot(site, 'extension-outlook-summary-failed');
});
