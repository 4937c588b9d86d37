// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://www.linkedin.com/feed/"}
import type { CandidatePost, Draft, FollowedProfile, Keyword } from '@parley/contract';
import { DEFAULT_LINKEDIN_SETTINGS } from '@parley/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import feedHtml from '../../../fixtures/sites/linkedin/feed.html?raw';
import profileHtml from '../../../fixtures/sites/linkedin/profile.html?raw';
import { ExtensionMessageError } from '../../platform/messaging/messaging';
import type { LinkedinWatch } from '../../platform/messaging/protocol';
import { editorState, loadFixture, pageWindow } from '../../sites/shared/load-fixture';
import { button, onTestPage, settle } from '../../test/test-page';
import { translator } from '../../ui/on-site/strings';
import { startEngage, type EngageApi } from './engage';
import { engageTranslator } from './strings';

vi.mock('wxt/browser', async () => ({ browser: (await import('wxt/testing/fake-browser')).fakeBrowser }));

const t = engageTranslator('en');
const tSite = translator('en');
const NOW = new Date();

const keyword = (word: string, extra: Partial<Keyword> = {}): Keyword => ({
  id: crypto.randomUUID(),
  keyword: word,
  avoid: [],
  include: [],
  active: true,
  createdAt: NOW.toISOString(),
  lastRunAt: null,
  draftsToday: 0,
  due: true,
  ...extra,
});

const watchOf = (
  keywords: Keyword[],
  settings: Partial<LinkedinWatch['settings']> = {},
  profiles: FollowedProfile[] = [],
) => ({ keywords, profiles, settings: { ...DEFAULT_LINKEDIN_SETTINGS, ...settings } }) satisfies LinkedinWatch;

const draftOf = (post: CandidatePost, text: string, flags: Draft['flags'] = []): Draft => ({
  id: crypto.randomUUID(),
  postUrn: post.urn,
  postUrl: post.url ?? null,
  authorName: post.authorName,
  postExcerpt: post.text.slice(0, 80),
  keyword: 'warehouse robotics',
  profileUrl: null,
  text,
  status: 'pending',
  flags,
  createdAt: new Date().toISOString(),
});

/** The API as the background answers it, with what was asked of it. */
function fakeApi(watch: LinkedinWatch, draft?: EngageApi['draft']) {
  const api = {
    watch: vi.fn(async () => watch),
    draft: vi.fn<EngageApi['draft']>(
      draft ??
        (async ({ posts }) => ({
          drafts: posts.map((post) =>
            draftOf(
              post,
              `Thoughtful comment for ${post.authorName}`,
              post.text.includes('ignore all previous') ? ['instructionsInPost'] : [],
            ),
          ),
          remainingToday: 0,
        })),
    ),
    pending: vi.fn(async () => [] as Draft[]),
    update: vi.fn(async (id: string, change: { text?: string; status?: Draft['status'] }) => ({
      ...draftOf(
        { urn: 'urn:li:activity:1', authorName: '', text: '', postedAt: '', source: 'feed' },
        change.text ?? '',
      ),
      id,
      ...change,
    })),
    ready: vi.fn(async () => undefined),
    stats: vi.fn<EngageApi['stats']>(async () => undefined),
  } satisfies EngageApi;
  return api;
}

const URN = (n: number) => `urn:li:activity:731000000000000000${n}`;

/** The review list's root (the closed root holding [data-parley=engage-list]). */
const listRoot = (roots: ShadowRoot[]) => roots.find((r) => r.querySelector('[data-parley=engage-list]'));
const shown = (root: ParentNode, selector: string) =>
  Array.from(root.querySelectorAll<HTMLElement>(selector)).map((e) => e.dataset.text ?? '');

async function start(watch: LinkedinWatch, api = fakeApi(watch)) {
  // jsdom lays nothing out and has no scrollIntoView.
  Element.prototype.scrollIntoView = vi.fn();
  const page = onTestPage();
  const stop = startEngage(page.ctx, { t, tSite, api, webOrigin: 'https://app.parley.test', sendAfterMs: 0 });
  await settle(20);
  return { page, stop, api };
}

