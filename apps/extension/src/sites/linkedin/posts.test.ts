// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import feedHtml from '../../../fixtures/sites/linkedin/feed.html?raw';
import profileHtml from '../../../fixtures/sites/linkedin/profile.html?raw';
import searchHtml from '../../../fixtures/sites/linkedin/search.html?raw';
import ssiHtml from '../../../fixtures/sites/linkedin/ssi.html?raw';
import { loadFixture } from '../shared/load-fixture.js';
import {
  commentEditorOf,
  findPost,
  parseRelativeTime,
  postsPageOf,
  postUrn,
  profileUrlOf,
  readPosts,
  recentPosts,
} from './posts.js';
import { parseCount, readStats, statsPageOf } from './stats.js';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const H = 3_600_000;

describe('parseRelativeTime', () => {
  it.each([
    ['3h', 3 * H],
    ['3h • Edited • ', 3 * H],
    ['3 h', 3 * H],
    ['45m', 45 * 60_000],
    ['12 min', 12 * 60_000],
    ['1d', 24 * H],
    ['1 j', 24 * H],
    ['1 d', 24 * H],
    ['2w', 14 * 24 * H],
    ['1 sem', 7 * 24 * H],
    ['3 sem • ', 21 * 24 * H],
    ['1mo', 30 * 24 * H],
    ['2 mois', 60 * 24 * H],
    ['1yr', 365 * 24 * H],
    ['Just now', 0],
    ['Ahora', 0],
    ['À l’instant', 0],
    ['2 days ago', 48 * H],
    ['hace 3 horas', 3 * H],
    ['il y a 5 minutes', 5 * 60_000],
    ['30 minutes ago', 30 * 60_000],
  ])('%s', (label, ms) => {
    expect(parseRelativeTime(label, NOW)?.toISOString()).toBe(ago(ms));
  });

  it.each(['Promoted', 'Sponsored', 'Mar 3, 2025', '', 'Edited', '3 lightyears'])('%s → null', (label) => {
    expect(parseRelativeTime(label, NOW)).toBeNull();
  });
});

describe('URNs and addresses', () => {
  it('reads the activity URN from data-urn or data-id, nothing else', () => {
    const el = (attrs: Record<string, string>) => {
      const div = document.createElement('div');
      for (const [name, value] of Object.entries(attrs)) div.setAttribute(name, value);
      return div;
    };
    expect(postUrn(el({ 'data-urn': 'urn:li:activity:7310000000000000011' }))).toBe(
      'urn:li:activity:7310000000000000011',
    );
    expect(postUrn(el({ 'data-id': 'urn:li:activity:7310000000000000001' }))).toBe(
      'urn:li:activity:7310000000000000001',
    );
    expect(postUrn(el({ 'data-urn': 'urn:li:ugcPost:123' }))).toBe('urn:li:ugcPost:123');
    expect(postUrn(el({ 'data-id': 'urn:li:comment:(activity:1,2)' }))).toBeNull();
    expect(postUrn(el({ 'data-urn': 'urn:li:activity:12x' }))).toBeNull();
    expect(postUrn(el({}))).toBeNull();
  });

  it('normalizes profile links and knows the pages posts are read on', () => {
    expect(profileUrlOf('/in/Dana-Whitfield-Example/?miniProfileUrn=x')).toBe(
      'https://www.linkedin.com/in/dana-whitfield-example/',
    );
    expect(profileUrlOf('https://www.linkedin.com/company/northwind/posts/')).toBe(
      'https://www.linkedin.com/company/northwind/',
    );
    expect(profileUrlOf('https://evil.example/in/dana/')).toBeUndefined();
    expect(profileUrlOf('/feed/')).toBeUndefined();
    expect(postsPageOf(new URL('https://www.linkedin.com/feed/'))).toEqual({ kind: 'feed' });
    expect(
      postsPageOf(new URL('https://www.linkedin.com/search/results/content/?keywords=warehouse%20robotics&sid=x')),
    ).toEqual({ kind: 'search', keyword: 'warehouse robotics' });
    expect(postsPageOf(new URL('https://www.linkedin.com/in/Dana-Whitfield-Example/recent-activity/all/'))).toEqual({
      kind: 'profile',
      profileUrl: 'https://www.linkedin.com/in/dana-whitfield-example/',
    });
    expect(postsPageOf(new URL('https://www.linkedin.com/search/results/content/'))).toBeNull();
    expect(postsPageOf(new URL('https://www.linkedin.com/messaging/'))).toBeNull();
    expect(postsPageOf(new URL('https://linkedin.com.example.net/feed/'))).toBeNull();
  });
});

