import { describe, expect, it } from 'vitest';
import { isPdfBytes } from './files';
import { isPdfTab, isPdfUrl, pdfName } from './pdf';

describe('PDF detection', () => {
  it('knows a PDF by the path of its address, whatever the case, query or fragment', () => {
    expect(isPdfUrl('https://example.org/files/report.pdf')).toBe(true);
    expect(isPdfUrl('https://example.org/Annual%20Report.PDF?download=1#page=3')).toBe(true);
    expect(isPdfUrl('http://127.0.0.1:8080/a.pdf')).toBe(true);
  });

  it('is not fooled by .pdf elsewhere in the address, nor by other schemes', () => {
    expect(isPdfUrl('https://example.org/view?file=report.pdf')).toBe(false);
    expect(isPdfUrl('https://example.org/report.pdf/comments')).toBe(false);
    expect(isPdfUrl('https://example.org/#report.pdf')).toBe(false);
    expect(isPdfUrl('file:///home/me/report.pdf')).toBe(false);
    expect(isPdfUrl('chrome://settings/report.pdf')).toBe(false);
    expect(isPdfUrl(undefined)).toBe(false);
    expect(isPdfUrl('not a url')).toBe(false);
  });

  it('counts a document the viewer reports as application/pdf, at any address', () => {
    expect(isPdfTab('https://example.org/download?id=7', 'application/pdf')).toBe(true);
    expect(isPdfTab('https://example.org/download?id=7', 'text/html')).toBe(false);
    expect(isPdfTab('https://example.org/download?id=7', null)).toBe(false);
    expect(isPdfTab('https://example.org/a.pdf', undefined)).toBe(true);
    expect(isPdfTab('file:///tmp/a', 'application/pdf')).toBe(false);
  });

  it('recognises PDF bytes', () => {
    expect(isPdfBytes(new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj'))).toBe(true);
    expect(isPdfBytes(new TextEncoder().encode('<!doctype html><title>Not found</title>'))).toBe(false);
  });

  it('names the file after its path, else the title', () => {
    expect(pdfName('https://example.org/files/Annual%20Report.pdf')).toBe('Annual Report.pdf');
    expect(pdfName('https://example.org/download?id=7', 'Quarterly figures')).toBe('download.pdf');
    expect(pdfName('https://example.org/', 'Quarterly: figures')).toBe('Quarterly figures.pdf');
    expect(pdfName('https://example.org/')).toBe('document.pdf');
  });
});
