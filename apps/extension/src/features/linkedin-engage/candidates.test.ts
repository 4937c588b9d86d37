// @vitest-environment jsdom
import {
  CANDIDATE_POSTS_MAX as CONTRACT_POSTS_MAX,
  CANDIDATE_TEXT_MAX as CONTRACT_TEXT_MAX,
  DEFAULT_LINKEDIN_SETTINGS,
  ENGAGE_POST_MAX_AGE_HOURS,
  KEYWORD_MAX as CONTRACT_KEYWORD_MAX,
  candidatePostSchema,
  type FollowedProfile,
  type Keyword,
} from '@parley/contract';
import { describe, expect, it } from 'vitest';
import type { PagePost } from '../../sites/linkedin/posts';
import {
  CANDIDATE_POSTS_MAX,
  CANDIDATE_TEXT_MAX,
  KEYWORD_MAX,
  POST_MAX_AGE_HOURS,
  candidateGroups,
  mentions,
} from './candidates';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const H = 3_600_000;
let n = 0;
const post = (text: string, hoursAgo: number | null, author = 'dana'): PagePost => {
  n += 1;
  return {
    urn: `urn:li:activity:73100000000${String(n).padStart(8, '0')}`,
    url: `https://www.linkedin.com/feed/update/urn:li:activity:${n}/`,
    authorName: author,
    authorUrl: `https://www.linkedin.com/in/${author}/`,
    text,
    postedAt: hoursAgo === null ? null : new Date(NOW.getTime() - hoursAgo * H).toISOString(),
    element: document.createElement('div'),
  };
};
const keyword = (word: string, extra: Partial<Keyword> = {}): Keyword => ({
  id: crypto.randomUUID(),
  keyword: word,
  avoid: [],
  include: [],
  active: true,
  createdAt: NOW.toISOString(),
  lastRunAt: null,
  draftsToday: 0,
  due: false,
  ...extra,
});
const profile = (slug: string, extra: Partial<FollowedProfile> = {}): FollowedProfile => ({
  id: crypto.randomUUID(),
  url: `https://www.linkedin.com/in/${slug}/`,
  name: null,
  active: true,
  createdAt: NOW.toISOString(),
  lastRunAt: null,
  draftsToday: 0,
  due: false,
  ...extra,
});
const watch = (keywords: Keyword[], profiles: FollowedProfile[] = []) => ({
  keywords,
  profiles,
  settings: DEFAULT_LINKEDIN_SETTINGS,
});

describe('candidateGroups', () => {
  it('keeps the contract’s numbers', () => {
    expect([POST_MAX_AGE_HOURS, CANDIDATE_POSTS_MAX, CANDIDATE_TEXT_MAX, KEYWORD_MAX]).toEqual([
      ENGAGE_POST_MAX_AGE_HOURS,
      CONTRACT_POSTS_MAX,
      CONTRACT_TEXT_MAX,
      CONTRACT_KEYWORD_MAX,
    ]);
  });

  it('matches every word of a keyword, in any case and order', () => {
    expect(mentions('Our Warehouse pilot with robotics', 'warehouse robotics')).toBe(true);
    expect(mentions('Our warehouse pilot', 'warehouse robotics')).toBe(false);
  });

  it('on the feed: recent posts by keyword, then by followed profile, each once, due ones first; valid for the API', () => {
    const posts = [
      post('warehouse robotics news', 2),
      post('warehouse robotics, old', 30),
      post('no time shown: warehouse robotics', null),
      post('hiring in Lisbon', 1, 'sofia'),
      post('robotics and AI', 3, 'sofia'),
      post('sent already: warehouse robotics', 1),
    ];
    const groups = candidateGroups(
      { kind: 'feed' },
      posts,
      watch(
        [keyword('Warehouse Robotics'), keyword('AI', { due: true }), keyword('off', { active: false })],
        [profile('sofia')],
      ),
      new Set([posts[5]!.urn]),
      NOW,
    );
    expect(groups.map((g) => [g.keyword ?? g.profileUrl, g.due, g.loader, g.posts.map((p) => p.text)])).toEqual([
      ['AI', true, 'getPosts', ['robotics and AI']],
      ['Warehouse Robotics', false, 'getPosts', ['warehouse robotics news']],
      ['https://www.linkedin.com/in/sofia/', false, 'getPosts', ['hiring in Lisbon']],
    ]);
    for (const group of groups) for (const p of group.posts) expect(candidatePostSchema.parse(p)).toEqual(p);
  });

  it('on a search for a watched keyword, all its recent posts; on a followed profile’s activity, all of theirs', () => {
    const posts = [post('first', 1, 'lena'), post('second', 5, 'tomas'), post('old', 500, 'claire')];
    const search = candidateGroups(
      { kind: 'search', keyword: 'warehouse robotics' },
      posts,
      watch([keyword('warehouse robotics')]),
      new Set(),
      NOW,
    );
    expect(search).toHaveLength(1);
    expect(search[0]).toMatchObject({ keyword: 'warehouse robotics', loader: 'getPostsByKeyword' });
    expect(search[0]!.posts.map((p) => [p.text, p.source])).toEqual([
      ['first', 'search'],
      ['second', 'search'],
    ]);
    // A search for something not watched sends nothing (but posts mentioning a keyword still go).
    expect(
      candidateGroups({ kind: 'search', keyword: 'gardening' }, posts, watch([keyword('robots')]), new Set(), NOW),
    ).toEqual([]);
    const activity = candidateGroups(
      { kind: 'profile', profileUrl: 'https://www.linkedin.com/in/lena/' },
      posts,
      watch([], [profile('Lena')]),
      new Set(),
      NOW,
    );
    expect(activity.map((g) => [g.profileUrl, g.loader, g.posts.length])).toEqual([
      ['https://www.linkedin.com/in/Lena/', 'scrapeProfiles', 2],
    ]);
  });

  it('sends at most 20 posts at once, texts cut to the API’s limit', () => {
    const posts = Array.from({ length: 25 }, () => post(`robots ${'x'.repeat(6_000)}`, 1));
    const [group] = candidateGroups({ kind: 'feed' }, posts, watch([keyword('robots')]), new Set(), NOW);
    expect(group!.posts).toHaveLength(20);
    expect(group!.posts[0]!.text).toHaveLength(5_000);
  });
});
