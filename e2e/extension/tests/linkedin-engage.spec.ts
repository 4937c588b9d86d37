import type { Page, Request } from '@playwright/test';
import { apiGet, shot } from '../../support.js';
import { apiPost } from '../fixtures.js';
import { editorState, expect, onSite, signIn, test } from '../sites.js';

/**
 * LinkedIn engagement with the built extension, against the real API and the LinkedIn fixtures served for
 * www.linkedin.com: a watched keyword → drafts for the matching posts of the feed in the review list → Accept puts the
 * text into that post's own comment box, and nothing is ever submitted: no request leaves for LinkedIn but the pages'
 * own loads, the fixture counts no click on a submit button, no form submission and no click on LinkedIn's Comment
 * button.
 */
const FEED = 'https://www.linkedin.com/feed/';
const URN = (n: number) => `urn:li:activity:731000000000000000${n}`;
const item = (n: number) => `[data-parley=draft][data-urn="${URN(n)}"]`;

/** What the fixture counted (see the inline script of apps/extension/fixtures/sites/linkedin/feed.html). */
const counters = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Record<string, number>;
    return { submitClicks: w.__submitClicks, submits: w.__submits, commentButtonClicks: w.__commentButtonClicks };
  });

test('a watched keyword: drafts on the feed, Accept fills the comment box, nothing is submitted', async ({
  context,
  page,
  storage,
}) => {
  const user = await signIn(page, storage);
  expect((await apiPost('/api/linkedin/keywords', user.token, { keyword: 'warehouse robotics' })).status).toBe(200);

  // Every request to LinkedIn that is not a page's GET (a comment being created would be a POST).
  const sentToLinkedin: string[] = [];
  context.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.hostname.endsWith('linkedin.com') && request.method() !== 'GET') {
      sentToLinkedin.push(`${request.method()} ${url.pathname}`);
    }
  });

  await page.goto(FEED);
  const list = onSite(page, 'engage');
  // The three posts of the last 24 hours that mention the keyword: Dana's, Marco's and the prompt injection.
  await expect.poll(() => list.text(item(4)), { timeout: 30_000 }).not.toBeNull();
  for (const n of [1, 2, 4]) expect(await list.text(`${item(n)} [data-parley=draft-text]`)).toBeTruthy();
  expect(await list.text(item(3))).toBeNull();
  expect(await list.text(item(5))).toBeNull();
  expect(await list.text(`${item(1)} .who`)).toBe('Post by Dana Whitfield');
  // Every post has its own "Draft a comment" button.
  expect(await onSite(page, 'draftPost').count()).toBe(5);
  // The injected post's draft carries none of what the post asked for.
  const injected = (await list.text(`${item(4)} [data-parley=draft-text]`))!;
  expect(injected).not.toMatch(/growth-hacks\.example|https?:\/\//);
  await shot(page, `linkedin-engage-review-list`);

  // Accept on Dana's draft: her post's comment box is open.
  const text = (await list.text(`${item(1)} [data-parley=draft-text]`))!;
  await list.click('Accept', 10_000, item(1));
  await expect.poll(async () => (await editorState(page))?.text).toBe(text);
  // The note follows the server's answer (the draft marked accepted), a moment after the text is in the box.
  await expect
    .poll(() => list.text(`${item(1)} [data-parley=draft-note]`))
    .toBe("It is in the comment box. Press LinkedIn's Comment button to post it.");
  await expect
    .poll(async () =>
      (
        await apiGet<{ drafts: Array<{ postUrn: string }> }>('/api/linkedin/drafts?status=accepted', user.token)
      ).data.drafts.map((d) => d.postUrn),
    )
    .toEqual([URN(1)]);

  // Marco's post has no open box: the person is asked to open it; LinkedIn's Comment button is theirs to press.
  await list.click('Accept', 10_000, item(2));
  await expect
    .poll(() => list.text(`${item(2)} [data-parley=draft-note]`))
    .toBe("Open this post's comment box with LinkedIn's Comment button, then press Accept again.");
  await shot(page, `linkedin-engage-accepted`);

  // A free account drafts 3 a day: a fourth, asked on Sofia's post, is refused with the upgrade link.
  expect(await list.text('[data-parley=remaining]')).toBe('Free drafts left today: 0');
  await onSite(page, 'draftPost').nth(4).click('Draft a comment');
  await expect.poll(() => list.text('.status.error')).toMatch(/.+/);
  expect((await list.links()).find((link) => link.name === 'Upgrade')?.href).toBe(
    `${process.env.E2E_BASE_URL}/subscription`,
  );
  expect(await list.visible('[data-parley=upgrade]')).toBe(true);
  expect(await list.text(item(5))).toBeNull();
  await shot(page, `linkedin-engage-limit`);

  expect(await counters(page)).toEqual({ submitClicks: 0, submits: 0, commentButtonClicks: 0 });
  expect(sentToLinkedin).toEqual([]);
});

test('a search for a watched keyword, in Spanish: the recent results are drafted, the three-week-old one is not', async ({
  page,
  storage,
}) => {
  const user = await signIn(page, storage, { language: 'SPANISH' });
  expect((await apiPost('/api/linkedin/keywords', user.token, { keyword: 'warehouse robotics' })).status).toBe(200);
  await page.goto(
    'https://www.linkedin.com/search/results/content/?keywords=warehouse%20robotics&origin=SWITCH_SEARCH_VERTICAL',
  );
  const list = onSite(page, 'engage');
  await expect.poll(() => list.text('[data-parley=draft]:nth-of-type(2)'), { timeout: 30_000 }).not.toBeNull();
  expect(await list.text('.title')).toBe('Borradores de Parley');
  expect(await list.text(`[data-urn="urn:li:activity:7310000000000000011"] .who`)).toBe('Publicación de Lena Fischer');
  expect(await list.text(`[data-urn="urn:li:activity:7310000000000000012"] .who`)).toBe('Publicación de Tomás Ortega');
  expect(await list.text(`[data-urn="urn:li:activity:7310000000000000013"]`)).toBeNull();
  await shot(page, `linkedin-engage-search-es`);
  const text = (await list.text(`[data-urn="urn:li:activity:7310000000000000011"] [data-parley=draft-text]`))!;
  await list.click('Aceptar', 10_000, `[data-urn="urn:li:activity:7310000000000000011"]`);
  await expect.poll(async () => (await editorState(page))?.text).toBe(text);
  expect(await counters(page)).toEqual({ submitClicks: 0, submits: 0, commentButtonClicks: 0 });
});

test('the person’s own profile and SSI page: their numbers are kept', async ({ page, storage }) => {
  const user = await signIn(page, storage);
  await page.goto('https://www.linkedin.com/in/kai-tanaka-example/');
  type Stats = { latest: Record<string, { day: string; value: number } | null> };
  const latest = async () => (await apiGet<Stats>('/api/linkedin/stats', user.token)).data.latest;
  await expect.poll(async () => (await latest()).impressions?.value, { timeout: 20_000 }).toBe(4587);
  expect(await latest()).toMatchObject({
    followers: { value: 1204 },
    connections: { value: 500 },
    profileViewers: { value: 312 },
    ssiScore: null,
  });
  await page.goto('https://www.linkedin.com/sales/ssi');
  await expect.poll(async () => (await latest()).ssiScore?.value, { timeout: 20_000 }).toBe(67);
  // No page of Parley's on LinkedIn here: the numbers are read, nothing is shown.
  expect(await onSite(page, 'engage').count()).toBe(0);
});
