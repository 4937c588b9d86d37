/** Where a PDF can be fetched from by the extension: the web, not local files or browser pages. */
const FETCHABLE = /^https?:$/;

function parse(url: string | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** An address whose path names a PDF (`/report.pdf`, `/files/Annual%20Report.PDF?download=1`). */
export function isPdfUrl(url: string | undefined): boolean {
  const parsed = parse(url);
  return !!parsed && FETCHABLE.test(parsed.protocol) && /\.pdf$/i.test(parsed.pathname);
}

/**
 * Whether the tab shows a PDF: its address names one, or the document it shows is a PDF (Chromium's viewer keeps the
 * PDF's own address and reports `application/pdf` as the document's content type, whatever the path).
 */
export function isPdfTab(url: string | undefined, contentType: string | null | undefined): boolean {
  const parsed = parse(url);
  if (!parsed || !FETCHABLE.test(parsed.protocol)) return false;
  return isPdfUrl(url) || contentType?.toLowerCase() === 'application/pdf';
}

/** A file name for the PDF: the last segment of its path, else the tab's title. */
export function pdfName(url: string, title?: string): string {
  const parsed = parse(url);
  let segment = '';
  try {
    segment = decodeURIComponent(parsed?.pathname.split('/').pop() ?? '');
  } catch {
    segment = parsed?.pathname.split('/').pop() ?? '';
  }
  const name = (segment || title || 'document').replace(/[\\/:*?"<>|\s]+/g, ' ').trim() || 'document';
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}
