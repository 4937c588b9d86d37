import { expect, test, type Page } from '@playwright/test';
import { apiGet, apiSetLanguage, apiSignUp, openSignedIn, shot, tr, uniqueEmail } from '../support';
import { noSidewaysScroll } from './conversation-helpers';

// The LinkedIn assistant's pages in Chromium, against the production API and the loopback LinkedIn
// (apps/api/src/test/fake-linkedin.ts): connecting through LinkedIn's consent page and back, a post written with AI and
// scheduled, a keyword with its comma-separated lists, the AI customization kept, LinkedIn's analytics export imported
// and drawn, a free account's auto-engage stopped at the upgrade prompt, and the pages in Spanish and French at 375 px.

const en = (key: string, vars: Record<string, string | number> = {}) => tr('en', key, vars);
const base = () => process.env.E2E_BASE_URL!;

/** YYYY-MM-DD of a day `offset` days from today (UTC). */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The API these tests start always has a LinkedIn app: the loopback LinkedIn's LINKEDIN_* (e2e/servers.ts). Without
 * one the pages would show the setup help instead of "Connect LinkedIn": a server that lost its configuration fails
 * here, said plainly, rather than in a click further on (or in a skip nobody reads).
 */
async function needsLinkedin(token: string) {
  const { data } = await apiGet<{ configured: boolean }>('/api/linkedin/connection', token);
  expect(data.configured, 'the API was started without LINKEDIN_CLIENT_ID (the loopback LinkedIn)').toBe(true);
}

/** Connects the account through LinkedIn's own page ("Allow"), back to /linkedin-auth-redirect and the dashboard. */
async function connect(page: Page) {
  await page.goto('/automation/linkedin-access-1');
  await page.getByRole('button', { name: en('linkedin:connect.action') }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL('**/automation/dashboard-linkedin');
}

test('connects LinkedIn through its consent page, shows the account, and disconnects after asking', async ({
  page,
}) => {
  const { token } = await apiSignUp(uniqueEmail('li-connect'));
  await needsLinkedin(token);
  await openSignedIn(page, token, '/automation/linkedin-access-1');
  await expect(page).toHaveTitle(`${en('shell:pages.linkedinConnect')} | Parley`);
  await expect(page.getByText(en('linkedin:connection.none'))).toBeVisible();
  await shot(page, 'linkedin-connect-en');

  await connect(page);
  await expect(page.getByText(en('linkedin:redirect.done'))).toBeVisible();
  await expect(page.getByRole('tab', { name: en('linkedin:dashboard.tabs.overview') })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByText('Robin Example')).toBeVisible();
  await expect(page.getByText(en('linkedin:connection.connected'), { exact: true })).toBeVisible();
  const connection = await apiGet<{ state: string; name: string }>('/api/linkedin/connection', token);
  expect(connection.data).toMatchObject({ state: 'connected', name: 'Robin Example' });
  await shot(page, 'linkedin-dashboard-en');

  await page
    .getByRole('link', { name: en('linkedin:logout.action') })
    .first()
    .click();
  await page.waitForURL('**/automation/linkedInLogout');
  await page.getByRole('button', { name: en('linkedin:logout.action') }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: en('linkedin:logout.confirm') })
    .click();
  await page.waitForURL('**/automation/linkedin-access-1');
  await expect(page.getByText(en('linkedin:connection.none'))).toBeVisible();
});

test("a forged return from LinkedIn is refused in the person's language", async ({ page, context }) => {
  const { token } = await apiSignUp(uniqueEmail('li-forged'));
  await needsLinkedin(token);
  await apiSetLanguage(token, 'fr');
  await context.addCookies([{ name: 'lang', value: 'fr', url: base() }]);
  await openSignedIn(page, token, '/linkedin-auth-redirect?code=abc&state=forged-state');
  await expect(page.getByRole('alert')).toHaveText(tr('fr', 'api:errors.LINKEDIN_STATE_INVALID'));
  await expect(page.getByRole('link', { name: tr('fr', 'linkedin:connect.again') })).toHaveAttribute(
    'href',
    '/automation/linkedin-access-1',
  );
  await shot(page, 'linkedin-redirect-refused-fr');
});