describe('LinkedIn engagement on the feed', () => {
  afterEach(() => {
    document.body.replaceChildren();
    history.replaceState(null, '', '/feed/');
  });

  it('sends the matching posts of the last 24 hours once, lists the drafts, and Accept fills the open comment box only', async () => {
    loadFixture(feedHtml);
    const { page, stop, api } = await start(watchOf([keyword('Warehouse Robotics')]));

    expect(api.draft).toHaveBeenCalledTimes(1);
    const request = api.draft.mock.calls[0]![0];
    // Not the two-day-old post, not the post that does not mention the keyword.
    expect(request.posts.map((p) => p.urn)).toEqual([URN(1), URN(2), URN(4)]);
    expect(request).toMatchObject({ keyword: 'Warehouse Robotics' });
    expect(request.manual).toBeUndefined();
    expect(request.posts[0]).toMatchObject({ authorName: 'Dana Whitfield', source: 'feed' });
    expect(Date.parse(request.posts[0]!.postedAt)).toBeGreaterThan(Date.now() - 3 * 3_600_000 - 60_000);

    const root = listRoot(page.roots)!;
    expect(root).toBeDefined();
    expect(shown(root, '[data-parley=draft-text]')).toHaveLength(3);
    expect(shown(root, '.who')).toContain('Post by Growth Hacks Daily');
    expect(shown(root, '.flag')).toEqual([t('flagInstructions')]);
    expect(shown(root, '[data-parley=remaining]')).toEqual([t('remaining', { n: 0 })]);
    // None left today: the upgrade link shows.
    expect(root.querySelector<HTMLAnchorElement>('[data-parley=upgrade]')!.hidden).toBe(false);
    // Each post has its own "Draft a comment" button.
    expect(page.roots.filter((r) => r.querySelector('[data-parley=draft-post]'))).toHaveLength(5);

    // Accept on Dana's post: its box is open.
    const items = Array.from(root.querySelectorAll<HTMLElement>('[data-parley=draft]'));
    const dana = items.find((i) => i.dataset.urn === URN(1))!;
    page.asPerson(button(dana, t('accept')), 'click');
    await settle();
    expect(editorState(URN(1))?.text).toBe('Thoughtful comment for Dana Whitfield');
    expect(api.update).toHaveBeenCalledWith(expect.any(String), { status: 'accepted' });
    expect(shown(dana, '[data-parley=draft-note]')).toEqual([t('accepted')]);

    // Marco's post has no open box: Parley does not press LinkedIn's Comment button, it asks the person to.
    const marco = items.find((i) => i.dataset.urn === URN(2))!;
    page.asPerson(button(marco, t('accept')), 'click');
    await settle();
    expect(shown(marco, '[data-parley=draft-note]')).toEqual([t('openBox')]);
    expect(api.update).toHaveBeenCalledTimes(1);

    // Nothing submitted, no LinkedIn button clicked.
    const win = pageWindow();
    expect([win.__submitClicks, win.__submits, win.__commentButtonClicks]).toEqual([0, 0, 0]);

    // Dismiss says so to the server and takes the draft off the list.
    const spam = items.find((i) => i.dataset.urn === URN(4))!;
    page.asPerson(button(spam, t('dismiss')), 'click');
    await settle();
    expect(api.update).toHaveBeenLastCalledWith(expect.any(String), { status: 'dismissed' });
    expect(spam.isConnected).toBe(false);

    // Off the pages with posts (LinkedIn's own navigation), the list hides; back on the feed it shows again.
    history.pushState(null, '', '/messaging/');
    document.querySelector('main')!.append(document.createElement('div'));
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(root.querySelector<HTMLElement>('[data-parley=engage-list]')!.hidden).toBe(true);
    history.pushState(null, '', '/feed/');

    // The page changing again does not send the same posts twice.
    document.querySelector('main')!.append(document.createElement('div'));
    await new Promise((resolve) => setTimeout(resolve, 450));
    await settle(10);
    expect(api.draft).toHaveBeenCalledTimes(1);
    expect(root.querySelector<HTMLElement>('[data-parley=engage-list]')!.hidden).toBe(false);
    stop();
  });

  it('an edited draft is saved and the edit goes into the box', async () => {
    loadFixture(feedHtml);
    const { page, stop, api } = await start(watchOf([keyword('warehouse')]));
    const root = listRoot(page.roots)!;
    const dana = Array.from(root.querySelectorAll<HTMLElement>('[data-parley=draft]')).find(
      (i) => i.dataset.urn === URN(1),
    )!;
    page.asPerson(button(dana, t('edit')), 'click');
    const field = dana.querySelector('textarea')!;
    expect(field.hidden).toBe(false);
    field.value = 'Congrats on the peak season, Dana!';
    page.asPerson(button(dana, t('accept')), 'click');
    await settle();
    expect(editorState(URN(1))?.text).toBe('Congrats on the peak season, Dana!');
    expect(api.update).toHaveBeenCalledWith(expect.any(String), {
      status: 'accepted',
      text: 'Congrats on the peak season, Dana!',
    });
    stop();
  });

  it('a page’s own click on Accept or on a post’s button does nothing', async () => {
    loadFixture(feedHtml);
    const { page, stop, api } = await start(watchOf([keyword('warehouse robotics')]));
    const root = listRoot(page.roots)!;
    button(root, t('accept')).click();
    const draftPost = page.roots.find((r) => r.querySelector('[data-parley=draft-post]'))!;
    button(draftPost, t('draftButton')).click();
    await settle();
    expect(api.update).not.toHaveBeenCalled();
    expect(api.draft).toHaveBeenCalledTimes(1);
    expect(editorState(URN(1))).toBeUndefined();
    stop();
  });

  it('"Draft a comment" drafts that one post on request (manual), even without a keyword', async () => {
    loadFixture(feedHtml);
    const { page, stop, api } = await start(watchOf([]));
    expect(api.draft).not.toHaveBeenCalled();
    const buttons = page.roots.filter((r) => r.querySelector('[data-parley=draft-post]'));
    page.asPerson(button(buttons[4]!, t('draftButton')), 'click');
    await settle(10);
    expect(api.draft).toHaveBeenCalledTimes(1);
    expect(api.draft.mock.calls[0]![0]).toMatchObject({
      manual: true,
      posts: [{ urn: URN(5), authorName: 'Sofia Marquez' }],
    });
    const root = listRoot(page.roots)!;
    expect(shown(root, '.who')).toEqual(['Post by Sofia Marquez']);
    stop();
  });

  it('with displayAiComments off, drafts are still made but nothing is shown on the page', async () => {
    loadFixture(feedHtml);
    const { page, stop, api } = await start(watchOf([keyword('warehouse robotics')], { displayAiComments: false }));
    expect(api.draft).toHaveBeenCalledTimes(1);
    expect(page.roots).toHaveLength(0);
    stop();
  });

  it('auto-engage: drafts for a due keyword light the badge', async () => {
    loadFixture(feedHtml);
    const { stop, api } = await start(watchOf([keyword('warehouse robotics')], { autoEngage: true }));
    expect(api.ready).toHaveBeenCalledWith(3);
    stop();
  });

  it('the daily limit: the server’s message with the upgrade link, and no more requests', async () => {
    loadFixture(feedHtml);
    const api = fakeApi(watchOf([keyword('warehouse robotics'), keyword('platform engineers')]), async () => {
      throw new ExtensionMessageError({
        status: 402,
        code: 'DAILY_LIMIT_REACHED',
        message: 'You have reached today’s free limit.',
      });
    });
    const { page, stop } = await start(api.watch.getMockImplementation()!() as never, api);
    await settle(10);
    expect(api.draft).toHaveBeenCalledTimes(1);
    const root = listRoot(page.roots)!;
    expect(shown(root, '.status.error')).toEqual(['You have reached today’s free limit.']);
    const upgrade = root.querySelector<HTMLAnchorElement>('[data-parley=upgrade]')!;
    expect(upgrade.hidden).toBe(false);
    expect(upgrade.href).toBe('https://app.parley.test/subscription');
    stop();
  });
});

