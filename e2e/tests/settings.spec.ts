import { expect, test, type Page } from '@playwright/test';
import { apiGet, apiSignUp, openSignedIn, shot, tr, uniqueEmail, type Lng } from '../support';
import { askAndWait } from './chat-helpers';

/** The loopback API serves only its OpenAI-compatible test model, under this name. */
const SERVED_MODEL = 'parley-test-model';

async function apiPost(route: string, token: string, body: unknown) {
  const res = await fetch(process.env.E2E_BASE_URL! + route, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.status;
}

const PAGES = [
  { path: '/setting', title: 'settings:appearance.pageTitle', menu: 'settings:menu.appearance' },
  { path: '/setting/general', title: 'settings:general.pageTitle', menu: 'settings:menu.general' },
  { path: '/setting/instant-reply', title: 'settings:instantReply.pageTitle', menu: 'settings:menu.instantReply' },
  { path: '/setting/other', title: 'settings:other.pageTitle', menu: 'settings:menu.other' },
  { path: '/setting/api-keys', title: 'apiKeys:title', menu: 'settings:menu.apiKeys' },
] as const;

/** Nothing on the page is wider than the window (no sideways scrolling at 375 px). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe('settings pages', () => {
  test('every settings page at 375 px, in English, Spanish and French, reached from the settings menu', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 375, height: 812 });
    const { token } = await apiSignUp(uniqueEmail('settings-walk'));
    for (const lng of ['en', 'es', 'fr'] as Lng[]) {
      expect(await apiPost('/api/user/profile', token, { language: lng })).toBe(200);
      await openSignedIn(page, token, '/setting');
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      for (const { path: to, title, menu } of PAGES) {
        // Through the menu, as a person would: it is off-screen on a phone until opened.
        await page.getByRole('button', { name: tr(lng, 'shell:toggleAsideMenu') }).click();
        const nav = page.getByRole('complementary', { name: tr(lng, 'shell:sideMenu') });
        await nav.getByRole('link', { name: tr(lng, menu), exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${to}$`));
        await expect(page.getByRole('heading', { level: 1, name: tr(lng, title) })).toBeVisible();
        await expect(page).toHaveTitle(
          `${tr(lng, to === '/setting/api-keys' ? 'settings:menu.apiKeys' : title)} | Parley`,
        );
        // The page has loaded its settings (no skeleton left) before it is looked at.
        await expect(page.locator('main [aria-busy=true], main .animate-pulse')).toHaveCount(0);
        expect(await overflow(page), `${to} in ${lng}`).toBeLessThanOrEqual(0);
        await shot(page, `settings-375-${lng}-${to.replace(/\//g, '_').slice(1)}`, { fullPage: true });
      }
    }
    // And on a wide screen, where the menu stays open beside the page.
    expect(await apiPost('/api/user/profile', token, { language: 'en' })).toBe(200);
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const { path: to, title } of PAGES) {
      await openSignedIn(page, token, to);
      await expect(page.getByRole('heading', { level: 1, name: tr('en', title) })).toBeVisible();
      await expect(page.locator('main [aria-busy=true], main .animate-pulse')).toHaveCount(0);
      await shot(page, `settings-1280-en-${to.replace(/\//g, '_').slice(1)}`, { fullPage: true });
    }
  });

  test('writing settings, instant reply sites and the model are saved to the account', async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail('settings-save'));
    await openSignedIn(page, token, '/setting/instant-reply');
    await page.getByRole('combobox', { name: tr('en', 'settings:fields.tone.label') }).selectOption('FORMAL');
    await page.getByRole('combobox', { name: tr('en', 'settings:fields.length.label') }).selectOption('SHORT');
    // A click, then the state waited for: the switch shows the change once the settings store has it (a moment after
    // the click), which `uncheck()` checks at once.
    await page.getByRole('switch', { name: 'LinkedIn' }).click();
    await expect(page.getByRole('switch', { name: 'LinkedIn' })).not.toBeChecked();
    await expect(page.getByText(tr('en', 'settings:saved'))).toBeVisible();
    await expect
      .poll(async () => (await apiGet('/api/user/setting', token)).data)
      .toMatchObject({ tone: 'FORMAL', length: 'SHORT', instantReplyLinkedin: '0' });

    // A reload shows what the account holds.
    await page.reload();
    await expect(page.getByRole('combobox', { name: tr('en', 'settings:fields.tone.label') })).toHaveValue('FORMAL');
    await expect(page.getByRole('switch', { name: 'LinkedIn' })).not.toBeChecked();
  });

  test('the default model this server cannot run: the model that answers instead, said on settings and in the chat', async ({
    page,
  }) => {
    const { token } = await apiSignUp(uniqueEmail('settings-model'));
    const note = tr('en', 'chat:models.fallback', { preferred: 'GPT-4o mini', model: SERVED_MODEL });

    await openSignedIn(page, token, '/setting/general');
    const model = page.getByRole('combobox', { name: tr('en', 'settings:fields.model.label') });
    await expect(model).toHaveValue('CUSTOM_OPENAI_COMPATIBLE');
    await expect(page.getByText(note)).toBeVisible();
    // Models without a key here are listed, disabled, with the reason.
    await expect(
      model.getByRole('option', { name: tr('en', 'chat:models.needsKeyOption', { model: 'GPT-4o' }), exact: true }),
    ).toBeDisabled();
    await shot(page, 'settings-model-fallback-1280', { fullPage: true });

    await page.goto('/chat');
    await expect(page.getByText(note)).toBeVisible();
    await askAndWait(page, 'Hello from the default');
    await shot(page, 'chat-model-fallback-1280', { fullPage: true });

    // Making the served model the default ends the note, here and in the chat.
    await page.goto('/setting/general');
    await page.getByRole('button', { name: tr('en', 'chat:models.adopt', { model: SERVED_MODEL }) }).click();
    await expect(page.getByText(note)).toHaveCount(0);
    await expect
      .poll(async () => (await apiGet('/api/user/setting', token)).data.model)
      .toBe('CUSTOM_OPENAI_COMPATIBLE');
    await expect(model).toHaveValue('CUSTOM_OPENAI_COMPATIBLE');
    await page.goto('/chat');
    await expect(page.getByRole('button', { name: new RegExp(SERVED_MODEL) })).toBeVisible();
    await expect(page.getByText(note)).toHaveCount(0);
  });

  test('old links to /setting/other still lead to the API keys', async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail('settings-keys'));
    await openSignedIn(page, token, '/setting/other');
    await page.getByRole('link', { name: tr('en', 'settings:other.apiKeysLink') }).click();
    await expect(page).toHaveURL(/\/setting\/api-keys$/);
    await expect(page.getByRole('heading', { level: 1, name: tr('en', 'apiKeys:title') })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: tr('en', 'apiKeys:form.title') })).toBeVisible();
  });
});