test('schedules a post written with AI, previewed as it will look', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('li-post'));
  await needsLinkedin(token);
  await openSignedIn(page, token, '/home');
  await connect(page);

  await page.goto('/automation/post-automation/new');
  await expect(page).toHaveTitle(`${en('shell:pages.linkedinNewPost')} | Parley`);
  await page.getByLabel(en('linkedin:posts.idea')).fill('What a week of user interviews taught our team');
  await page.getByRole('button', { name: en('linkedin:posts.writeWithAi') }).click();
  const text = page.getByLabel(en('linkedin:posts.text'), { exact: true });
  await expect(text).not.toHaveValue('');
  const written = await text.inputValue();
  const preview = page.getByRole('region', { name: en('linkedin:posts.preview') });
  await expect(preview).toContainText('Robin Example');
  await expect(preview).toContainText(written.slice(0, 40));

  await page.getByLabel(en('linkedin:posts.date'), { exact: true }).fill(day(2));
  await page.getByLabel(en('linkedin:posts.time'), { exact: true }).fill('09:30');
  await page.getByLabel(en('linkedin:posts.timezone')).selectOption('Europe/Paris');
  await page.getByLabel(en('linkedin:posts.repeat')).selectOption('weekly');
  await shot(page, 'linkedin-post-editor-en');
  await page.getByRole('button', { name: en('linkedin:posts.schedule') }).click();
  await page.waitForURL('**/automation/post-automation');
  await expect(page.getByText(en('linkedin:status.Pending'))).toBeVisible();
  await expect(page.getByText(en('linkedin:posts.repeats.weekly'))).toBeVisible();

  const { data } = await apiGet<{ automations: { kind: string; status: string; timezone: string }[] }>(
    '/api/mongo/automation/getAllAutomations',
    token,
  );
  expect(data.automations).toEqual([
    expect.objectContaining({ kind: 'post', status: 'Pending', timezone: 'Europe/Paris' }),
  ]);
  await shot(page, 'linkedin-posts-en');

  // Another, due at the next whole minute at least 15 s away (UTC; the form takes a few seconds): published by the
  // server at its time, once, then Completed with its link.
  test.setTimeout(180_000);
  const at = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
  await page.getByRole('link', { name: en('linkedin:posts.new') }).click();
  await page.getByLabel(en('linkedin:posts.text'), { exact: true }).fill('Posted at its time by Parley.');
  await page.getByLabel(en('linkedin:posts.timezone')).selectOption('UTC');
  await page.getByLabel(en('linkedin:posts.date'), { exact: true }).fill(at.toISOString().slice(0, 10));
  await page.getByLabel(en('linkedin:posts.time'), { exact: true }).fill(at.toISOString().slice(11, 16));
  await page.getByRole('button', { name: en('linkedin:posts.schedule') }).click();
  await page.waitForURL('**/automation/post-automation');
  const published = page.getByRole('listitem').filter({ hasText: 'Posted at its time by Parley.' });
  await expect(published.getByText(en('linkedin:status.Pending'))).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(published.getByText(en('linkedin:status.Completed'))).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [2_000] });
  await expect(published.getByRole('link', { name: en('linkedin:automations.openPost') })).toHaveAttribute(
    'href',
    /urn(:|%3A)li(:|%3A)share(:|%3A)\d+/,
  );
  const after = await apiGet<{ automations: { text: string; status: string; postUrn: string | null }[] }>(
    '/api/mongo/automation/getAllAutomations',
    token,
  );
  expect(after.data.automations.filter((a) => a.text === 'Posted at its time by Parley.')).toEqual([
    expect.objectContaining({ status: 'Completed', postUrn: expect.stringMatching(/^urn:li:/) }),
  ]);
  // LinkedIn received it once, from the connected member.
  const received = (await (await fetch(`${process.env.E2E_LINKEDIN_URL}/__fake/posts`)).json()) as {
    posts: { commentary: string; visibility: string }[];
  };
  expect(received.posts.filter((p) => p.commentary === 'Posted at its time by Parley.')).toEqual([
    expect.objectContaining({ visibility: 'PUBLIC' }),
  ]);
  await shot(page, 'linkedin-post-published-en');
});

