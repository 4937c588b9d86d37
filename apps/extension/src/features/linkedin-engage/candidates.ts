import type { CandidatePost, FollowedProfile, Keyword } from '@parley/contract';
import type { LinkedinWatch } from '../../platform/messaging/protocol';
import { profileUrlOf, recentPosts, type PagePost, type PostsPage } from '../../sites/linkedin/posts';

/**
 * The contract's numbers (packages/contract/src/linkedin.ts), restated so this bundle does not import zod with the
 * contract's values; candidates.test.ts holds them equal.
 */
export const POST_MAX_AGE_HOURS = 24;
export const CANDIDATE_POSTS_MAX = 20;
export const CANDIDATE_TEXT_MAX = 5_000;
export const KEYWORD_MAX = 100;

/** Which loader message says what the drafting is doing (spec §2: get posts, get posts by keyword, scrape profiles). */
export type LoaderKind = 'getPosts' | 'getPostsByKeyword' | 'scrapeProfiles';

/** One POST /api/linkedin/drafts: posts for one keyword or one followed profile. */
export interface CandidateGroup {
  posts: CandidatePost[];
  keyword?: string;
  profileUrl?: string;
  /** Its keyword or profile is due (not drafted in the last 24 hours). */
  due: boolean;
  loader: LoaderKind;
}

const norm = (value: string) => value.toLowerCase().replace(/\s+/g, ' ').trim();

/** Whether the post's text speaks of the keyword: every word of it, anywhere (the server matches again). */
export function mentions(text: string, keyword: string): boolean {
  const haystack = norm(text);
  return norm(keyword)
    .split(' ')
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** A post as the API takes it (`source` is where it was read). */
export function toCandidate(post: PagePost, source: PostsPage['kind'], postedAt?: string): CandidatePost {
  return {
    urn: post.urn,
    url: post.url,
    authorName: post.authorName.slice(0, 200),
    ...(post.authorUrl ? { authorUrl: post.authorUrl } : {}),
    text: post.text.slice(0, CANDIDATE_TEXT_MAX),
    postedAt: postedAt ?? post.postedAt ?? new Date().toISOString(),
    source,
  };
}

const sameProfile = (profile: FollowedProfile, url: string | undefined) =>
  url !== undefined && profileUrlOf(profile.url) === url;

/**
 * What to send for the posts of this page: on a content search for a watched keyword, its recent posts; on a followed
 * profile's activity, its recent posts; on the feed (and besides, on those pages), each recent post that mentions a
 * watched keyword or is by a followed profile, under the first that it matches. Posts already sent (`sent`), older
 * than 24 hours or of unknown time are left out; due keywords and profiles come first. The server matches again and
 * applies the person's languages, avoid and include words and daily caps.
 */
export function candidateGroups(
  page: PostsPage,
  posts: PagePost[],
  watch: LinkedinWatch,
  sent: ReadonlySet<string>,
  now: Date = new Date(),
): CandidateGroup[] {
  const left = recentPosts(posts, POST_MAX_AGE_HOURS, now).filter((post) => !sent.has(post.urn));
  const keywords = watch.keywords.filter((k) => k.active);
  const profiles = watch.profiles.filter((p) => p.active);
  const groups: CandidateGroup[] = [];
  const taken = new Set<string>();
  const add = (group: Omit<CandidateGroup, 'posts'>, chosen: PagePost[]) => {
    const fresh = chosen.filter((post) => !taken.has(post.urn)).slice(0, CANDIDATE_POSTS_MAX);
    if (fresh.length === 0) return;
    for (const post of fresh) taken.add(post.urn);
    groups.push({ ...group, posts: fresh.map((post) => toCandidate(post, page.kind)) });
  };
  const byKeyword = (k: Keyword): Omit<CandidateGroup, 'posts'> => ({
    keyword: k.keyword.slice(0, KEYWORD_MAX),
    due: k.due,
    loader: 'getPostsByKeyword',
  });
  const byProfile = (p: FollowedProfile): Omit<CandidateGroup, 'posts'> => ({
    profileUrl: p.url,
    due: p.due,
    loader: 'scrapeProfiles',
  });

  if (page.kind === 'search') {
    const watched = keywords.find((k) => norm(k.keyword) === norm(page.keyword) || mentions(page.keyword, k.keyword));
    if (watched) add(byKeyword(watched), left);
  }
  if (page.kind === 'profile') {
    const followed = profiles.find((p) => sameProfile(p, page.profileUrl));
    if (followed) add(byProfile(followed), left);
  }
  const loader: LoaderKind | undefined = page.kind === 'feed' ? 'getPosts' : undefined;
  const order = <T extends { due: boolean }>(list: T[]) => [...list].sort((a, b) => Number(b.due) - Number(a.due));
  for (const k of order(keywords)) {
    add(
      { ...byKeyword(k), ...(loader ? { loader } : {}) },
      left.filter((post) => mentions(post.text, k.keyword)),
    );
  }
  for (const p of order(profiles)) {
    add(
      { ...byProfile(p), ...(loader ? { loader } : {}) },
      left.filter((post) => sameProfile(p, post.authorUrl)),
    );
  }
  return order(groups);
}
