import { apiGet, apiSignUp, shot, tr, uniqueEmail } from '../../support.js';
import { expect, postUpdateToken, test } from '../fixtures.js';

const SERVED_MODEL = 'parley-test-model';

test('tone and model changed on the web settings pages show in the extension’s options, under the same names', async ({
  page,
  openExtensionPage,
  storage,
}) => {
  const user = await apiSignUp(uniqueEmail('ext-follow-web'));
  await page.goto('/login');
  await postUpdateToken(page, user.token);
  await expect.poll(async () => (await storage()).session?.signedIn).toBe(true);
  const fallback = tr('en', 'chat:models.fallback', { preferred: 'GPT-4o mini', model: SERVED_MODEL });

  // Before: the defaults, and the same note on both sides about GPT-4o mini, which this server cannot run.
  let options = await openExtensionPage('options.html');
  await expect(options.locator('select[name=tone]')).toHaveValue('CASUAL');
  await expect(options.locator('select[name=model]')).toHaveValue('CUSTOM_OPENAI_COMPATIBLE');
  await expect(options.getByText(fallback)).toBeVisible();
  await options.close();

  // On the web, as a person would: tone on /setting/instant-reply, the model on /setting/general.
  await page.evaluate((token) => localStorage.setItem('token', token), user.token);
  await page.goto('/setting/instant-reply');
  const tone = page.getByRole('combobox', { name: tr('en', 'settings:fields.tone.label') });
  await tone.selectOption('FRIENDLY');
  await expect(page.getByText(tr('en', 'settings:saved'))).toBeVisible();
  await page.goto('/setting/general');
  await expect(page.getByText(fallback)).toBeVisible();
  await page.getByRole('button', { name: tr('en', 'chat:models.adopt', { model: SERVED_MODEL }) }).click();
  await expect(page.getByText(fallback)).toHaveCount(0);
  await expect
    .poll(async () => (await apiGet('/api/user/setting', user.token)).data)
    .toMatchObject({ tone: 'FRIENDLY', model: 'CUSTOM_OPENAI_COMPATIBLE' });

  // The extension follows: its options page shows the web's values, with the web's labels.
  options = await openExtensionPage('options.html');
  await expect(options.locator('select[name=tone]')).toHaveValue('FRIENDLY');
  await expect(options.locator('select[name=tone] option:checked')).toHaveText(tr('en', 'settings:tones.FRIENDLY'));
  await expect(options.locator('select[name=model]')).toHaveValue('CUSTOM_OPENAI_COMPATIBLE');
  await expect(options.getByText(fallback)).toHaveCount(0);
  await expect(options.getByLabel(tr('en', 'settings:fields.tone.label'), { exact: true })).toBeVisible();
  await expect(options.getByLabel(tr('en', 'settings:fields.model.label'), { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await storage()).settings)
    .toMatchObject({
      tone: 'FRIENDLY',
      model: 'CUSTOM_OPENAI_COMPATIBLE',
    });
  await shot(options, 'extension-options-after-web-change', { fullPage: true });

  // And the other way: a change in the options is what the web page shows next.
  await options.locator('select[name=length]').selectOption('LONG');
  await expect.poll(async () => (await apiGet('/api/user/setting', user.token)).data.length).toBe('LONG');
  await page.goto('/setting/instant-reply');
  await expect(page.getByRole('combobox', { name: tr('en', 'settings:fields.length.label') })).toHaveValue('LONG');
});