test('adds a keyword with its lists, keeps the AI customization, and imports the analytics export', async ({
  page,
}) => {
  const { token } = await apiSignUp(uniqueEmail('li-keyword'));
  await openSignedIn(page, token, '/automation/keywords');
  await expect(page.getByText(en('linkedin:keywords.notGuaranteed'))).toBeVisible();
  await page.getByLabel(en('linkedin:keywords.keyword'), { exact: true }).fill('product discovery');
  await page.getByLabel(en('linkedin:keywords.avoid')).fill('hiring, giveaway, hiring');
  await page.getByLabel(en('linkedin:keywords.include')).fill('interviews');
  await page.getByRole('button', { name: en('linkedin:keywords.add') }).click();
  await expect(page.getByText('hiring, giveaway')).toBeVisible();
  const { data: kw } = await apiGet<{ keywords: { keyword: string; avoid: string[] }[] }>(
    '/api/linkedin/keywords',
    token,
  );
  expect(kw.keywords).toEqual([
    expect.objectContaining({ keyword: 'product discovery', avoid: ['hiring', 'giveaway'] }),
  ]);
  await shot(page, 'linkedin-keywords-en');

  await page.getByRole('link', { name: en('linkedin:nav.customization') }).click();
  await page.getByRole('radio', { name: new RegExp(`^${en('linkedin:custom.lengths.medium')}`) }).check();
  await page.getByRole('switch', { name: en('linkedin:custom.emojis') }).check();
  await page.getByLabel(en('linkedin:custom.avoid')).fill('politics, religion');
  await page.getByRole('button', { name: en('linkedin:custom.addPrompt') }).click();
  await page.getByLabel(en('linkedin:custom.label', { n: 1 })).fill('Founder voice');
  await page.getByLabel(en('linkedin:custom.prompt', { n: 1 })).fill('Write as a founder, one lesson.');
  await page.getByRole('button', { name: en('linkedin:custom.save') }).click();
  await expect(page.getByText(en('linkedin:saved')).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: new RegExp(`^${en('linkedin:custom.lengths.medium')}`) })).toBeChecked();
  await expect(page.getByRole('switch', { name: en('linkedin:custom.emojis') })).toBeChecked();
  await expect(page.getByLabel(en('linkedin:custom.avoid'))).toHaveValue('politics, religion');
  await expect(page.getByLabel(en('linkedin:custom.label', { n: 1 }))).toHaveValue('Founder voice');
  await shot(page, 'linkedin-customization-en');

  await page.getByRole('link', { name: en('linkedin:nav.stats') }).click();
  await expect(page.getByText(en('linkedin:stats.empty'))).toBeVisible();
  const csv = `Date,Impressions,Followers\n${day(-3)},1200,340\n${day(-2)},1500,352\n${day(-1)},2100,371\n`;
  await page
    .getByLabel(en('linkedin:stats.import.choose'))
    .setInputFiles({ name: 'analytics.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByRole('status').filter({ hasText: /imported over/ })).toBeVisible();
  await expect(page.locator('p', { hasText: /^2,100$/ })).toBeVisible();
  await expect(page.locator('p', { hasText: /^371$/ })).toBeVisible();
  await expect(page.getByTestId('chart-impressions')).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: en('linkedin:stats.chartOf', { metric: en('linkedin:stats.metrics.followers') }) })
      .getByRole('row'),
  ).toHaveCount(4);
  await shot(page, 'linkedin-stats-en');
});

test('a free account turning auto-engage on meets the upgrade prompt', async ({ page }) => {
  const { token } = await apiSignUp(uniqueEmail('li-free'));
  await openSignedIn(page, token, '/automation/keywords');
  const auto = page.getByRole('switch', { name: en('linkedin:engage.auto') });
  await auto.check({ force: true }).catch(() => undefined);
  await expect(page.getByText(en('linkedin:upgrade.title'))).toBeVisible();
  await expect(page.getByRole('link', { name: en('linkedin:upgrade.seePlans') })).toHaveAttribute(
    'href',
    '/subscription',
  );
  await expect(auto).not.toBeChecked();
  const { data } = await apiGet<{ autoEngage: boolean }>('/api/linkedin/settings', token);
  expect(data.autoEngage).toBe(false);
  await shot(page, 'linkedin-upgrade-en');
});

