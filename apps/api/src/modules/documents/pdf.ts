import { getResolvedPDFJS } from 'unpdf';
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import { DomainError } from '../../lib/errors.js';

export interface PdfPage {
  /** 1-based, as printed in viewers and cited to the person. */
  page: number;
  /** Lines joined by "\n", runs of spaces collapsed, words hyphenated across lines rejoined. Empty for a scanned page. */
  text: string;
}

export interface ExtractedPdf {
  pageCount: number;
  pages: PdfPage[];
  title?: string;
}

export interface ExtractPdfOptions {
  maxPages: number;
  /** Whole-extraction limit; a file that takes longer is treated as unreadable. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;
/** pdf.js VerbosityLevel.ERRORS: its warnings about odd fonts or xref tables are noise in our logs. */
const PDFJS_ERRORS_ONLY = 0;

/**
 * The text of every page of a PDF, via unpdf's serverless build of pdf.js.
 *
 * Any failure inside pdf.js (corrupt structure, password, unsupported encryption, a hang) becomes INVALID_FILE, so
 * a bad upload is never a 500. A document over `maxPages` is TOO_MANY_PAGES, checked before any page is read.
 *
 * The time limit covers awaiting pdf.js; pdf.js runs on this thread (no worker in the serverless build), so it
 * cannot interrupt one long synchronous parse step, only stop between steps and pages.
 */
export async function extractPdfPages(
  bytes: Uint8Array,
  { maxPages, timeoutMs = DEFAULT_TIMEOUT_MS }: ExtractPdfOptions,
): Promise<ExtractedPdf> {
  const deadline = Date.now() + timeoutMs;
  const job: Job = { done: false, destroy: undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DomainError('INVALID_FILE')), timeoutMs);
  });
  try {
    return await Promise.race([read(bytes, maxPages, deadline, job), timedOut]);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('INVALID_FILE');
  } finally {
    clearTimeout(timer);
    job.done = true;
    // Frees pdf.js's parsed objects; after a timeout it also aborts whatever pdf.js was still doing.
    await job.destroy?.().catch(() => {});
  }
}

interface Job {
  /** Set once the caller has its answer; a read still running after that stops at its next step. */
  done: boolean;
  destroy: (() => Promise<void>) | undefined;
}

async function read(bytes: Uint8Array, maxPages: number, deadline: number, job: Job): Promise<ExtractedPdf> {
  const { getDocument } = await getResolvedPDFJS();
  if (job.done) throw new DomainError('INVALID_FILE');
  const task = getDocument({
    // pdf.js may take ownership of (detach) the buffer it is given; the caller keeps theirs. A plain Uint8Array
    // copy, because pdf.js refuses Node Buffers (which is what uploads arrive as).
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: PDFJS_ERRORS_ONLY,
  });
  job.destroy = () => task.destroy();
  const pdf = await task.promise;

  if (pdf.numPages > maxPages) throw new DomainError('TOO_MANY_PAGES', { limit: maxPages });

  const pages: PdfPage[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    if (job.done || Date.now() >= deadline) throw new DomainError('INVALID_FILE');
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    const raw = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    pages.push({ page: n, text: normalizePageText(raw) });
    page.cleanup();
  }

  const title = await readTitle(pdf);
  return { pageCount: pdf.numPages, pages, ...(title ? { title } : {}) };
}

/** The Info dictionary's Title, else the XMP dc:title. Broken metadata is not worth failing a readable document. */
async function readTitle(pdf: PDFDocumentProxy): Promise<string | undefined> {
  try {
    const { info, metadata } = await pdf.getMetadata();
    const candidates = [(info as { Title?: unknown }).Title, metadata?.get('dc:title')];
    for (const candidate of candidates) {
      if (typeof candidate === 'string' && candidate.trim()) return candidate.replace(/\s+/g, ' ').trim();
    }
  } catch {
    // Fall through: no title.
  }
  return undefined;
}

/**
 * Keeps line breaks (they help find paragraphs and sentences later) but not layout: spaces collapse, lines are
 * trimmed, a word split by a hyphen at a line end is rejoined when the next line continues in lower case
 * ("exam-\nple" → "example"; "Jean-\nLuc" stays), and soft hyphens disappear.
 */
export function normalizePageText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\u00ad\n/g, '')
    .replace(/\u00ad/g, '')
    .replace(/(\p{L})[-\u2010]\n(?=\p{Ll})/gu, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
