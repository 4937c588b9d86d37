import { expect, test, type Page } from '@playwright/test';
import { SITE_ADMIN } from '../servers';
import { apiGet, apiSetLanguage, apiSignUp, exact, openSignedIn, shot, tr, uiLogin, uniqueEmail } from '../support';
import { noSidewaysScroll, setAppearance } from './conversation-helpers';

// The site admin finds a person, edits their credits, forces their logout and reads the error log; someone who is
// not a site admin is shown the door. In Chromium, against the production API on its embedded database.

const en = (key: string, vars: Record<string, string | number> = {}) => tr('en', key, vars);

async function openPortal(page: Page) {
  await uiLogin(page, SITE_ADMIN.email, SITE_ADMIN.password);
  await expect(page).toHaveURL(/\/(home|on-boarding)/);
  await page.goto('/home');
  await page.getByRole('link', { name: en('shell:menu.admin') }).click();
  await expect(page).toHaveURL(/\/admin-portal$/);
  await expect(page.getByRole('heading', { level: 1, name: en('admin:title') })).toBeVisible();
}

test('a site admin finds a person, edits their credits, forces a logout and reads the error log', async ({
  page,
  browser,
}) => {
  const target = await apiSignUp(uniqueEmail('portal-target'), 'correct horse battery', 'Grace Portal');
  // The person is also signed in in a browser of their own.
  const theirs = await browser.newContext();
  const theirPage = await theirs.newPage();
  await openSignedIn(theirPage, target.token, '/home');
  await expect(theirPage.getByRole('link', { name: en('shell:menu.admin') })).toHaveCount(0);

  await openPortal(page);
  await page.getByLabel(en('admin:users.search')).fill(target.email);
  await page.getByRole('button', { name: exact(en('admin:users.searchButton')) }).click();
  const row = page.getByRole('list', { name: en('admin:users.listLabel') }).getByRole('button');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(target.email);
  await shot(page, 'admin-users-1280');
  await row.click();

  const details = page.getByRole('region', { name: 'Grace Portal' });
  await expect(details.getByRole('heading', { name: 'Grace Portal' })).toBeFocused();
  await expect(details.getByText(tr('en', 'plans:names.free'), { exact: true }).first()).toBeVisible();
  await shot(page, 'admin-user-details-1280');

  // Edit credits: each of the four is required.
  await details.getByRole('button', { name: en('admin:actions.editCredits') }).click();
  const form = page.getByRole('form', { name: en('admin:credits.title') });
  await form.getByLabel(en('admin:credits.basicCredit')).fill('');
  await form.getByRole('button', { name: en('admin:credits.save') }).click();
  await expect(form.getByText(en('admin:credits.required'))).toBeVisible();
  await shot(page, 'admin-credits-required');
  const values = { dailyCredit: 9, basicCredit: 777, advanceCredit: 55, extraAdvanceCredit: 4 };
  for (const [field, value] of Object.entries(values)) {
    await form.getByLabel(en(`admin:credits.${field}`), { exact: true }).fill(String(value));
  }
  await form.getByRole('button', { name: en('admin:credits.save') }).click();
  const setCredits = page.getByRole('alertdialog', { name: en('admin:credits.confirm.title') });
  await expect(setCredits).toContainText(target.email);
  await shot(page, 'admin-credits-confirm');
  await setCredits.getByRole('button', { name: en('admin:credits.confirm.confirm') }).click();
  await expect(page.getByText(tr('en', 'api:messages.userUpdated'))).toBeVisible();
  await expect(details.getByText('777', { exact: true })).toBeVisible();
  const profile = await apiGet<{ credits: typeof values }>('/api/user/profile', target.token);
  expect(profile.data.credits).toEqual(values);

  // Force Logout: the question says other devices will be signed out.
  await details.getByRole('button', { name: en('admin:actions.forceLogout') }).click();
  const logout = page.getByRole('alertdialog', { name: en('admin:confirm.forceLogout.title') });
  await expect(logout).toContainText(en('admin:confirm.forceLogout.body', { who: 'Grace Portal' }));
  await shot(page, 'admin-force-logout-confirm');
  await logout.getByRole('button', { name: en('admin:actions.forceLogout') }).click();
  await expect(page.getByText(tr('en', 'api:messages.userLoggedOut'))).toBeVisible();
  const after = await apiGet('/api/user/profile', target.token);
  expect(after.bodyStatus).toBe(409);
  // Their browser finds out at its next call: 'You have been logged out', and why; back to the login page.
  await theirPage.goto('/profile');
  await expect(theirPage.getByText(tr('en', 'api:errors.SESSION_REPLACED_forced'), { exact: true })).toBeVisible();
  await expect(theirPage).toHaveURL(/\/login/);
  await theirs.close();

  // The error log, filtered.
  await page.getByRole('tab', { name: en('admin:tabs.errors') }).click();
  await expect(page).toHaveURL(/tab=errors/);
  const filters = page.getByRole('form', { name: en('admin:errors.filters') });
  await filters.getByLabel(en('admin:errors.status')).fill('500');
  const listed = page.waitForResponse((r) => r.url().endsWith('/api/admin/errorsLog') && r.status() === 200);
  await filters.getByRole('button', { name: en('admin:errors.apply') }).click();
  const logs = (await (await listed).json()) as { data: { logs: unknown[]; total: number } };
  if (logs.data.total === 0) await expect(page.getByText(en('admin:errors.none'))).toBeVisible();
  else await expect(page.getByRole('list', { name: en('admin:tabs.errors') }).getByRole('listitem')).not.toHaveCount(0);
  await shot(page, 'admin-error-logs-1280');

  // The audit log has both actions, by this admin, on this person.
  await page.getByRole('tab', { name: en('admin:tabs.audit') }).click();
  const audit = page.getByRole('list', { name: en('admin:tabs.audit') });
  const onTarget = audit.getByRole('listitem').filter({ hasText: target.email });
  await expect(onTarget.filter({ hasText: en('admin:auditActions.user_credits') })).toContainText(
    `${en('admin:auditFields.basicCredit')}`,
  );
  await expect(onTarget.filter({ hasText: en('admin:auditActions.user_forceLogout') })).toContainText(
    en('admin:audit.by', { email: SITE_ADMIN.email }),
  );
  await shot(page, 'admin-audit-1280');
});

