/**
 * When a document is longer than the model's context budget, choose the passages that matter to the question, and
 * keep their page numbers so the answer can cite them. Lexical (BM25) rather than embeddings: no model call, no
 * index to store, deterministic, and good at the names, numbers and terms people ask about in their own documents.
 */

export interface DocumentPage {
  /** 1-based page number, as cited. */
  page: number;
  text: string;
}

export interface Chunk {
  /** Position in the document: ordering by id is ordering by page, then by place on the page. */
  id: number;
  page: number;
  text: string;
}

/**
 * An estimate, not a count: about four characters per token holds for English prose with common tokenizers and is
 * conservative for most other Latin-script text. Good enough to budget context; never use it for billing.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface ChunkOptions {
  targetTokens?: number;
  overlapTokens?: number;
}

/**
 * Splits pages into passages of at most `targetTokens` (estimated). A passage never spans two pages, so each keeps
 * one page number. A page that is too long is cut between paragraphs and sentences (a single sentence longer than
 * the target between words), and consecutive passages of a page repeat up to `overlapTokens` of whole sentences so
 * a statement cut at the boundary is still read whole in one of them. Pages without text yield no passage.
 */
export function chunkPages(
  pages: readonly DocumentPage[],
  { targetTokens = 400, overlapTokens = 50 }: ChunkOptions = {},
): Chunk[] {
  const chunks: Chunk[] = [];
  for (const { page, text } of pages) {
    const trimmed = text.trim();
    if (!trimmed) continue;
    if (estimateTokens(trimmed) <= targetTokens) {
      chunks.push({ id: chunks.length, page, text: trimmed });
      continue;
    }
    for (const passage of packUnits(splitUnits(trimmed, targetTokens), targetTokens, overlapTokens)) {
      chunks.push({ id: chunks.length, page, text: passage });
    }
  }
  return chunks;
}

interface Unit {
  text: string;
  /** Starts a paragraph: joined to what precedes it by a blank line rather than a space. */
  opensParagraph: boolean;
}

function splitUnits(text: string, targetTokens: number): Unit[] {
  const maxChars = targetTokens * 4;
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const sentences = paragraph
      .split(/(?<=[.!?…])\s+/)
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    sentences.forEach((sentence, i) => {
      const pieces = estimateTokens(sentence) <= targetTokens ? [sentence] : splitBetweenWords(sentence, maxChars);
      pieces.forEach((piece, j) => units.push({ text: piece, opensParagraph: i === 0 && j === 0 }));
    });
  }
  return units;
}

function splitBetweenWords(sentence: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const word of sentence.split(' ')) {
    // A "word" longer than a whole passage (a URL, a table flattened into one token) is cut where it must be.
    for (let start = 0; start < word.length; start += maxChars) {
      const part = word.slice(start, start + maxChars);
      if (current && current.length + 1 + part.length > maxChars) {
        pieces.push(current);
        current = '';
      }
      current = current ? `${current} ${part}` : part;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

function packUnits(units: readonly Unit[], targetTokens: number, overlapTokens: number): string[] {
  const passages: string[] = [];
  let current: Unit[] = [];
  for (const unit of units) {
    if (current.length > 0 && estimateTokens(joinUnits([...current, unit])) > targetTokens) {
      passages.push(joinUnits(current));
      current = overlapTail(current, overlapTokens);
      if (estimateTokens(joinUnits([...current, unit])) > targetTokens) current = [];
    }
    current.push(unit);
  }
  if (current.length > 0) passages.push(joinUnits(current));
  return passages;
}

/** The last whole units of a passage that fit in the overlap, never the whole passage (the next must move on). */
function overlapTail(units: readonly Unit[], overlapTokens: number): Unit[] {
  let start = units.length;
  while (start > 1 && estimateTokens(joinUnits(units.slice(start - 1))) <= overlapTokens) start--;
  return units.slice(start);
}

function joinUnits(units: readonly Unit[]): string {
  return units.map((unit, i) => (i === 0 ? unit.text : `${unit.opensParagraph ? '\n\n' : ' '}${unit.text}`)).join('');
}

export interface SelectOptions {
  budgetTokens: number;
  /** What a passage costs once placed in the prompt (label and separator included). Defaults to its text. */
  tokensOf?: (chunk: Chunk) => number;
}

const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * The passages to send, in document order: ranked by BM25 against the question and added best first while they fit
 * in `budgetTokens`. The best-scoring passage is always kept, even alone over budget, so there is always something
 * to answer from. Budget left once every matching passage is placed (or a question with no usable words, such as
 * "summarize this") is filled with passages spread evenly over the document rather than its first pages.
 */
export function selectPassages(
  question: string,
  chunks: readonly Chunk[],
  { budgetTokens, tokensOf }: SelectOptions,
): Chunk[] {
  if (chunks.length === 0) return [];
  const cost = tokensOf ?? ((chunk: Chunk) => estimateTokens(chunk.text));
  const scores = bm25(question, chunks);

  const ranked = chunks.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const matching = ranked.filter((i) => (scores[i] ?? 0) > 0);
  const rest = spreadOrder(ranked.filter((i) => (scores[i] ?? 0) <= 0));

  const picked = new Set<number>();
  let used = 0;
  for (const i of [...matching, ...rest]) {
    const chunk = chunks[i];
    if (!chunk) continue;
    const tokens = cost(chunk);
    if (picked.size === 0 || used + tokens <= budgetTokens) {
      picked.add(i);
      used += tokens;
    }
  }
  return [...picked].sort((a, b) => a - b).flatMap((i) => chunks[i] ?? []);
}

function bm25(question: string, chunks: readonly Chunk[]): number[] {
  const terms = [...new Set(searchTerms(question))];
  const docs = chunks.map((chunk) => {
    const counts = new Map<string, number>();
    const words = searchTerms(chunk.text);
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { counts, length: words.length };
  });
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length || 1;
  const idf = new Map(
    terms.map((term) => {
      const containing = docs.filter((doc) => doc.counts.has(term)).length;
      // The "+1" form of BM25's IDF: never negative, so a term in most passages still counts a little.
      return [term, Math.log(1 + (docs.length - containing + 0.5) / (containing + 0.5))];
    }),
  );
  return docs.map((doc) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.counts.get(term) ?? 0;
      if (tf === 0) continue;
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / averageLength);
      score += (idf.get(term) ?? 0) * ((tf * (BM25_K1 + 1)) / (tf + norm));
    }
    return score;
  });
}