describe('LinkedIn numbers', () => {
  afterEach(() => {
    document.body.replaceChildren();
    history.replaceState(null, '', '/feed/');
  });

  it('on the person’s own profile, sends what it shows for today', async () => {
    history.replaceState(null, '', '/in/kai-tanaka-example/');
    loadFixture(profileHtml);
    const { stop, api } = await start(watchOf([]));
    expect(api.stats).toHaveBeenCalledTimes(1);
    const readings = api.stats.mock.calls[0]![0];
    const day = `${NOW.getFullYear()}-${String(NOW.getMonth() + 1).padStart(2, '0')}-${String(NOW.getDate()).padStart(2, '0')}`;
    expect(readings).toEqual([
      { metric: 'followers', value: 1204, day },
      { metric: 'connections', value: 500, day },
      { metric: 'profileViewers', value: 312, day },
      { metric: 'impressions', value: 4587, day },
    ]);
    expect(api.draft).not.toHaveBeenCalled();
    stop();
  });

  it('reads the numbers again when LinkedIn fills its cards in late', async () => {
    history.replaceState(null, '', '/in/kai-tanaka-example/');
    loadFixture(profileHtml);
    const cards = document.querySelector('.pv-dashboard-section')!;
    cards.remove();
    const { stop, api } = await start(watchOf([]));
    expect(api.stats.mock.calls.flatMap(([readings]) => readings.map((r) => r.metric))).toEqual([
      'followers',
      'connections',
    ]);
    document.querySelector('main')!.append(cards);
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    await settle();
    expect(api.stats.mock.calls.flatMap(([readings]) => readings.map((r) => r.metric))).toEqual([
      'followers',
      'connections',
      'profileViewers',
      'impressions',
    ]);
    stop();
  });
});
