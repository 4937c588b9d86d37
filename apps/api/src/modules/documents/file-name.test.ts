import { validateHeaderValue } from 'node:http';
import { describe, expect, it } from 'vitest';
import { contentDisposition, safeFileName } from './file-name.js';

const FALLBACK = 'attachment';

/** Every character safeFileName must remove, by code point. */
const REMOVED = [
  ...Array.from({ length: 0x20 }, (_, i) => i).filter((c) => c < 0x09 || c > 0x0d),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i).filter((c) => c !== 0x85),
  0x061c,
  0x200e,
  0x200f,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
  0x200b,
  0x200c,
  0x200d,
  0x2060,
  0xfeff,
  0x00ad,
];

const FORBIDDEN = new Set([...REMOVED, ...Array.from({ length: 0x800 }, (_, i) => 0xd800 + i)]);

const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

describe('safeFileName', () => {
  it.each([
    'report.pdf',
    'Résumé 2024.pdf',
    '写真 (1).jpg',
    'Привет мир.png',
    'مرحبا.pdf',
    '🎉 party.gif',
    "it's #1 & 50% off!.webp",
    'a',
  ])('keeps an ordinary name: %s', (name) => {
    expect(safeFileName(name, FALLBACK)).toBe(name);
  });

  it('normalizes to NFC', () => {
    const decomposed = 'Re\u0301sume\u0301.pdf';
    expect(safeFileName(decomposed, FALLBACK)).toBe('R\u00e9sum\u00e9.pdf');
    expect(safeFileName('\u212b.png', FALLBACK)).toBe('\u00c5.png'); // ANGSTROM SIGN → Å
  });

  it.each(REMOVED.map((codePoint) => [hex(codePoint), codePoint]))('removes %s', (_name, codePoint) => {
    const char = String.fromCodePoint(codePoint);
    expect(safeFileName(`pho${char}to.jpg`, FALLBACK)).toBe('photo.jpg');
  });

  it('removes the right-to-left override that disguises an extension', () => {
    expect(safeFileName('invoice\u202egpj.exe', FALLBACK)).toBe('invoicegpj.exe');
    expect(safeFileName('\u2067report\u2069\u200f.pdf', FALLBACK)).toBe('report.pdf');
  });

  it('turns line breaks and tabs into spaces and collapses runs of whitespace', () => {
    expect(safeFileName('line one\nline\ttwo\r\n.txt', FALLBACK)).toBe('line one line two .txt');
    expect(safeFileName('a \u00a0\u3000\u2003 b\u0085c.png', FALLBACK)).toBe('a b c.png');
    expect(safeFileName('a\u2028b.png', FALLBACK)).toBe('a b.png');
  });

  it('removes lone surrogates and keeps pairs', () => {
    expect(safeFileName('a\ud800b.txt', FALLBACK)).toBe('ab.txt');
    expect(safeFileName('\udc00x\ud83d', FALLBACK)).toBe('x');
    expect(safeFileName('\ude00\ud83d\ude00\ud83d.png', FALLBACK)).toBe('\ud83d\ude00.png');
  });

  it('replaces path separators', () => {
    expect(safeFileName('../../etc/passwd', FALLBACK)).toBe('_.._etc_passwd');
    expect(safeFileName('C:\\Users\\me\\photo.png', FALLBACK)).toBe('C:_Users_me_photo.png');
    expect(safeFileName('/', FALLBACK)).toBe('_');
  });

  it('trims spaces and dots at both ends', () => {
    expect(safeFileName('  ..hidden.txt. . ', FALLBACK)).toBe('hidden.txt');
    expect(safeFileName('\u200b .\u00a0report.pdf\u202e.', FALLBACK)).toBe('report.pdf');
  });

  it.each(['', '   ', '...', ' . . ', '\u202e\u200b\ufeff', '\u0000\u0001', '\ud800', '\n\t'])(
    'falls back when nothing is left of %j',
    (name) => {
      expect(safeFileName(name, FALLBACK)).toBe(FALLBACK);
    },
  );

  it('cuts long names to 200 code units and keeps the extension', () => {
    const cut = safeFileName(`${'a'.repeat(300)}.pdf`, FALLBACK);
    expect(cut).toBe(`${'a'.repeat(196)}.pdf`);
    expect(safeFileName('b'.repeat(250), FALLBACK)).toBe('b'.repeat(200));
    expect(safeFileName('c'.repeat(200), FALLBACK)).toBe('c'.repeat(200));
    // A trailing part too long to be an extension is cut like the rest.
    expect(safeFileName(`d.${'e'.repeat(250)}`, FALLBACK)).toBe(`d.${'e'.repeat(198)}`);
    // No dots or spaces left before the extension after the cut.
    expect(safeFileName(`${'f'.repeat(193)}. . . ${'g'.repeat(20)}.jpeg`, FALLBACK)).toBe(`${'f'.repeat(193)}.jpeg`);
  });

  it('never splits a surrogate pair when cutting', () => {
    const name = `a${'\u{1F600}'.repeat(120)}.png`; // the cut at 196 falls inside a pair
    const cut = safeFileName(name, FALLBACK);
    expect(cut).toBe(`a${'\u{1F600}'.repeat(97)}.png`);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(() => encodeURIComponent(cut)).not.toThrow();
    const even = safeFileName(`ab${'\u{1F600}'.repeat(120)}.png`, FALLBACK);
    expect(even).toBe(`ab${'\u{1F600}'.repeat(97)}.png`);
  });

  it('is stable and always well-formed, short and free of invisible characters', () => {
    const pool = [
      'a',
      'Z',
      'é',
      'e\u0301',
      '.',
      ' ',
      '/',
      '\\',
      '\n',
      '\u0000',
      '\u0085',
      '\u202e',
      '\u200d',
      '\u00a0',
      '\ud83d',
      '\ude00',
      '\u{1F600}',
      '写',
      '"',
      "'",
      '%',
      ';',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 2000; round++) {
      const length = Math.floor(next() * 260);
      const name = Array.from({ length }, () => pool[Math.floor(next() * pool.length)]).join('');
      const safe = safeFileName(name, FALLBACK);
      expect(safeFileName(safe, FALLBACK)).toBe(safe);
      expect(safe.length).toBeGreaterThan(0);
      expect(safe.length).toBeLessThanOrEqual(200);
      expect(safe).toBe(safe.normalize('NFC'));
      expect(() => encodeURIComponent(safe)).not.toThrow();
      expect([...safe].filter((char) => FORBIDDEN.has(char.codePointAt(0) ?? 0))).toEqual([]);
      expect(safe).not.toMatch(/[/\\]|\s\s|^[\s.]|[\s.]$/u);
    }
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII name and a UTF-8 name', () => {
    expect(contentDisposition('inline', 'report.pdf')).toBe(
      `inline; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('attachment', 'Résumé 2024.pdf')).toBe(
      `attachment; filename="R_sum_ 2024.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202024.pdf`,
    );
    expect(contentDisposition('inline', '写真.jpg')).toBe(
      `inline; filename="__.jpg"; filename*=UTF-8''%E5%86%99%E7%9C%9F.jpg`,
    );
    expect(contentDisposition('inline', '\u{1F600}.png')).toBe(
      `inline; filename="_.png"; filename*=UTF-8''%F0%9F%98%80.png`,
    );
  });

  it("percent-encodes ' ( ) * in the UTF-8 name, as RFC 5987 requires", () => {
    expect(contentDisposition('inline', "it's (final)*.pdf")).toBe(
      `inline; filename="it's (final)*.pdf"; filename*=UTF-8''it%27s%20%28final%29%2A.pdf`,
    );
    expect(contentDisposition('inline', 'a!~-_.b')).toBe(`inline; filename="a!~-_.b"; filename*=UTF-8''a!~-_.b`);
  });

  it('removes quotes and backslashes from the ASCII name', () => {
    expect(contentDisposition('inline', 'say "hi".txt')).toBe(
      `inline; filename="say hi.txt"; filename*=UTF-8''say%20%22hi%22.txt`,
    );
    expect(contentDisposition('inline', 'a\\b.txt')).toBe(`inline; filename="a_b.txt"; filename*=UTF-8''a_b.txt`);
    expect(contentDisposition('inline', '"')).toBe(`inline; filename="file"; filename*=UTF-8''%22`);
  });

  it('cleans names stored before safeFileName existed', () => {
    expect(contentDisposition('attachment', 'invoice\u202egpj.exe')).toBe(
      `attachment; filename="invoicegpj.exe"; filename*=UTF-8''invoicegpj.exe`,
    );
    expect(contentDisposition('inline', 'a\r\nSet-Cookie: x=y')).toBe(
      `inline; filename="a Set-Cookie: x=y"; filename*=UTF-8''a%20Set-Cookie%3A%20x%3Dy`,
    );
    expect(contentDisposition('inline', '')).toBe(`inline; filename="file"; filename*=UTF-8''file`);
  });

  it('is always a valid header value', () => {
    for (const name of ['\u0000', '\ud800', '\u202e', 'é\r\n', '\u{1F600}"\\', ' ', 'x'.repeat(500)]) {
      const value = contentDisposition('attachment', name);
      expect(() => validateHeaderValue('content-disposition', value)).not.toThrow();
      expect(value).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