/** Orders indices so that any prefix is spread over the whole range: first, middle, quarters, eighths… */
function spreadOrder(indices: readonly number[]): number[] {
  const sorted = [...indices].sort((a, b) => a - b);
  const order: number[] = [];
  const taken = new Set<number>();
  for (let step = sorted.length; step >= 1; step = Math.floor(step / 2)) {
    for (let i = 0; i < sorted.length; i += step) {
      if (!taken.has(i)) {
        taken.add(i);
        order.push(sorted[i] ?? 0);
      }
    }
    if (step === 1) break;
  }
  return order;
}

// Folded (lowercase, no accents) like the words they are compared with. Short on purpose: words that carry no
// topic in questions, in the three languages Parley speaks.
const STOPWORDS = new Set(
  [
    // en
    'the an and or but of to in on at for with by from as is are was were be been being it its this that these those',
    'what which who whom whose when where why how do does did can could should would will shall may might must',
    'you he she we they me my your our their there here not no if then than so about into also just any some all',
    'tell please give explain document page',
    // es
    'el la los las un una unos unas y o pero de del al en con por para que como es son fue era ser esta este estos',
    'estas ese esa eso lo le les se su sus mi tu nos donde cuando cual cuales quien quienes porque sin sobre entre',
    'hay muy mas ya tambien dime documento pagina',
    // fr
    'le les une des et ou mais du au aux dans sur par avec qui quoi est sont etait etre ce cette ces cet sa son',
    'ses il elle ils elles on nous vous je ne pas plus quel quelle quels quelles comment pourquoi quand',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Lowercased, accent-folded words (NFKD, marks removed, so "garantía" meets "garantia"), without stopwords or
 * one-letter fragments such as the French elided "l'". A final "s" is dropped from longer words, a crude plural
 * fold applied alike to question and passages ("contratos" meets "contrato", "pénalités" meets "pénalité").
 */
export function searchTerms(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 || /\p{N}/u.test(word))
    .filter((word) => !STOPWORDS.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word))
    .filter((word) => !STOPWORDS.has(word));
}

export interface DocumentContext {
  /** For the prompt: every passage labelled "[Page N]" so the model can cite pages. Empty when the document has no text. */
  text: string;
  /** Pages whose text is included, ascending. */
  citedPages: number[];
  /** True when only selected passages are included rather than the whole document. */
  truncated: boolean;
}

/**
 * The document as the model should see it for this question: whole when it fits `budgetTokens`, otherwise the
 * passages chosen by `selectPassages`, sized so that `estimateTokens(text) <= budgetTokens` (unless the single best
 * passage alone is larger). A document with no extractable text (a scan) gives empty text; the caller says so.
 */
export function buildDocumentContext(
  doc: { name: string; pages: readonly DocumentPage[] },
  question: string,
  budgetTokens: number,
): DocumentContext {
  const pages = doc.pages.filter((page) => page.text.trim());
  if (pages.length === 0) return { text: '', citedPages: [], truncated: false };

  const header = `Document: ${doc.name.replace(/\s+/g, ' ').trim()} (${doc.pages.length} ${doc.pages.length === 1 ? 'page' : 'pages'})`;
  const whole = [header, ...pages.map((page) => labelled(page.page, page.text.trim()))].join('\n\n');
  if (estimateTokens(whole) <= budgetTokens) {
    return { text: whole, citedPages: pages.map((page) => page.page).sort((a, b) => a - b), truncated: false };
  }

  const intro = `${header}\nOnly the passages most relevant to the question are included, in page order.`;
  // Smaller passages under a small budget, so several can fit rather than one.
  const targetTokens = Math.min(400, Math.max(100, Math.floor(budgetTokens / 4)));
  const chunks = chunkPages(pages, { targetTokens, overlapTokens: Math.floor(targetTokens / 8) });
  const picked = selectPassages(question, chunks, {
    budgetTokens: budgetTokens - estimateTokens(intro),
    // Rounding each part up makes the sum an upper bound of the joined text's estimate.
    tokensOf: (chunk) => estimateTokens(`\n\n${labelled(chunk.page, chunk.text)}`),
  });
  return {
    text: [intro, ...picked.map((chunk) => labelled(chunk.page, chunk.text))].join('\n\n'),
    citedPages: [...new Set(picked.map((chunk) => chunk.page))].sort((a, b) => a - b),
    truncated: true,
  };
}

function labelled(page: number, text: string): string {
  return `[Page ${page}]\n${text}`;
}
