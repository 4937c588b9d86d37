import { instantInRange, type PostRepeat } from '@parley/contract';
import { localMinute } from '../../lib/time.js';

/**
 * A scheduled post's time as the person chose it: a local date and time in their IANA time zone. Repeats keep that
 * wall-clock time, so a daily 09:00 post stays at 09:00 across daylight-saving changes.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Milliseconds of a local time read as if it were UTC (to compare local times arithmetically). */
function asUtc(local: string) {
  const m = LOCAL.exec(local);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi);
  // 2025-02-30 rolls over: not a date.
  return new Date(ms).toISOString().slice(0, 16) === local ? ms : null;
}

/**
 * The instant of a local date and time in `timeZone`. Where the time is skipped (clocks jump forward) it is the same
 * time after the jump (02:30 on the night clocks go from 02:00 to 03:00 is 03:30); where it happens twice (clocks go
 * back), the first. Null for a date that does not exist.
 */
export function localToUtc(local: string, timeZone: string): Date | null {
  const wall = asUtc(local);
  if (wall === null) return null;
  const offsetAt = (instant: number) => (asUtc(localMinute(new Date(instant), timeZone)) ?? instant) - instant;
  // The offsets a day either side cover any change near this time.
  const candidates = [...new Set([offsetAt(wall - 86_400_000), offsetAt(wall + 86_400_000), offsetAt(wall)])]
    .map((offset) => wall - offset)
    .filter((instant) => localMinute(new Date(instant), timeZone) === local)
    .sort((a, b) => a - b);
  if (candidates.length) return new Date(candidates[0]!);
  // Skipped: the offset before the jump carries it past the gap.
  return new Date(wall - offsetAt(wall - 86_400_000));
}

/** The local date `days` after `local`'s, at the same time. */
function addDays(local: string, days: number) {
  const ms = asUtc(local)!;
  return new Date(ms + days * 86_400_000).toISOString().slice(0, 16);
}

/**
 * The next run of a repeating post after `after`: the same wall-clock time (`localTime`, HH:mm) a day or a week after
 * the run at `runAt`, skipping runs already past (a server that was stopped does not publish the missed ones).
 */
export function nextRun(
  runAt: Date,
  localTime: string,
  timeZone: string,
  repeat: PostRepeat,
  after: Date,
): Date | null {
  if (repeat === 'none') return null;
  const step = repeat === 'daily' ? 1 : 7;
  let local = `${localMinute(runAt, timeZone).slice(0, 10)}T${localTime}`;
  for (let i = 0; i < 1_000; i++) {
    local = addDays(local, step);
    const instant = localToUtc(local, timeZone);
    // A repeat ends where the instants the database keeps end.
    if (instant && !instantInRange(instant.getTime())) return null;
    if (instant && instant.getTime() > after.getTime()) return instant;
  }
  return null;
}