test('a site admin creates an organization for a person and finds it in the list', async ({ page }) => {
  const owner = await apiSignUp(uniqueEmail('portal-org-owner'), 'correct horse battery', 'Olive Owner');
  const name = `Portal Org ${Date.now()}`;
  await openPortal(page);
  await page.getByRole('tab', { name: en('admin:tabs.organizations') }).click();
  await expect(page).toHaveURL(/tab=organizations/);

  await page.getByRole('button', { name: en('admin:organizations.create') }).click();
  const form = page.getByRole('form', { name: en('admin:organizations.form.title') });
  await form.getByLabel(en('admin:organizations.form.name')).fill(name);
  await form.getByLabel(en('admin:organizations.form.ownerEmail')).fill(owner.email);
  await shot(page, 'admin-organization-create-1280');
  await form.getByRole('button', { name: en('admin:organizations.create') }).click();
  const confirm = page.getByRole('alertdialog', { name: en('admin:organizations.confirm.title') });
  await expect(confirm).toContainText(en('admin:organizations.confirm.body', { name, email: owner.email }));
  await confirm.getByRole('button', { name: exact(en('admin:organizations.confirm.confirm')) }).click();
  await expect(page.getByText(tr('en', 'api:messages.orgCreated'))).toBeVisible();

  // Its details: the owner is its first member, an admin.
  const details = page.getByRole('region', { name });
  await expect(details.getByRole('heading', { name })).toBeFocused();
  const members = details.getByRole('list', { name: en('admin:organizations.membersTitle') });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members).toContainText(owner.email);
  await expect(members).toContainText(en('admin:organizations.owner'));
  await shot(page, 'admin-organization-details-1280');

  // Back in the list, found by name.
  await details.getByRole('button', { name: en('admin:organizations.back') }).click();
  await page.getByLabel(en('admin:organizations.search')).fill(name);
  await page.getByRole('button', { name: exact(en('admin:users.searchButton')) }).click();
  const row = page.getByRole('list', { name: en('admin:organizations.listLabel') }).getByRole('button');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(name);
  await shot(page, 'admin-organizations-1280');

  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => noSidewaysScroll(page), { timeout: 2_000 }).toBe(true);
  await shot(page, 'admin-organizations-375');
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(details.getByRole('heading', { name })).toBeFocused();
  // The plan that pays for the owner there: their own (Free).
  await members.getByRole('button', { name: new RegExp(`^${en('admin:organizations.plan')}`) }).click();
  await expect(members.getByText(tr('en', 'plans:names.free'), { exact: true }).first()).toBeVisible();
  await expect.poll(() => noSidewaysScroll(page), { timeout: 2_000 }).toBe(true);
  await members.scrollIntoViewIfNeeded();
  await shot(page, 'admin-organization-details-375');
});

