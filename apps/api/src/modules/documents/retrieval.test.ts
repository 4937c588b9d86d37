import { describe, expect, it } from 'vitest';
import {
  buildDocumentContext,
  chunkPages,
  type DocumentPage,
  estimateTokens,
  searchTerms,
  selectPassages,
} from './retrieval.js';

/** Deterministic filler prose: same seed, same text. Long pages (~2,000 characters) so each splits into passages. */
function fillerPages(count: number, seed = 7): DocumentPage[] {
  const vocabulary = (
    'market growth strategy team quarter customer product revenue plan review budget forecast region office partner ' +
    'supplier contract meeting schedule report policy training process quality service platform launch design data ' +
    'analysis risk audit compliance staff hiring board vote member project milestone delivery invoice payment cost'
  ).split(' ');
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  const sentence = () => {
    const words = Array.from({ length: 8 + (next() % 8) }, () => vocabulary[next() % vocabulary.length]);
    const text = words.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  return Array.from({ length: count }, (_, i) => {
    const paragraphs = Array.from({ length: 3 }, () => Array.from({ length: 7 }, sentence).join(' '));
    return { page: i + 1, text: paragraphs.join('\n\n') };
  });
}

function withSentence(pages: DocumentPage[], page: number, sentence: string): DocumentPage[] {
  return pages.map((p) =>
    p.page === page ? { ...p, text: `${p.text.slice(0, 900)} ${sentence} ${p.text.slice(900)}` } : p,
  );
}

describe('estimateTokens', () => {
  it('counts four characters a token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});

describe('chunkPages', () => {
  const pages = fillerPages(3);

  it('keeps every passage within one page and under the target, numbered in document order', () => {
    const chunks = chunkPages(pages, { targetTokens: 120, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(pages.length * 3);
    chunks.forEach((chunk, i) => {
      expect(chunk.id).toBe(i);
      expect(estimateTokens(chunk.text)).toBeLessThanOrEqual(120);
      expect(pages[chunk.page - 1]?.text.replace(/\s+/g, ' ')).toContain(chunk.text.replace(/\s+/g, ' '));
    });
    expect(chunks.map((c) => c.page)).toEqual([...chunks.map((c) => c.page)].sort((a, b) => a - b));
  });

  it('cuts between sentences, repeats a little at each cut, and loses nothing', () => {
    const chunks = chunkPages(pages, { targetTokens: 120, overlapTokens: 20 });
    for (const chunk of chunks) expect(chunk.text).toMatch(/\.$/);
    const [first, second] = chunks;
    const lastSentenceOfFirst = first?.text.split(/(?<=\.)\s+/).at(-1) ?? '';
    expect(second?.text.startsWith(lastSentenceOfFirst)).toBe(true);
    for (const page of pages) {
      const onPage = chunks.filter((c) => c.page === page.page).map((c) => c.text.replace(/\s+/g, ' '));
      for (const sentence of page.text.split(/(?<=\.)\s+/)) {
        expect(onPage.some((text) => text.includes(sentence))).toBe(true);
      }
    }
  });

  it('keeps a short page whole and skips pages without text', () => {
    const chunks = chunkPages([
      { page: 1, text: 'Short page.\nSecond line.' },
      { page: 2, text: '   ' },
      { page: 3, text: 'Another short page.' },
    ]);
    expect(chunks).toEqual([
      { id: 0, page: 1, text: 'Short page.\nSecond line.' },
      { id: 1, page: 3, text: 'Another short page.' },
    ]);
  });

  it('cuts an endless sentence between words', () => {
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkPages([{ page: 1, text }], { targetTokens: 100, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(estimateTokens(chunk.text)).toBeLessThanOrEqual(100);
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
  });
});

describe('searchTerms', () => {
  it('folds case, accents and plurals and drops stopwords in English, Spanish and French', () => {
    expect(searchTerms('What is the Warranty period?')).toEqual(['warranty', 'period']);
    expect(searchTerms('¿Cuál es la GARANTÍA de los contratos?')).toEqual(['garantia', 'contrato']);
    expect(searchTerms("Quelles sont les pénalités de l'entrepôt ?")).toEqual(['penalite', 'entrepot']);
    expect(searchTerms('Invoice 7 of 2024')).toEqual(['invoice', '7', '2024']);
  });
});

describe('selectPassages', () => {
  const pages = withSentence(fillerPages(60), 47, 'The turbine warranty lasts seven years from commissioning.');
  const chunks = chunkPages(pages);

  it('finds the one relevant passage far from the start under a tight budget', () => {
    const picked = selectPassages('How long is the turbine warranty in the delivery contract?', chunks, {
      budgetTokens: 450,
    });
    expect(picked).toHaveLength(1);
    expect(picked[0]?.page).toBe(47);
    expect(picked[0]?.text).toContain('turbine warranty lasts seven years');
  });

  it('fills the budget without exceeding it, in document order', () => {
    const budgetTokens = 3000;
    const picked = selectPassages('turbine warranty audit compliance', chunks, { budgetTokens });
    expect(picked.some((c) => c.text.includes('turbine warranty'))).toBe(true);
    expect(picked.reduce((sum, c) => sum + estimateTokens(c.text), 0)).toBeLessThanOrEqual(budgetTokens);
    expect(picked.length).toBeGreaterThan(4);
    expect(picked.map((c) => c.id)).toEqual([...picked.map((c) => c.id)].sort((a, b) => a - b));
  });

  it('keeps the best passage even when it alone is over budget', () => {
    const picked = selectPassages('turbine warranty', chunks, { budgetTokens: 10 });
    expect(picked.map((c) => c.page)).toEqual([47]);
  });

  it('spreads over the document when the question matches nothing', () => {
    const picked = selectPassages('Summarize this.', chunks, { budgetTokens: 2500 });
    const pagesPicked = picked.map((c) => c.page);
    expect(Math.min(...pagesPicked)).toBeLessThanOrEqual(5);
    expect(Math.max(...pagesPicked)).toBeGreaterThanOrEqual(45);
  });

  // Each question's only useful word differs from the document's by its accents alone.
  it('matches Spanish and French questions regardless of accents', () => {
    const spanish = withSentence(fillerPages(40, 3), 31, 'La garantía del aerogenerador cubre cinco años de uso.');
    const picked = selectPassages('¿Qué dice sobre la GARANTIA?', chunkPages(spanish), { budgetTokens: 450 });
    expect(picked.map((c) => c.page)).toEqual([31]);

    const french = withSentence(fillerPages(40, 11), 22, 'Les pénalités de retard sont plafonnées à dix pour cent.');
    const pickedFr = selectPassages('Quelle est la penalite ?', chunkPages(french), { budgetTokens: 450 });
    expect(pickedFr.map((c) => c.page)).toEqual([22]);
  });

  it('returns nothing from nothing', () => {
    expect(selectPassages('anything', [], { budgetTokens: 1000 })).toEqual([]);
  });
});

describe('buildDocumentContext', () => {
  it('includes a small document whole, every page labelled', () => {
    const doc = {
      name: 'notes.pdf',
      pages: [
        { page: 1, text: 'Introduction to the plan.' },
        { page: 2, text: '' },
        { page: 3, text: 'Budget: 40,000 euros.' },
      ],
    };
    expect(buildDocumentContext(doc, 'What is the budget?', 1000)).toEqual({
      text: 'Document: notes.pdf (3 pages)\n\n[Page 1]\nIntroduction to the plan.\n\n[Page 3]\nBudget: 40,000 euros.',
      citedPages: [1, 3],
      truncated: false,
    });
  });

  it('sends the relevant passages of a long document, labelled with their pages, within budget', () => {
    const pages = withSentence(fillerPages(120), 97, 'The turbine warranty lasts seven years from commissioning.');
    for (const budget of [600, 2000, 8000]) {
      const context = buildDocumentContext({ name: 'manual.pdf', pages }, 'How long is the turbine warranty?', budget);
      expect(context.truncated).toBe(true);
      expect(estimateTokens(context.text)).toBeLessThanOrEqual(budget);
      expect(context.citedPages).toContain(97);
      expect(context.text).toMatch(/\[Page 97\]\n[^[]*turbine warranty lasts seven years/);
      const labels = [...context.text.matchAll(/\[Page (\d+)\]/g)].map((m) => Number(m[1]));
      expect([...new Set(labels)]).toEqual(context.citedPages);
    }
  });

  it('gives empty text for a document with no extractable text', () => {
    const scan = {
      name: 'scan.pdf',
      pages: [
        { page: 1, text: '' },
        { page: 2, text: ' ' },
      ],
    };
    expect(buildDocumentContext(scan, 'What does it say?', 1000)).toEqual({
      text: '',
      citedPages: [],
      truncated: false,
    });
  });
});