for (const lng of ['es', 'fr'] as const) {
  test(`the pages in ${lng} at 375 px, by keyboard`, async ({ page }) => {
    const { token } = await apiSignUp(uniqueEmail(`li-${lng}`));
    await apiSetLanguage(token, lng);
    await page.setViewportSize({ width: 375, height: 800 });
    await openSignedIn(page, token, '/automation/dashboard-linkedin');
    await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'linkedin:dashboard.title') })).toBeVisible();
    await expect(page).toHaveTitle(`${tr(lng, 'shell:pages.linkedinDashboard')} | Parley`);
    // The tabs by keyboard: arrows move between them.
    await page.getByRole('tab', { name: tr(lng, 'linkedin:dashboard.tabs.overview') }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: tr(lng, 'linkedin:dashboard.tabs.history') })).toBeFocused();
    await expect(page.getByRole('tab', { name: tr(lng, 'linkedin:dashboard.tabs.history') })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, `linkedin-dashboard-${lng}-375`);

    for (const [path, name] of [
      ['/automation/keywords', 'keywords'],
      ['/automation/customization', 'customization'],
      ['/automation/post-automation/new', 'post'],
      ['/automation/linkedInStatus', 'stats'],
      ['/automation/linkedin-access-1', 'connect'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('navigation', { name: tr(lng, 'linkedin:nav.label') })).toBeVisible();
      expect(await noSidewaysScroll(page), path).toBe(true);
      await shot(page, `linkedin-${name}-${lng}-375`);
    }
    await expect(page.getByText(tr(lng, 'linkedin:connection.none'))).toBeVisible();

    // A keyword added with the keyboard alone: Enter in the form adds it.
    await page.goto('/automation/keywords');
    await page.getByLabel(tr(lng, 'linkedin:keywords.keyword'), { exact: true }).focus();
    await page.keyboard.type('liderazgo');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ventas, empleo');
    await page.keyboard.press('Enter');
    await expect(page.getByText('ventas, empleo')).toBeVisible();
    await expect(page.getByRole('heading', { name: tr(lng, 'linkedin:keywords.listTitle', { n: 1 }) })).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
  });
}

test('a drafted comment is reviewed on the dashboard: edited, accepted (copied, the post opened), nothing posted', async ({
  page,
  context,
}) => {
  const { token } = await apiSignUp(uniqueEmail('li-draft'));
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const add = await fetch(`${base()}/api/linkedin/keywords`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ keyword: 'user research', avoid: [], include: [] }),
  });
  expect(add.status).toBe(200);
  // What the extension sends from a keyword search on LinkedIn: a post of the last hour.
  const urn = 'urn:li:activity:7300000000000000001';
  const drafted = await fetch(`${base()}/api/linkedin/drafts`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      keyword: 'user research',
      posts: [
        {
          urn,
          url: `https://www.linkedin.com/feed/update/${urn}/`,
          authorName: 'Grace Example',
          text: 'Five lessons from a month of user research interviews with our customers.',
          postedAt: new Date(Date.now() - 3_600_000).toISOString(),
          source: 'search',
        },
      ],
    }),
  });
  expect(drafted.status).toBe(200);
  const { data } = (await drafted.json()) as { data: { drafts: { id: string; text: string }[] } };
  expect(data.drafts).toHaveLength(1);

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  // LinkedIn's own page, opened in a new tab by Accept (no network here).
  await context.route('https://www.linkedin.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>LinkedIn</title>' }),
  );
  await openSignedIn(page, token, '/automation/dashboard-linkedin');
  const item = page.getByRole('listitem').filter({ hasText: 'Grace Example' });
  await expect(item.getByText(data.drafts[0]!.text)).toBeVisible();
  await shot(page, 'linkedin-draft-review-en');
  await item.getByRole('button', { name: en('linkedin:drafts.edit') }).click();
  await item.getByLabel(en('linkedin:drafts.text')).fill('Month-long research pays off: thanks for sharing, Grace.');
  const popup = page.waitForEvent('popup');
  await item.getByRole('button', { name: en('linkedin:drafts.accept') }).click();
  expect(decodeURIComponent((await popup).url())).toContain(urn);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'Month-long research pays off: thanks for sharing, Grace.',
  );
  await expect(page.getByText(en('linkedin:drafts.none'))).toBeVisible();
  const after = await apiGet<{ drafts: { status: string; text: string }[] }>('/api/linkedin/drafts', token);
  expect(after.data.drafts).toEqual([
    expect.objectContaining({ status: 'accepted', text: 'Month-long research pays off: thanks for sharing, Grace.' }),
  ]);
});
