import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import { extractPdfPages, normalizePageText } from './pdf.js';
import { buildPdf } from './test-fixtures.js';

async function domainError(run: () => Promise<unknown>): Promise<DomainError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('extractPdfPages', () => {
  it('returns the text of each page, with hyphenated line ends rejoined', async () => {
    const pdf = buildPdf(
      [
        ['Quarterly report', 'Revenue grew    by 12 percent.'],
        ['The committee reviewed the docu-', 'ment in detail and approved it.'],
        ['Página tres: café, niño, élève.'],
      ],
      { title: 'Q3 (draft)' },
    );
    expect(await extractPdfPages(pdf, { maxPages: 10 })).toEqual({
      pageCount: 3,
      title: 'Q3 (draft)',
      pages: [
        { page: 1, text: 'Quarterly report\nRevenue grew by 12 percent.' },
        { page: 2, text: 'The committee reviewed the document in detail and approved it.' },
        { page: 3, text: 'Página tres: café, niño, élève.' },
      ],
    });
  });

  it('reads a Node Buffer, which is how uploads arrive', async () => {
    const result = await extractPdfPages(Buffer.from(buildPdf([['From a buffer']])), { maxPages: 1 });
    expect(result.pages).toEqual([{ page: 1, text: 'From a buffer' }]);
  });

  it('leaves the caller its bytes', async () => {
    const pdf = buildPdf([['Hello']]);
    const copy = pdf.slice();
    await extractPdfPages(pdf, { maxPages: 1 });
    expect(pdf).toEqual(copy);
  });

  it('gives empty text for a page without a text layer, and no title when there is none', async () => {
    const result = await extractPdfPages(buildPdf([[], ['Only page two has text.']]), { maxPages: 10 });
    expect(result).toEqual({
      pageCount: 2,
      pages: [
        { page: 1, text: '' },
        { page: 2, text: 'Only page two has text.' },
      ],
    });
  });

  it('refuses a document over the page limit', async () => {
    const pdf = buildPdf([['one'], ['two'], ['three'], ['four']]);
    const error = await domainError(() => extractPdfPages(pdf, { maxPages: 3 }));
    expect(error.code).toBe('TOO_MANY_PAGES');
    expect(error.params).toEqual({ limit: 3 });
    expect((await extractPdfPages(pdf, { maxPages: 4 })).pageCount).toBe(4);
  });

  it.each([
    ['garbage after a header', new TextEncoder().encode('%PDF-1.7\nthis is not a pdf at all\n%%EOF\n')],
    ['no PDF at all', new TextEncoder().encode('hello')],
    ['empty bytes', new Uint8Array()],
    ['a password-protected PDF', buildPdf([['secret']], { locked: true })],
  ])('calls %s an invalid file', async (_name, bytes) => {
    expect((await domainError(() => extractPdfPages(bytes, { maxPages: 10 }))).code).toBe('INVALID_FILE');
  });

  it('calls a document that runs out of time an invalid file', async () => {
    const pdf = buildPdf([['one'], ['two']]);
    expect((await domainError(() => extractPdfPages(pdf, { maxPages: 10, timeoutMs: 0 }))).code).toBe('INVALID_FILE');
  });
});

describe('normalizePageText', () => {
  it('collapses spaces, trims lines and keeps at most one blank line', () => {
    expect(normalizePageText('  a\u00a0\u00a0b \t c \n\n\n\n  d  ')).toBe('a b c\n\nd');
  });

  it('rejoins words split at a line end (not before a capital or a digit) and drops soft hyphens', () => {
    expect(normalizePageText('inter-\nnational and Jean-\nLuc')).toBe('international and Jean-\nLuc');
    expect(normalizePageText('docu\u00ad\nment and co\u00adoperate')).toBe('document and cooperate');
    expect(normalizePageText('ex-\n42')).toBe('ex-\n42');
  });
});