test('the portal at 375 px in dark theme, by keyboard', async ({ page }) => {
  await apiSignUp(uniqueEmail('portal-narrow'), 'correct horse battery', 'Narrow Person');
  await openPortal(page);
  await setAppearance(page, { theme: 'dark' });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('list', { name: en('admin:users.listLabel') })).toBeVisible();
  await expect.poll(() => noSidewaysScroll(page), { timeout: 2_000 }).toBe(true);
  await shot(page, 'admin-users-375-dark');

  // Tabs by arrow keys; a person opened with Enter.
  await page.getByRole('tab', { name: en('admin:tabs.users') }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: en('admin:tabs.organizations') })).toBeFocused();
  await expect(page.getByRole('button', { name: en('admin:organizations.create') })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await page.getByLabel(en('admin:users.search')).fill('Narrow Person');
  await page.keyboard.press('Enter');
  const row = page.getByRole('list', { name: en('admin:users.listLabel') }).getByRole('button');
  await expect(row).toHaveCount(1);
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Narrow Person' })).toBeFocused();
  await expect.poll(() => noSidewaysScroll(page), { timeout: 2_000 }).toBe(true);
  await shot(page, 'admin-user-375-dark');
  await page.getByRole('button', { name: en('admin:actions.delete') }).click();
  const dialog = page.getByRole('alertdialog', { name: en('admin:confirm.delete.title') });
  await expect(dialog.getByRole('button', { name: en('admin:cancel') })).toBeFocused();
  await shot(page, 'admin-delete-confirm-375-dark');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.getByRole('tab', { name: en('admin:tabs.errors') }).click();
  await expect.poll(() => noSidewaysScroll(page), { timeout: 2_000 }).toBe(true);
  await shot(page, 'admin-errors-375-dark');
});

test('someone who is not a site admin is told they are not allowed, in their language', async ({ page }) => {
  const person = await apiSignUp(uniqueEmail('portal-nobody'), 'correct horse battery', 'Nobody');
  await apiSetLanguage(person.token, 'es');
  await openSignedIn(page, person.token, '/admin-portal');
  await expect(page.getByRole('heading', { name: tr('es', 'admin:notAllowed.title') })).toBeVisible();
  await expect(page.getByRole('link', { name: tr('es', 'shell:menu.admin') })).toHaveCount(0);
  await shot(page, 'admin-not-allowed-es');
  const refused = await fetch(`${process.env.E2E_BASE_URL}/api/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(refused.status).toBe(403);
});
