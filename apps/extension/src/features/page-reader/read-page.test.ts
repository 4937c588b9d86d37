import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPage } from './read-page';

const html = (body: string) =>
  parseHTML(`<!doctype html><html><head><title>A page</title></head><body>${body}</body></html>`).document;

describe('readPage', () => {
  beforeAll(() => {
    // The browser's inert HTML parser, as content scripts have it.
    globalThis.DOMParser ??= parseHTML('').DOMParser as unknown as typeof DOMParser;
  });

  it('frames the readable text with the title and address', () => {
    const paragraphs = Array.from(
      { length: 8 },
      (_, i) => `<p>Paragraph ${i} about lighthouses and the sea, long enough to count as prose for the reader.</p>`,
    ).join('');
    const doc = html(`<nav>Menu Login</nav><article><h1>Lighthouses</h1>${paragraphs}</article>`);
    const page = readPage(doc as unknown as Document, 'https://example.com/lights');
    expect(page.text.startsWith('A page\nhttps://example.com/lights\n\n')).toBe(true);
    expect(page.text).toContain('Paragraph 7 about lighthouses');
    expect(page.text).toContain('Lighthouses\nParagraph 0 about');
    expect(page.text).toContain('for the reader.\nParagraph 1');
    expect(page.text).not.toContain('Menu Login');
    expect(page.truncated).toBe(false);
  });

  it('cuts long pages to the limit and says so', () => {
    const doc = html(`<p>${'word '.repeat(5000)}</p>`);
    const page = readPage(doc as unknown as Document, 'https://example.com/', 1000);
    expect(page.text.length).toBe(1000);
    expect(page.truncated).toBe(true);
    expect(page.originalLength).toBeGreaterThan(1000);
  });
});
