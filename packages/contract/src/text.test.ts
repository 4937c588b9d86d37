import { describe, expect, it } from 'vitest';
import { cleanLine, cleanText, httpUrl, instant, line, text } from './text.js';

describe('text as it enters', () => {
  it('multi-line text keeps tabs and line breaks, loses NUL and other controls, and is well formed', () => {
    expect(cleanText('a\u0000b\tc\nd\r\ne\u0007\u001b[31m\u007f\u0085')).toBe('ab\tc\nd\r\ne[31m');
    expect(cleanText('lone \ud800 high, lone \udc00 low, pair \ud83d\ude00')).toBe(
      'lone \ufffd high, lone \ufffd low, pair \ud83d\ude00',
    );
  });

  it('a single line loses line breaks, controls and bidi overrides', () => {
    expect(cleanLine('Ana\u0000 María\n\tLópez')).toBe('Ana María López');
    expect(cleanLine('invoice\u202Egnp.exe\u2066\u200f')).toBe('invoicegnp.exe');
  });

  it('schemas clean before they check bounds', () => {
    expect(line().trim().min(1).max(5).safeParse(' \u0000ab\u0000 ').data).toBe('ab');
    expect(line().trim().min(1).safeParse('\u0000\u202e').success).toBe(false);
    expect(text().max(3).safeParse('a\u0000\u0000\u0000bc').data).toBe('abc');
  });

  it('a URL with control characters comes out percent-encoded', () => {
    expect(httpUrl().parse('https://example.com/a\u0000b?q=\u0001x')).toBe('https://example.com/a%00b?q=%01x');
    expect(httpUrl().safeParse('javascript:alert(1)').success).toBe(false);
  });

  it('an instant is ISO 8601 within the years the database keeps', () => {
    expect(instant().safeParse('2026-11-28T10:00:00Z').success).toBe(true);
    expect(instant().safeParse('2026-11-28T10:00:00.123+01:00').success).toBe(true);
    expect(instant().safeParse('9999-12-31T23:59:59Z').success).toBe(true);
    // Well formed, and a date to JavaScript, but not to PostgreSQL (there is no year 0) nor to any person here.
    expect(instant().safeParse('0000-01-01T00:00:00Z').success).toBe(false);
    expect(instant().safeParse('1970-01-01T00:30:00+01:00').success).toBe(false);
    expect(instant().safeParse('1969-12-31T23:59:59Z').success).toBe(false);
    expect(instant().safeParse('2026-02-30T10:00:00Z').success).toBe(false);
    expect(instant().safeParse('yesterday').success).toBe(false);
  });
});
