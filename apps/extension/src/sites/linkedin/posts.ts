/**
 * LinkedIn posts and the person's own numbers, read from the page (feed, a keyword search, a profile's activity; the
 * profile, dashboard, analytics and SSI pages). Not part of the site object the instant replies use: only the
 * LinkedIn engagement bundle (loaded on those pages) imports this file.
 *
 * A post's id is its activity URN, on the update's `data-urn` (search results, profile activity) or on the wrapper's
 * `data-id` (the feed). When it was posted is only shown relatively ("3h • Edited", "3 h", "1 j", "2 sem",
 * "2 days ago"), so it is turned into a time against `now`.
 */
import { all, first } from '../shared/dom.js';
import { visibleText } from '../shared/text.js';
import { selectors } from './linkedin.page.js';

export type PostSource = 'feed' | 'search' | 'profile';

export interface PagePost {
  urn: string;
  url: string;
  authorName: string;
  authorUrl?: string;
  text: string;
  /** ISO time; null when the page shows no time this reader understands. */
  postedAt: string | null;
  element: Element;
}

const URN = /^urn:li:(activity|share|ugcPost):\d{1,30}$/;
const URN_ATTRS = ['data-urn', 'data-id'] as const;
const POST_SELECTOR = URN_ATTRS.map((attr) =>
  ['activity', 'share', 'ugcPost'].map((kind) => `[${attr}^="urn:li:${kind}:"]`).join(', '),
).join(', ');

const S = {
  time: '.update-components-actor__sub-description, .feed-shared-actor__sub-description',
  authorLink:
    'a.update-components-actor__meta-link, a.update-components-actor__image, .update-components-actor__container a[href]',
  commentButton: 'button[aria-label="Comment" i], button.comment-button',
} as const;

/** The activity URN an element carries (data-urn or data-id), null when none is a post's. */
export function postUrn(element: Element): string | null {
  for (const attr of URN_ATTRS) {
    const value = element.getAttribute(attr)?.trim();
    if (value && URN.test(value)) return value;
  }
  return null;
}

const UNIT_MS = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  mo: 30 * 86_400_000,
  y: 365 * 86_400_000,
} as const;
type Unit = keyof typeof UNIT_MS;

/** LinkedIn's compact units in English, Spanish and French (the label before "•"). */
const COMPACT: Record<string, Unit> = {
  s: 's',
  sec: 's',
  seg: 's',
  m: 'm',
  min: 'm',
  mins: 'm',
  h: 'h',
  hr: 'h',
  hrs: 'h',
  d: 'd',
  j: 'd',
  día: 'd',
  días: 'd',
  w: 'w',
  wk: 'w',
  sem: 'w',
  mo: 'mo',
  mes: 'mo',
  meses: 'mo',
  mois: 'mo',
  y: 'y',
  yr: 'y',
  a: 'y',
  año: 'y',
  an: 'y',
  ans: 'y',
};

/** The long forms screen readers get ("2 days ago", "hace 3 horas", "il y a 5 minutes"). */
const LONG: Array<[RegExp, Unit]> = [
  [/^(seconds?|segundos?|secondes?)$/, 's'],
  [/^(minutes?|minutos?)$/, 'm'],
  [/^(hours?|horas?|heures?)$/, 'h'],
  [/^(days?|días?|dias?|jours?)$/, 'd'],
  [/^(weeks?|semanas?|semaines?)$/, 'w'],
  [/^(months?|mes|meses|mois)$/, 'mo'],
  [/^(years?|años?|anos?|ans?|années?)$/, 'y'],
];

