/**
 * The person's own LinkedIn numbers, where their pages show them: their profile (followers, connections, the
 * "Private to you" analytics), the dashboard and analytics pages (impressions, profile viewers of the last 90 days,
 * posts) and the Social Selling Index page (linkedin.com/sales/ssi). Read by label, in English, Spanish and French,
 * the number being the label's own text ("1,204 followers", "500+ connections") or a sibling's (a dashboard card's
 * big number above its label).
 */
import { all } from '../shared/dom.js';
import { visibleText } from '../shared/text.js';

export type StatMetric = 'followers' | 'connections' | 'posts' | 'impressions' | 'profileViewers' | 'ssiScore';
export type StatValues = Partial<Record<StatMetric, number>>;

/** Which of the person's pages this is (stats are read only there). */
export type StatsPage = 'profile' | 'dashboard' | 'analytics' | 'ssi';

export function statsPageOf(url: URL, doc?: Document): StatsPage | null {
  if (url.hostname !== 'www.linkedin.com') return null;
  const path = url.pathname;
  if (/^\/sales\/ssi\/?$/.test(path)) return 'ssi';
  if (/^\/dashboard\/?$/.test(path)) return 'dashboard';
  if (/^\/analytics\//.test(path)) return 'analytics';
  // A profile page is the person's own when it offers to edit it (LinkedIn shows that only to its owner).
  if (/^\/in\/[^/]+\/?$/.test(path) && (!doc || isOwnProfile(doc))) return 'profile';
  return null;
}

/** LinkedIn offers "Edit intro" and "Add profile section" on the person's own profile only. */
export function isOwnProfile(doc: Document): boolean {
  return Boolean(doc.querySelector('a[href*="/edit/intro/"], a[href*="/edit/forms/intro/"], [data-own-profile]'));
}

/** Labels of each metric (the whole label, lower case), in en, es and fr. */
const LABELS: Array<[StatMetric, RegExp]> = [
  ['followers', /^(followers?|seguidores?|abonnés?)$/],
  ['connections', /^(connections?|contactos?|conexiones|relations?)$/],
  ['posts', /^(posts?|publicaciones|publicación|posts publiés)$/],
  [
    'impressions',
    /^(post impressions|impressions|impresiones(?: de (?:la )?publicaci[oó]n(?:es)?)?|impressions (?:de|des) (?:la )?publications?)$/,
  ],
  [
    'profileViewers',
    /^(profile view(?:er)?s|who viewed your profile|visualizaciones del perfil|visitantes del perfil|vues du profil|visiteurs du profil)$/,
  ],
  [
    'ssiScore',
    /^(your social selling index|social selling index|ssi|current ssi|tu social selling index|votre social selling index)$/,
  ],
];

/**
 * A count as LinkedIn prints it: "1,204", "1.204" (es), "1 204" (fr), "1.2K", "3,4 k", "2M", "500+", "67.5" (SSI).
 * Null when it is not a count.
 */
export function parseCount(raw: string): number | null {
  const text = raw.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  const found = /^(\d{1,3}(?:[ ,.]\d{3})+|\d+(?:[.,]\d+)?)\s?([kKmM])?\+?$/.exec(text);
  if (!found) return null;
  const [, digits, suffix] = found;
  let value: number;
  if (suffix) value = Number(digits!.replace(/ /g, '').replace(',', '.')) * (/k/i.test(suffix) ? 1e3 : 1e6);
  else if (/^\d{1,3}(?:[ ,.]\d{3})+$/.test(digits!)) value = Number(digits!.replace(/[ ,.]/g, ''));
  else value = Number(digits!.replace(',', '.'));
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
}

const metricOf = (label: string): StatMetric | null => {
  const text = label.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[:.]$/, '');
  return LABELS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
};

/** "1,204 followers", "500+ connections", "Followers: 1,204", "seguidores 1.204". */
function countAndLabel(text: string): [StatMetric, number] | null {
  const clean = text.replace(/\s+/g, ' ').trim();
  const before = /^([\d][\d.,\s\u00a0\u202f]*[kKmM]?\+?)\s+(.{2,60})$/.exec(clean);
  const after = /^(.{2,60}?):?\s+([\d][\d.,\s\u00a0\u202f]*[kKmM]?\+?)$/.exec(clean);
  for (const [count, label] of [
    [before?.[1], before?.[2]],
    [after?.[2], after?.[1]],
  ]) {
    if (!count || !label) continue;
    const metric = metricOf(label);
    const value = parseCount(count);
    if (metric && value !== null) return [metric, value];
  }
  return null;
}

/** Small elements whose whole text is a label, or a count and its label. */
const CANDIDATES = 'li, p, span, div, a, h1, h2, h3, h4, dt, dd, strong, b, label';
const SHORT = 80;

/** The element's count: its whole text, else the first of its elements that holds only a count ("67" of "67 out of 100"). */
function countIn(element: Element): number | null {
  const whole = parseCount(visibleText(element));
  if (whole !== null) return whole;
  for (const inner of all(element, '*')) {
    if (inner.children.length > 0) continue;
    const value = parseCount(visibleText(inner));
    if (value !== null) return value;
  }
  return null;
}

/** The first count beside `label`: in its earlier or later siblings, then in its parent's siblings. */
function countNear(label: Element): number | null {
  for (let node: Element | null = label, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
    const siblings = node.parentElement ? Array.from(node.parentElement.children) : [];
    const at = siblings.indexOf(node);
    // The nearest first, earlier ones before later ones at the same distance (a card's number sits above its label).
    for (let distance = 1; distance < siblings.length; distance++) {
      for (const sibling of [siblings[at - distance], siblings[at + distance]]) {
        if (!sibling) continue;
        const value = countIn(sibling);
        if (value !== null) return value;
      }
    }
  }
  return null;
}

/** The numbers the page shows, by metric (the first reading of each wins). */
export function readStats(root: ParentNode): StatValues {
  const found: StatValues = {};
  for (const element of all(root, CANDIDATES)) {
    const text = visibleText(element);
    if (!text || text.length > SHORT) continue;
    const pair = countAndLabel(text);
    if (pair) {
      found[pair[0]] ??= pair[1];
      continue;
    }
    const metric = metricOf(text);
    // "Posts" alone is also a tab and a heading: its count is taken only when written with it ("12 posts").
    if (metric && metric !== 'posts' && found[metric] === undefined) {
      const value = countNear(element);
      if (value !== null) found[metric] = value;
    }
  }
  // The SSI is out of 100; anything else read next to its label is not it.
  if (found.ssiScore !== undefined && found.ssiScore > 100) delete found.ssiScore;
  return found;
}