describe('readPosts', () => {
  it('reads the feed: one entry per update, author once, text without "…more", times from the labels', () => {
    loadFixture(feedHtml);
    const posts = readPosts(document, NOW);
    expect(posts.map((p) => [p.urn, p.authorName, p.postedAt])).toEqual([
      ['urn:li:activity:7310000000000000001', 'Dana Whitfield', ago(3 * H)],
      ['urn:li:activity:7310000000000000002', 'Marco Bellini', ago(5 * H)],
      ['urn:li:activity:7310000000000000003', 'Priya Raman', ago(48 * H)],
      ['urn:li:activity:7310000000000000004', 'Growth Hacks Daily', ago(1 * H)],
      ['urn:li:activity:7310000000000000005', 'Sofia Marquez', ago(0.5 * H)],
    ]);
    expect(posts[0]).toMatchObject({
      url: 'https://www.linkedin.com/feed/update/urn:li:activity:7310000000000000001/',
      authorUrl: 'https://www.linkedin.com/in/dana-whitfield-example/',
    });
    expect(posts[0]!.text).toContain('Our warehouse robotics pilot just passed its first peak season.\n\nThe biggest');
    expect(posts[0]!.text).not.toContain('more');
    // Posts of the last 24 hours only.
    expect(recentPosts(posts, 24, NOW).map((p) => p.authorName)).toEqual([
      'Dana Whitfield',
      'Marco Bellini',
      'Growth Hacks Daily',
      'Sofia Marquez',
    ]);
  });

  it('reads search results (data-urn) in several languages, and finds a post’s comment box if open', () => {
    loadFixture(searchHtml);
    const posts = readPosts(document, NOW);
    expect(posts.map((p) => [p.authorName, p.postedAt])).toEqual([
      ['Lena Fischer', ago(4 * H)],
      ['Tomás Ortega', ago(3 * H)],
      ['Claire Dubois', ago(21 * 24 * H)],
    ]);
    const first = findPost(document, 'urn:li:activity:7310000000000000011')!;
    expect(commentEditorOf(first)?.classList.contains('ql-editor')).toBe(true);
    expect(commentEditorOf(findPost(document, 'urn:li:activity:7310000000000000012')!)).toBeNull();
    expect(findPost(document, 'urn:li:activity:1')).toBeNull();
  });
});

describe('stats', () => {
  it.each([
    ['1,204', 1204],
    ['1.204', 1204],
    ['1 204', 1204],
    ['1\u202f204', 1204],
    ['500+', 500],
    ['1.2K', 1200],
    ['3,4 k', 3400],
    ['2M', 2_000_000],
    ['67', 67],
    ['67.5', 67.5],
    ['18,4', 18.4],
  ])('parseCount(%s)', (raw, value) => {
    expect(parseCount(raw)).toBe(value);
  });

  it.each(['', 'followers', '1,2,3', '12 followers', 'Top 9%'])('parseCount(%s) → null', (raw) => {
    expect(parseCount(raw)).toBeNull();
  });

  it('reads followers, connections, profile viewers and impressions from the own profile', () => {
    loadFixture(profileHtml);
    expect(statsPageOf(new URL('https://www.linkedin.com/in/kai-tanaka-example/'), document)).toBe('profile');
    expect(readStats(document)).toEqual({ followers: 1204, connections: 500, profileViewers: 312, impressions: 4587 });
  });

  it('reads nothing on someone else’s profile, the SSI on its page', () => {
    document.body.innerHTML = '<main><ul><li><span>830</span> followers</li></ul></main>';
    expect(statsPageOf(new URL('https://www.linkedin.com/in/someone-else/'), document)).toBeNull();
    loadFixture(ssiHtml);
    expect(statsPageOf(new URL('https://www.linkedin.com/sales/ssi'), document)).toBe('ssi');
    expect(readStats(document)).toEqual({ ssiScore: 67 });
    expect(statsPageOf(new URL('https://www.linkedin.com/dashboard/'))).toBe('dashboard');
  });

  it('reads Spanish and French labels, and counts written with their label', () => {
    document.body.innerHTML = `<main>
      <ul><li>2.345 seguidores</li><li><span>321</span> contactos</li><li>14 publicaciones</li></ul>
      <div><div><span>1 980</span></div><p>Impressions des publications</p></div>
      <div><p>Vues du profil</p><strong>77</strong></div></main>`;
    expect(readStats(document)).toEqual({
      followers: 2345,
      connections: 321,
      posts: 14,
      impressions: 1980,
      profileViewers: 77,
    });
  });
});
