import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import { ATTACHMENT_LIMITS, checkAttachment, checkAttachmentCount, sniffFile } from './sniff.js';
import { buildExe, buildGif, buildJpeg, buildPdf, buildPng, buildWebp } from './test-fixtures.js';

function domainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('sniffFile', () => {
  it.each([
    ['PNG', buildPng(), { kind: 'image', mediaType: 'image/png' }],
    ['JPEG', buildJpeg(), { kind: 'image', mediaType: 'image/jpeg' }],
    ['GIF', buildGif(), { kind: 'image', mediaType: 'image/gif' }],
    ['WebP', buildWebp(), { kind: 'image', mediaType: 'image/webp' }],
    ['PDF', buildPdf([['Hello']]), { kind: 'pdf', mediaType: 'application/pdf' }],
  ])('recognises %s from its bytes', (_name, bytes, expected) => {
    expect(sniffFile(bytes)).toEqual(expected);
  });

  it('finds a PDF header anywhere in the first 1024 bytes, not after', () => {
    const pdf = buildPdf([['Hello']]);
    const withPrefix = (length: number) => new Uint8Array([...new Uint8Array(length).fill(0x20), ...pdf]);
    expect(sniffFile(withPrefix(1019))?.kind).toBe('pdf');
    expect(sniffFile(withPrefix(1020))).toBeNull();
  });

  it('knows nothing of executables, text, or a RIFF that is not WebP', () => {
    expect(sniffFile(buildExe())).toBeNull();
    expect(sniffFile(new TextEncoder().encode('just some text'))).toBeNull();
    expect(sniffFile(new TextEncoder().encode('RIFF\x24\x00\x00\x00WAVEfmt '))).toBeNull();
    expect(sniffFile(new Uint8Array())).toBeNull();
  });
});

describe('checkAttachment', () => {
  it('accepts each supported kind', () => {
    expect(checkAttachment({ bytes: buildPng(), declaredName: 'a.png', declaredType: 'image/png' }).mediaType).toBe(
      'image/png',
    );
    expect(checkAttachment({ bytes: buildJpeg(), declaredName: 'a.jpg' }).mediaType).toBe('image/jpeg');
    expect(checkAttachment({ bytes: buildGif() }).mediaType).toBe('image/gif');
    expect(checkAttachment({ bytes: buildWebp() }).mediaType).toBe('image/webp');
    expect(checkAttachment({ bytes: buildPdf([['Hi']]), declaredName: 'a.pdf' }).kind).toBe('pdf');
  });

  it('goes by the bytes when the name or type lies about a supported kind', () => {
    expect(
      checkAttachment({ bytes: buildPdf([['Hi']]), declaredName: 'photo.png', declaredType: 'image/png' }),
    ).toEqual({
      kind: 'pdf',
      mediaType: 'application/pdf',
    });
    expect(checkAttachment({ bytes: buildPng(), declaredName: 'report.pdf', declaredType: 'application/pdf' })).toEqual(
      {
        kind: 'image',
        mediaType: 'image/png',
      },
    );
  });

  it('calls bytes of no supported kind invalid when they claim to be one, unsupported otherwise', () => {
    expect(domainError(() => checkAttachment({ bytes: buildExe(), declaredName: 'invoice.pdf' })).code).toBe(
      'INVALID_FILE',
    );
    expect(domainError(() => checkAttachment({ bytes: buildExe(), declaredType: 'image/jpeg' })).code).toBe(
      'INVALID_FILE',
    );
    expect(domainError(() => checkAttachment({ bytes: buildExe(), declaredName: 'setup.exe' })).code).toBe(
      'UNSUPPORTED_FILE',
    );
    expect(domainError(() => checkAttachment({ bytes: buildExe() })).code).toBe('UNSUPPORTED_FILE');
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(
      domainError(() => checkAttachment({ bytes: svg, declaredName: 'logo.svg', declaredType: 'image/svg+xml' })).code,
    ).toBe('UNSUPPORTED_FILE');
  });

  it('rejects an empty file as invalid whatever it claims', () => {
    expect(domainError(() => checkAttachment({ bytes: new Uint8Array(), declaredName: 'a.png' })).code).toBe(
      'INVALID_FILE',
    );
    expect(domainError(() => checkAttachment({ bytes: new Uint8Array() })).code).toBe('INVALID_FILE');
  });

  it('rejects files that are cut off or only borrow a signature', () => {
    const png = buildPng();
    expect(
      domainError(() => checkAttachment({ bytes: png.slice(0, png.length - 20), declaredName: 'a.png' })).code,
    ).toBe('INVALID_FILE');
    expect(domainError(() => checkAttachment({ bytes: png.slice(0, 8) })).code).toBe('INVALID_FILE');
    expect(domainError(() => checkAttachment({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]) })).code).toBe(
      'INVALID_FILE',
    );
    const pdf = buildPdf([['Hello']]);
    expect(domainError(() => checkAttachment({ bytes: pdf.slice(0, Math.floor(pdf.length / 2)) })).code).toBe(
      'INVALID_FILE',
    );
    expect(
      domainError(() => checkAttachment({ bytes: new TextEncoder().encode('RIFF\x00\x00\x00\x00WEBPJUNK1234') })).code,
    ).toBe('INVALID_FILE');
  });

  it('applies the size limit of the kind the bytes show, in MB', () => {
    const limits = { imageMaxBytes: 1024 * 1024, pdfMaxBytes: 2.5 * 1024 * 1024 };
    const bigPng = new Uint8Array(limits.imageMaxBytes + 1);
    bigPng.set(buildPng());
    const error = domainError(() => checkAttachment({ bytes: bigPng }, limits));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.params).toEqual({ limit: 1 });

    const pdf = buildPdf([['Hello']]);
    const bigPdf = new Uint8Array(limits.pdfMaxBytes + 1);
    bigPdf.set(pdf);
    expect(domainError(() => checkAttachment({ bytes: bigPdf }, limits)).params).toEqual({ limit: 2.5 });
    // The same number of bytes is fine as a PDF when the image limit is the smaller one.
    const pdfOverImageLimit = new Uint8Array(limits.imageMaxBytes + 1).fill(0x20);
    pdfOverImageLimit.set(pdf.subarray(0, pdf.length - 7));
    pdfOverImageLimit.set(new TextEncoder().encode('%%EOF\n'), pdfOverImageLimit.length - 6);
    expect(checkAttachment({ bytes: pdfOverImageLimit }, limits).kind).toBe('pdf');
  });

  it('defaults to 10 MiB for images and 25 MiB for PDFs', () => {
    expect(ATTACHMENT_LIMITS).toEqual({
      maxFiles: 5,
      imageMaxBytes: 10 * 1024 * 1024,
      pdfMaxBytes: 25 * 1024 * 1024,
      pdfMaxPages: 500,
    });
    const bigGif = new Uint8Array(ATTACHMENT_LIMITS.imageMaxBytes + 1);
    bigGif.set(buildGif());
    expect(domainError(() => checkAttachment({ bytes: bigGif })).params).toEqual({ limit: 10 });
  });
});

describe('checkAttachmentCount', () => {
  it('allows up to the limit', () => {
    expect(() => checkAttachmentCount(5)).not.toThrow();
    const error = domainError(() => checkAttachmentCount(6));
    expect(error.code).toBe('TOO_MANY_FILES');
    expect(error.params).toEqual({ limit: 5 });
  });
});
