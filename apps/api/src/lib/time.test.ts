import { describe, expect, it } from 'vitest';
import {
  formatCacheSize,
  isKnownTimeZone,
  lastDays,
  localDate,
  localMinute,
  nextLocalMidnight,
  zoneOrUtc,
} from './time.js';

describe('days in a time zone', () => {
  it('the local date, and the next local midnight', () => {
    const at = new Date('2026-11-23T23:30:00Z');
    expect(localDate(at, 'Europe/Paris')).toBe('2026-11-24');
    expect(localDate(at, 'America/New_York')).toBe('2026-11-23');
    expect(nextLocalMidnight(at, 'Europe/Paris').toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(nextLocalMidnight(at, 'America/New_York').toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(nextLocalMidnight(at, 'Asia/Kathmandu').toISOString()).toBe('2026-11-24T18:15:00.000Z');
    expect(nextLocalMidnight(at, 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('across a change of clocks, and where midnight does not exist', () => {
    // Paris leaves summer time on 2026-10-25 at 03:00: that day lasts 25 hours.
    expect(nextLocalMidnight(new Date('2026-10-25T10:00:00Z'), 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T23:00:00.000Z',
    );
    expect(nextLocalMidnight(new Date('2026-10-24T10:00:00Z'), 'Europe/Paris').toISOString()).toBe(
      '2026-10-24T22:00:00.000Z',
    );
    // Santiago starts summer time at midnight: 2026-09-06 begins at 01:00 local (04:00 UTC).
    const start = nextLocalMidnight(new Date('2026-09-05T15:00:00Z'), 'America/Santiago');
    expect(localDate(start, 'America/Santiago')).toBe('2026-09-06');
    expect(localDate(new Date(start.getTime() - 1000), 'America/Santiago')).toBe('2026-09-05');
  });

  it('an unknown zone is UTC', () => {
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(zoneOrUtc('Mars/Olympus_Mons')).toBe('UTC');
    expect(nextLocalMidnight(new Date('2026-11-23T12:00:00Z'), 'Mars/Olympus_Mons').toISOString()).toBe(
      '2026-11-24T00:00:00.000Z',
    );
  });

  it('names that are not plain zone names are refused, and many unknown zones do not grow the cache past its bound', () => {
    for (const zone of ['Europe/Paris; DROP', '', 'x'.repeat(100), '../../etc/passwd ']) {
      expect(isKnownTimeZone(zone)).toBe(false);
    }
    for (let i = 0; i < 2_500; i++) expect(isKnownTimeZone(`Nowhere/Zone_${i}`)).toBe(false);
    expect(formatCacheSize()).toBeLessThanOrEqual(1_000);
    // Known zones still work after the cache was emptied.
    expect(isKnownTimeZone('Europe/Paris')).toBe(true);
    expect(localMinute(new Date('2026-07-01T07:05:00Z'), 'Europe/Paris')).toBe('2026-07-01T09:05');
    expect(formatCacheSize()).toBeLessThanOrEqual(1_000);
  });

  it('lists the last days, oldest first', () => {
    expect(lastDays(new Date('2026-03-02T12:00:00Z'), 'UTC', 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });
});
