/**
 * Tiny, valid files built in memory for the document tests, so no binary fixture is checked in and no test needs a
 * PDF library. Only tests import this file.
 */

export interface PdfFixtureOptions {
  title?: string;
  /** Adds a Standard-security /Encrypt dictionary whose password check can never pass: the file is "locked". */
  locked?: boolean;
}

/**
 * A PDF with one page per entry of `pages`, each page a list of text lines in Helvetica (WinAnsi, so Latin-1 text
 * such as "é" or "ñ" works). Object offsets in the xref table are exact.
 */
export function buildPdf(pages: string[][], options: PdfFixtureOptions = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);

  const firstPage = 4;
  const kids = pages.map((_, i) => `${firstPage + i * 2} 0 R`).join(' ');
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  pages.forEach((lines, i) => {
    const contents = firstPage + i * 2 + 1;
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`,
    );
    const ops = lines.map((line, n) => `${n === 0 ? '72 720 Td' : '0 -16 Td'} (${escapePdfString(line)}) Tj`);
    const stream = lines.length > 0 ? `BT /F1 12 Tf ${ops.join(' ')} ET` : '';
    add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let infoRef = '';
  if (options.title !== undefined) {
    add(`<< /Title (${escapePdfString(options.title)}) /Producer (parley tests) >>`);
    infoRef = ` /Info ${objects.length} 0 R`;
  }
  let encryptRef = '';
  if (options.locked) {
    const hex32 = 'ab'.repeat(32);
    add(`<< /Filter /Standard /V 1 /R 2 /O <${hex32}> /U <${hex32}> /P -44 >>`);
    encryptRef = ` /Encrypt ${objects.length} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`;
  }

  // Latin-1 throughout, so one character is one byte and string lengths are byte offsets.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoRef}${encryptRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A 1×1 PNG (signature, IHDR, IDAT, IEND) with correct CRCs. */
export function buildPng(): Uint8Array {
  const chunk = (type: string, data: number[]) => {
    const typeAndData = [...Buffer.from(type, 'latin1'), ...data];
    return [...u32(data.length), ...typeAndData, ...u32(crc32(typeAndData))];
  };
  const ihdr = [...u32(1), ...u32(1), 8, 6, 0, 0, 0]; // 1×1, 8-bit RGBA
  // zlib stream of one scanline (filter byte 0 + 4 zero bytes), stored uncompressed.
  const idat = [0x78, 0x01, 0x01, 0x05, 0x00, 0xfa, 0xff, 0, 0, 0, 0, 0, 0x00, 0x05, 0x00, 0x01];
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', ihdr),
    ...chunk('IDAT', idat),
    ...chunk('IEND', []),
  ]);
}

/** The markers of a baseline JPEG: SOI, a JFIF APP0, SOS and EOI. Enough for a structural check, not for a decoder. */
export function buildJpeg(): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sos = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sos, 0x00, 0x00, 0xff, 0xd9]);
}

/** The classic 1×1 transparent GIF89a. */
export function buildGif(): Uint8Array {
  return new Uint8Array(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
}

/** A 1×1 lossless WebP (RIFF container with one VP8L chunk). */
export function buildWebp(): Uint8Array {
  return new Uint8Array(Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'));
}

/** The start of a Windows executable. */
export function buildExe(): Uint8Array {
  const bytes = new Uint8Array(256);
  bytes.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
  bytes.set(Buffer.from('This program cannot be run in DOS mode.', 'latin1'), 0x4e);
  return bytes;
}

function u32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function crc32(bytes: number[]): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
