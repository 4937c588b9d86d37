// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import bingHtml from '../../../fixtures/sites/search/bing.html?raw';
import ddgHtml from '../../../fixtures/sites/search/duckduckgo.html?raw';
import googleHtml from '../../../fixtures/sites/search/google.html?raw';
import { loadFixture } from '../shared/load-fixture.js';
import { search } from './index.js';

const pages = [
  ['google', googleHtml, 'https://www.google.com/search?q=how+to+store+fresh+basil', 'rhs', 'prepend'],
  ['bing', bingHtml, 'https://www.bing.com/search?q=how+to+store+fresh+basil&form=QBLH', 'b_context', 'prepend'],
  ['duckduckgo', ddgHtml, 'https://duckduckgo.com/?q=how+to+store+fresh+basil&ia=web', null, 'prepend'],
] as const;

describe('search', () => {
  it('matches web results pages only', () => {
    expect(search.engineOf(new URL('https://www.google.de/search?q=basil'))).toBe('google');
    expect(search.engineOf(new URL('https://www.google.com/search?q=basil&udm=14'))).toBe('google');
    expect(search.match(new URL('https://www.google.com/search?q=basil&tbm=isch'))).toBe(false);
    expect(search.match(new URL('https://www.google.com/search?q=basil&udm=2'))).toBe(false);
    expect(search.match(new URL('https://www.google.com/maps?q=basil'))).toBe(false);
    expect(search.match(new URL('https://www.google.evil.example/search?q=basil'))).toBe(false);
    expect(search.match(new URL('https://www.bing.com/images/search?q=basil'))).toBe(false);
    expect(search.match(new URL('https://duckduckgo.com/?q=basil&iax=images&ia=images'))).toBe(false);
    expect(search.match(new URL('https://duckduckgo.com/'))).toBe(false);
    expect(search.matches).toContain('https://www.google.com/search*');
    expect(search.matches).toContain('https://duckduckgo.com/*');
  });

  for (const [engine, html, href, columnId, placement] of pages) {
    it(`${engine}: reads the query and results and finds the column beside them`, () => {
      loadFixture(html);
      const url = new URL(href);
      expect(search.engineOf(url)).toBe(engine);
      expect(search.readQuery(url, document)).toBe('how to store fresh basil');
      expect(search.readQuery(new URL(url.origin + url.pathname), document)).toBe('how to store fresh basil');
      const column = search.findResultsColumn(document)!;
      expect(column.placement).toBe(placement);
      if (columnId) expect(column.anchor.id).toBe(columnId);
      else expect(column.anchor.getAttribute('data-testid')).toBe('sidebar');
      expect(search.readResults(document)).toEqual([
        {
          title: 'Keeping basil fresh for a week – Herb Notes',
          url: 'https://herbs.example.org/basil-storage',
          snippet: expect.stringContaining('Trim the stems and stand basil in a glass of water'),
        },
        {
          title: 'Can you freeze basil? Yes, in oil',
          url: 'https://kitchen.example.com/freeze-basil',
          snippet: expect.stringContaining('freeze in an ice cube tray'),
        },
      ]);
    });
  }

  it('falls back to a new column when the side column is missing', () => {
    loadFixture(googleHtml);
    document.getElementById('rhs')!.remove();
    expect(search.findResultsColumn(document)).toMatchObject({ placement: 'append', anchor: { id: 'rcnt' } });
  });
});
