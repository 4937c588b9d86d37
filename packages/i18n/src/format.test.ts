import { describe, expect, it } from 'vitest';
import { formatDateTime, formatFileSize, formatFullDateTime, formatPrice } from './format.js';
import { writingLanguageName } from './index.js';

// Intl puts narrow and non-breaking spaces in some formats; the tests read them as plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatFileSize', () => {
  it('writes small sizes in bytes, with the unit in words', () => {
    expect(plain(formatFileSize(643, 'en'))).toBe('643 bytes');
    expect(plain(formatFileSize(643, 'es'))).toBe('643 bytes');
    expect(plain(formatFileSize(643, 'fr'))).toBe('643 octets');
    expect(plain(formatFileSize(1, 'en'))).toBe('1 byte');
  });

  it('uses KB, MB and GB with the language separators', () => {
    const size = 1.2 * 1024 * 1024;
    expect(plain(formatFileSize(size, 'en'))).toBe('1.2 MB');
    expect(plain(formatFileSize(size, 'es'))).toBe('1,2 MB');
    expect(plain(formatFileSize(size, 'fr'))).toBe('1,2 Mo');
    expect(plain(formatFileSize(2048, 'en'))).toBe('2 kB');
    expect(plain(formatFileSize(1536, 'fr'))).toBe('1,5 ko');
    expect(plain(formatFileSize(10 * 1024 * 1024, 'es'))).toBe('10 MB');
    expect(plain(formatFileSize(3 * 1024 ** 3, 'en'))).toBe('3 GB');
  });

  it('groups thousands of bytes the way each language does', () => {
    expect(plain(formatFileSize(1000, 'en'))).toBe('1,000 bytes');
    expect(plain(formatFileSize(1000, 'fr'))).toBe('1 000 octets');
  });

  it('reads other languages as English and nonsense as nothing', () => {
    expect(plain(formatFileSize(643, 'de-DE'))).toBe('643 bytes');
    expect(plain(formatFileSize(Number.NaN, 'en'))).toBe('0 bytes');
    expect(plain(formatFileSize(-5, 'en'))).toBe('0 bytes');
  });
});

describe('formatDateTime', () => {
  const now = new Date('2026-11-25T18:00:00Z');
  const at = { now, timeZone: 'UTC' };

  it('shows only the time for today', () => {
    expect(plain(formatDateTime('2026-11-25T14:05:00Z', 'en', at))).toBe('2:05 PM');
    expect(formatDateTime('2026-11-25T14:05:00Z', 'es', at)).toBe('14:05');
    expect(formatDateTime('2026-11-25T14:05:00Z', 'fr', at)).toBe('14:05');
  });

  it('shows the day and time earlier this year', () => {
    expect(plain(formatDateTime('2026-03-04T09:30:00Z', 'en', at))).toBe('Mar 4, 9:30 AM');
    expect(plain(formatDateTime('2026-03-04T09:30:00Z', 'es', at))).toBe('4 mar, 9:30');
    expect(plain(formatDateTime('2026-03-04T09:30:00Z', 'fr', at))).toBe('4 mars, 09:30');
  });

  it('shows the date of another year', () => {
    expect(plain(formatDateTime('2025-12-31T23:00:00Z', 'en', at))).toBe('Dec 31, 2025');
    expect(plain(formatDateTime('2025-12-31T23:00:00Z', 'es', at))).toBe('31 dic 2025');
    expect(plain(formatDateTime('2025-12-31T23:00:00Z', 'fr', at))).toBe('31 déc. 2025');
  });

  it('judges "today" in the time zone asked for', () => {
    // 23:30 UTC on the 24th is already the 25th in Paris.
    const paris = { now, timeZone: 'Europe/Paris' };
    expect(formatDateTime('2026-11-24T23:30:00Z', 'fr', paris)).toBe('00:30');
  });

  it('gives nothing for an invalid date', () => {
    expect(formatDateTime('not a date', 'en', at)).toBe('');
    expect(formatFullDateTime('not a date', 'en', at)).toBe('');
  });

  it('writes the full moment for a tooltip', () => {
    expect(plain(formatFullDateTime('2026-11-25T14:05:00Z', 'en', at))).toBe('Wednesday, November 25, 2026 at 2:05 PM');
    expect(plain(formatFullDateTime('2026-11-25T14:05:00Z', 'fr', at))).toBe('mercredi 25 novembre 2026 à 14:05');
  });
});

describe('writingLanguageName', () => {
  it('names each writing language in the interface language, as a person would', () => {
    expect(writingLanguageName('NORWEGIAN', 'en')).toBe('Norwegian');
    expect(writingLanguageName('NORWEGIAN', 'es')).toBe('Noruego');
    expect(writingLanguageName('NORWEGIAN', 'fr')).toBe('Norvégien');
    expect(writingLanguageName('CHINESE_SIMPLIFIED', 'es')).toBe('Chino simplificado');
    expect(writingLanguageName('GERMAN', 'fr')).toBe('Allemand');
  });
});

describe('formatPrice', () => {
  it('writes whole prices without cents, in each language’s order and symbol', () => {
    expect(plain(formatPrice(1500, 'usd', 'en'))).toBe('$15');
    expect(plain(formatPrice(1500, 'usd', 'es'))).toBe('15 US$');
    expect(plain(formatPrice(1500, 'usd', 'fr'))).toBe('15 $US');
    expect(plain(formatPrice(9900, 'eur', 'fr'))).toBe('99 €');
    expect(plain(formatPrice(1234500, 'usd', 'en'))).toBe('$12,345');
  });

  it('shows cents when there are some, rounded to the currency’s smallest unit', () => {
    expect(plain(formatPrice(825, 'usd', 'en'))).toBe('$8.25');
    expect(plain(formatPrice(825, 'usd', 'fr'))).toBe('8,25 $US');
    expect(plain(formatPrice(17900 / 12, 'usd', 'en'))).toBe('$14.92');
    expect(plain(formatPrice(50, 'eur', 'es'))).toBe('0,50 €');
  });

  it('knows currencies without cents, and writes an unknown code after the number', () => {
    expect(plain(formatPrice(1500, 'jpy', 'en'))).toBe('¥1,500');
    expect(plain(formatPrice(1500, 'not-a-code', 'en'))).toBe('15 NOT-A-CODE');
    expect(plain(formatPrice(Number.NaN, 'usd', 'en'))).toBe('$0');
  });
});
