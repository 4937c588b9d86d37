import type { Page } from '@playwright/test';
import { shot, tr, type Lng } from '../../support.js';
import type { Storage } from '../fixtures.js';
import { expect, parley, signIn, test, URLS } from '../sites.js';

/** Marks the page, so a test can tell it was never reloaded. */
const mark = (site: Page) => site.evaluate(() => ((window as unknown as { __kept: number }).__kept = 1));
const kept = (site: Page) => site.evaluate(() => (window as unknown as { __kept?: number }).__kept === 1);

const settingIs = (storage: () => Promise<Storage>, key: string, value: unknown) =>
  expect.poll(async () => (await storage()).settings?.[key]).toEqual(value);

test('the on-site UI switches to Spanish and to French as soon as the language setting changes', async ({
  context,
  page,
  storage,
  openExtensionPage,
}) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.gmail);
  await mark(site);
  const reply = parley(site, 'reply').first();
  const summary = parley(site, 'summary');
  await expect(reply.getByRole('button', { name: tr('en', 'extension:onSite.replyButton') })).toBeVisible();
  const options = await openExtensionPage('options.html');

  for (const [lng, language] of [
    ['es', 'SPANISH'],
    ['fr', 'FRENCH'],
  ] as Array<[Lng, string]>) {
    await options.locator('select[name=language]').selectOption(language);
    await settingIs(storage, 'language', language);
    const t = (key: string) => tr(lng, `extension:onSite.${key}`);
    await reply.getByRole('button', { name: t('replyButton') }).click();
    const panel = reply.locator('[data-parley=reply-panel]');
    await expect(panel.getByText(t('suggestion'), { exact: true })).toBeVisible();
    await expect(panel.locator('[data-parley=suggestion]')).toContainText('You asked:');
    for (const key of ['insert', 'regenerate', 'close']) {
      await expect(panel.getByRole('button', { name: t(key) })).toBeVisible();
    }
    await summary.getByRole('button', { name: t('summarize') }).click();
    await expect(summary.getByText(t('summaryTitle'), { exact: true })).toBeVisible();
    await expect(summary.locator('[data-parley=summary]')).toContainText('You asked:');
    await expect(site.getByRole('button', { name: tr('en', 'extension:onSite.replyButton') })).toHaveCount(0);
    await site.bringToFront();
    await shot(site, `extension-on-site-${lng}`);
    await panel.getByRole('button', { name: t('close') }).click();
  }
  expect(await kept(site)).toBe(true);
});

test('turning instant reply off removes the buttons without a reload; on brings them back', async ({
  context,
  page,
  storage,
  openExtensionPage,
}) => {
  await signIn(page, storage);
  const site = await context.newPage();
  await site.goto(URLS.gmail);
  await mark(site);
  const replyButtons = parley(site, 'reply');
  await expect(
    replyButtons.first().getByRole('button', { name: tr('en', 'extension:onSite.replyButton') }),
  ).toBeVisible();
  const options = await openExtensionPage('options.html');

  await options.locator('input[name=instantReplyGmail]').uncheck();
  await settingIs(storage, 'instantReplyGmail', '0');
  await expect(replyButtons).toHaveCount(0);
  // Only what the setting concerns: the Summarize button stays.
  await expect(
    parley(site, 'summary').getByRole('button', { name: tr('en', 'extension:onSite.summarize') }),
  ).toBeVisible();

  await options.locator('input[name=instantReplyGmail]').check();
  await settingIs(storage, 'instantReplyGmail', '1');
  await expect(
    replyButtons.first().getByRole('button', { name: tr('en', 'extension:onSite.replyButton') }),
  ).toBeVisible();
  expect(await kept(site)).toBe(true);
});

test('disabling the site and turning the mini menu off apply to open pages at once', async ({
  context,
  page,
  storage,
  openExtensionPage,
}) => {
  await signIn(page, storage);
  const gmail = await context.newPage();
  await gmail.goto(URLS.gmail);
  await mark(gmail);
  await expect(parley(gmail, 'summary')).toHaveCount(1);
  const article = await context.newPage();
  await article.goto(URLS.article);
  await mark(article);
  const options = await openExtensionPage('options.html');

  await options.getByPlaceholder('example.com').fill('mail.google.com');
  await options.getByRole('button', { name: tr('en', 'extension:options.addSite') }).click();
  await settingIs(storage, 'disabledSites', ['mail.google.com']);
  await expect(parley(gmail, 'reply')).toHaveCount(0);
  await expect(parley(gmail, 'summary')).toHaveCount(0);

  await options.locator('input[name=miniMenu]').uncheck();
  await settingIs(storage, 'miniMenu', '0');
  await article.locator('#para').click({ clickCount: 3 });
  await article.waitForTimeout(800);
  await expect(parley(article, 'quick')).toHaveCount(0);

  await options.locator('input[name=miniMenu]').check();
  await settingIs(storage, 'miniMenu', '1');
  await article.locator('h1').click();
  await article.locator('#para').click({ clickCount: 3 });
  await expect(
    parley(article, 'quick').getByRole('button', { name: tr('en', 'extension:onSite.explain') }),
  ).toBeVisible();
  expect(await kept(gmail)).toBe(true);
  expect(await kept(article)).toBe(true);
});