const JUST_NOW = /^(just now|now|ahora|ahora mismo|à l[’']instant|maintenant)$/;

/**
 * When a post was posted, from LinkedIn's relative label: "3h", "3h • Edited •", "3 h", "1 j", "2 sem", "1mo", "Just
 * now", "2 days ago", "hace 3 horas", "il y a 5 minutes". Null for anything else (a date, an unknown word).
 */
export function parseRelativeTime(label: string, now: Date = new Date()): Date | null {
  const head = (label.split('•')[0] ?? '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(hace|il y a)\s+/, '')
    .replace(/\s+(ago)$/, '')
    .replace(/\.$/, '');
  if (JUST_NOW.test(head)) return new Date(now.getTime());
  const found = /^(\d{1,4})\s?([a-zà-ÿ]+)\.?$/.exec(head);
  if (!found) return null;
  const count = Number(found[1]);
  const word = found[2]!;
  const unit = COMPACT[word] ?? LONG.find(([pattern]) => pattern.test(word))?.[1];
  return unit ? new Date(now.getTime() - count * UNIT_MS[unit]) : null;
}

/** https://www.linkedin.com/in/<slug>/ (or /company/<slug>/) for a link on the page; undefined for anything else. */
export function profileUrlOf(href: string | null | undefined, base = 'https://www.linkedin.com/'): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    const found = /^\/(in|company)\/([^/?#\s]{1,100})/.exec(url.pathname);
    if (!/(^|\.)linkedin\.com$/.test(url.hostname) || !found) return undefined;
    return `https://www.linkedin.com/${found[1]}/${decodeURIComponent(found[2]!).toLowerCase()}/`;
  } catch {
    return undefined;
  }
}

/** The post elements on the page, outermost first, one per URN. */
export function postElements(root: ParentNode): Element[] {
  const seen = new Set<string>();
  const out: Element[] = [];
  for (const element of all(root, POST_SELECTOR)) {
    const urn = postUrn(element);
    if (!urn || seen.has(urn)) continue;
    // A reshare holds the original's update inside: it is read as the outer post only.
    if (out.some((outer) => outer.contains(element))) continue;
    seen.add(urn);
    out.push(element);
  }
  return out;
}

/** One post element (of `postElements`): its author, text and (when the label is understood) its time. */
export function readPost(element: Element, now: Date = new Date()): PagePost {
  const urn = postUrn(element)!;
  const authorLink = first<HTMLAnchorElement>(element, S.authorLink);
  const label = first(element, S.time);
  // The visible label ("2d • Edited •"); the screen-reader copy ("2 days ago") when that one is not understood.
  const labels = label ? [visibleText(label), label.textContent ?? ''] : [];
  const posted = labels.map((text) => parseRelativeTime(text, now)).find(Boolean) ?? null;
  return {
    urn,
    url: `https://www.linkedin.com/feed/update/${urn}/`,
    authorName: visibleText(first(element, selectors.actor)).slice(0, 200),
    authorUrl: profileUrlOf(authorLink?.getAttribute('href')),
    text: visibleText(first(element, selectors.postText), { skip: 'button' }),
    postedAt: posted ? posted.toISOString() : null,
    element,
  };
}

/** The posts the page shows, with their author, text and (when the label is understood) their time. */
export function readPosts(root: ParentNode, now: Date = new Date()): PagePost[] {
  return postElements(root).map((element) => readPost(element, now));
}

/** Posts from the last `hours` hours (a post whose time is unknown is left out). */
export function recentPosts(posts: PagePost[], hours: number, now: Date = new Date()): PagePost[] {
  const since = now.getTime() - hours * 3_600_000;
  return posts.filter((post) => post.postedAt !== null && Date.parse(post.postedAt) >= since);
}

/** The post with this URN on the page. */
export function findPost(root: ParentNode, urn: string): Element | null {
  return postElements(root).find((element) => postUrn(element) === urn) ?? null;
}

/** The post's open comment box, or null when LinkedIn has not opened one under it. */
export function commentEditorOf(post: Element): HTMLElement | null {
  return first(post, selectors.commentEditor);
}

/** The pages where posts are read. */
export type PostsPage =
  { kind: 'feed' } | { kind: 'search'; keyword: string } | { kind: 'profile'; profileUrl: string };

export function postsPageOf(url: URL): PostsPage | null {
  if (url.hostname !== 'www.linkedin.com') return null;
  const path = url.pathname;
  if (/^\/feed\/?$/.test(path)) return { kind: 'feed' };
  if (/^\/search\/results\/content\/?$/.test(path)) {
    const keyword = (url.searchParams.get('keywords') ?? '').replace(/\s+/g, ' ').trim();
    return keyword ? { kind: 'search', keyword } : null;
  }
  const activity = /^\/(in|company)\/([^/]+)\/(recent-activity|posts)(\/|$)/.exec(path);
  if (activity) {
    return { kind: 'profile', profileUrl: profileUrlOf(`/${activity[1]}/${activity[2]}/`)! };
  }
  return null;
}
