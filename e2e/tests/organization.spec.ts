import { expect, test } from '@playwright/test';
import {
  apiGet,
  apiSetLanguage,
  apiSignUp,
  exact,
  linkFromMail,
  openSignedIn,
  shot,
  tr,
  uniqueEmail,
} from '../support';
import { askAndWait, composer, MODEL_LABEL } from './chat-helpers';
import { noSidewaysScroll } from './conversation-helpers';
import { api, buyTeam } from './organization-helpers';

// A Team subscriber creates an organization and invites two people by e-mail; one joins from the mail and chats on
// the organization's credits; the admin changes her role and lowers her monthly limit, and she is stopped with the
// plan message. In Chromium, against the production API, its loopback Stripe and SMTP servers.

const en = (key: string, vars: Record<string, string | number> = {}) => tr('en', key, vars);

test('invite → mail → join → chat on the organization → role and limit changed → stopped', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await apiSignUp(uniqueEmail('org-owner'), 'correct horse battery', 'Olga Owner');
  const ann = await apiSignUp(uniqueEmail('org-ann'), 'correct horse battery', 'Ann Member');
  const bobEmail = uniqueEmail('org-bob');
  await openSignedIn(page, owner.token, '/home');
  await buyTeam(page, owner.token);

  // Manage Organization: create it.
  await page.goto('/organization');
  await expect(page).toHaveTitle(new RegExp(en('organization:pageTitle')));
  await page.getByLabel(en('organization:create.name')).fill('Acme Writers');
  await page.getByRole('button', { name: en('organization:create.submit') }).click();
  await expect(page.getByRole('heading', { name: 'Acme Writers' })).toBeVisible();
  await expect(page.getByText(en('organization:summary.seats', { used: 1, seats: 3 }))).toBeVisible();

  // New Member → Add New Members: two addresses at once.
  await page
    .getByRole('button', { name: en('organization:newMember') })
    .first()
    .click();
  const inviting = page.getByRole('dialog', { name: en('organization:invite.title') });
  await inviting.getByLabel(en('organization:invite.label')).fill(`${ann.email}, ${bobEmail}`);
  await inviting.getByRole('button', { name: en('organization:invite.submit') }).click();
  await expect(inviting.getByText(en('organization:invite.invited'))).toBeVisible();
  await expect(inviting).toContainText(ann.email);
  await expect(inviting).toContainText(bobEmail);
  await inviting.getByRole('button', { name: en('organization:invite.done') }).click();
  await page.getByRole('tab', { name: new RegExp(en('organization:tabs.invited')) }).click();
  const invited = page.getByRole('list', { name: en('organization:tabs.invited') });
  await expect(invited.getByRole('listitem')).toHaveCount(2);
  await shot(page, 'organization-invited-1280');

  // Ann opens the link from her mail, signed in, and joins.
  const link = await linkFromMail(ann.email, '/join-organization');
  const hers = await browser.newContext();
  const annPage = await hers.newPage();
  await openSignedIn(annPage, ann.token, new URL(link).pathname + new URL(link).search);
  await expect(annPage.getByText(en('organization:join.signedInAs', { email: ann.email }))).toBeVisible();
  await shot(annPage, 'organization-join-1280');
  await annPage.getByRole('button', { name: en('organization:join.submit') }).click();
  await expect(annPage).toHaveURL(/\/organization$/);
  await expect(annPage.getByRole('heading', { name: 'Acme Writers' })).toBeVisible();
  // The link works once.
  const again = await api('POST', '/api/auth/join', ann.token, { key: new URL(link).searchParams.get('key') });
  expect(again.status).toBe(400);

  // She chats on the organization's credits: the owner's wallet pays, hers waits.
  const before = await apiGet<{ credits: { dailyCredit: number; basicCredit: number } }>(
    '/api/user/profile',
    ann.token,
  );
  await annPage.goto('/chat');
  await expect(annPage.getByRole('button', { name: new RegExp(MODEL_LABEL) })).toBeVisible();
  await askAndWait(annPage, 'What does the team plan share?');
  const usage = await apiGet<{ plan: string }>('/api/user/usage', ann.token);
  expect(usage.data.plan).toBe('team');
  const team = await api<{ members: { id: string; used: number | null }[] }>('POST', '/api/org/team', owner.token, {});
  const annId = (await apiGet<{ id: string }>('/api/user/profile', ann.token)).data.id;
  expect(team.body.data.members.find((m) => m.id === annId)?.used).toBe(1);
  expect(before.data.credits.dailyCredit + before.data.credits.basicCredit).toBeGreaterThan(0);

  // Roles: the owner makes Ann an admin, then a user again — each after a confirmation.
  await page.reload();
  await page.getByRole('tab', { name: new RegExp(en('organization:tabs.all')) }).click();
  const annRow = page
    .getByRole('list', { name: en('organization:tabs.all') })
    .getByRole('listitem')
    .filter({
      hasText: ann.email,
    });
  const menu = page.getByRole('button', { name: en('organization:actions.menu', { name: 'Ann Member' }) });
  await menu.click();
  await page.getByRole('menuitem', { name: en('organization:actions.makeAdmin') }).click();
  const promote = page.getByRole('alertdialog', {
    name: en('organization:confirm.makeAdmin.title', { name: 'Ann Member' }),
  });
  await promote.getByRole('button', { name: exact(en('organization:actions.makeAdmin')) }).click();
  await expect(annRow.getByText(en('organization:roles.admin'), { exact: true })).toBeVisible();
  await menu.click();
  await page.getByRole('menuitem', { name: en('organization:actions.makeUser') }).click();
  const demote = page.getByRole('alertdialog', {
    name: en('organization:confirm.makeUser.title', { name: 'Ann Member' }),
  });
  await demote.getByRole('button', { name: exact(en('organization:actions.makeUser')) }).click();
  await expect(annRow.getByText(en('organization:roles.user'), { exact: true })).toBeVisible();

  // The admin lowers Ann's monthly limit to what she has used.
  await menu.click();
  await page.getByRole('menuitem', { name: en('organization:actions.setLimit') }).click();
  const limit = page.getByRole('dialog', { name: en('organization:limit.title', { name: 'Ann Member' }) });
  await limit.getByLabel(en('organization:limit.monthly')).check();
  await limit.getByLabel(en('organization:limit.field')).fill('1');
  await shot(page, 'organization-limit-1280');
  await limit.getByRole('button', { name: en('organization:limit.save') }).click();
  await expect(page.getByText(tr('en', 'api:messages.limitSaved'))).toBeVisible();
  await expect(annRow).toContainText(en('organization:members.usedOfLimit', { used: 1, limit: 1 }));
  await shot(page, 'organization-members-1280');

  // Ann is stopped, with the plan message.
  await composer(annPage).fill('One more question');
  await composer(annPage).press('Enter');
  await expect(annPage.getByText(tr('en', 'api:errors.OUT_OF_CREDITS')).first()).toBeVisible({ timeout: 15_000 });
  await shot(annPage, 'organization-member-stopped');
  await hers.close();

  // The same page in Spanish and French, and at 375 px.
  for (const lng of ['es', 'fr'] as const) {
    await apiSetLanguage(owner.token, lng);
    await page.reload();
    await expect(page.getByRole('tab', { name: new RegExp(tr(lng, 'organization:tabs.all')) })).toBeVisible();
    await shot(page, `organization-${lng}-1280`);
  }
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Acme Writers' })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await shot(page, 'organization-fr-375');
});
