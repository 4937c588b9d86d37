import type { Page } from '@playwright/test';
import { shot, tr, type Lng } from '../../support.js';
import type { Storage } from '../fixtures.js';
import { everyButtonName, expect, onSite, signIn, test, URLS } from '../sites.js';

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
  const reply = onSite(site, 'reply');
  const summary = onSite(site, 'summary');
  await expect.poll(() => reply.buttonNames()).toContain(tr('en', 'extension:onSite.replyButton'));
  const options = await openExtensionPage('options.html');

  for (const [lng, language] of [
    ['es', 'SPANISH'],
    ['fr', 'FRENCH'],
  ] as Array<[Lng, string]>) {
    await options.locator('select[name=language]').selectOption(language);
    await settingIs(storage, 'language', language);
    const t = (key: string) => tr(lng, `extension:onSite.${key}`);
    await site.bringToFront();
    await reply.click(t('replyButton'));
    await expect.poll(() => reply.visible('[data-parley=reply-panel]')).toBe(true);
    expect(await reply.text('[data-parley=reply-panel] .title')).toBe(t('suggestion'));
    await expect.poll(() => reply.text('[data-parley=suggestion]')).toContain('You asked:');
    await expect
      .poll(() => reply.buttonNames())
      .toEqual(expect.arrayContaining(['insert', 'regenerate', 'close'].map(t)));
    await summary.click(t('summarize'));
    await expect.poll(() => summary.visible('[data-parley=summary-panel] .title')).toBe(true);
    expect(await summary.text('[data-parley=summary-panel] .title')).toBe(t('summaryTitle'));
    await expect.poll(() => summary.text('[data-parley=summary]')).toContain('You asked:');
    expect(await everyButtonName(site)).not.toContain(tr('en', 'extension:onSite.replyButton'));
    await shot(site, `extension-on-site-${lng}`);
    await reply.click(t('close'));
    await expect.poll(() => reply.visible('[data-parley=reply-panel]')).toBe(false);
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
  const replyButtons = onSite(site, 'reply');
  await expect.poll(() => replyButtons.buttonNames()).toContain(tr('en', 'extension:onSite.replyButton'));
  const options = await openExtensionPage('options.html');

  await options.locator('input[name=instantReplyGmail]').uncheck();
  await settingIs(storage, 'instantReplyGmail', '0');
  await expect.poll(() => replyButtons.count()).toBe(0);
  // Only what the setting concerns: the Summarize button stays.
  expect(await onSite(site, 'summary').buttonNames()).toContain(tr('en', 'extension:onSite.summarize'));

  await options.locator('input[name=instantReplyGmail]').check();
  await settingIs(storage, 'instantReplyGmail', '1');
  await expect.poll(() => replyButtons.buttonNames()).toContain(tr('en', 'extension:onSite.replyButton'));
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
  await expect.poll(() => onSite(gmail, 'summary').count()).toBe(1);
  const article = await context.newPage();
  await article.goto(URLS.article);
  await mark(article);
  const options = await openExtensionPage('options.html');

  await options.getByPlaceholder('example.com').fill('mail.google.com');
  await options.getByRole('button', { name: tr('en', 'settings:fields.disabledSites.add') }).click();
  await settingIs(storage, 'disabledSites', ['mail.google.com']);
  await expect.poll(() => onSite(gmail, 'reply').count()).toBe(0);
  await expect.poll(() => onSite(gmail, 'summary').count()).toBe(0);

  await options.locator('input[name=miniMenu]').uncheck();
  await settingIs(storage, 'miniMenu', '0');
  await article.locator('#para').click({ clickCount: 3 });
  await article.waitForTimeout(800);
  expect(await onSite(article, 'quick').count()).toBe(0);

  await options.locator('input[name=miniMenu]').check();
  await settingIs(storage, 'miniMenu', '1');
  await article.locator('h1').click();
  await article.locator('#para').click({ clickCount: 3 });
  await expect.poll(() => onSite(article, 'quick').buttonNames()).toContain(tr('en', 'extension:onSite.explain'));
  expect(await kept(gmail)).toBe(true);
  expect(await kept(article)).toBe(true);
});
