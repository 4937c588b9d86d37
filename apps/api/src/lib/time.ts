/**
 * Days as a person lives them: in their time zone (IANA name, e.g. Europe/Paris), UTC when it is unknown. Daily
 * credits come back, and the free tier's daily uses start again, at the person's midnight.
 */

/** IANA names are short and plain: anything else is refused before it costs a formatter or a cache entry. */
const ZONE_NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;
/** Zone names come from requests: the cache of formatters (null for an unknown zone) is emptied when it fills. */
const MAX_FORMATS = 1_000;
const formats = new Map<string, Intl.DateTimeFormat | null>();

function formatFor(timeZone: string): Intl.DateTimeFormat | null {
  if (!ZONE_NAME.test(timeZone)) return null;
  let format = formats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      format = null;
    }
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(timeZone, format);
  }
  return format;
}

/** How many zones the formatter cache holds (never more than its bound). */
export const formatCacheSize = () => formats.size;

/** Whether `timeZone` is an IANA zone this runtime knows (Europe/Paris, America/New_York, UTC). */
export function isKnownTimeZone(timeZone: string) {
  return formatFor(timeZone) !== null;
}

/** `timeZone` when it is known, else UTC. */
export const zoneOrUtc = (timeZone: string) => (isKnownTimeZone(timeZone) ? timeZone : 'UTC');

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall-clock date and time in `timeZone` (UTC when it is unknown) at `instant`. */
function partsAt(instant: Date, timeZone: string): Parts {
  const parts = formatFor(zoneOrUtc(timeZone))!.formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The date in `timeZone` at `instant`, as YYYY-MM-DD. */
export function localDate(instant: Date, timeZone: string): string {
  const p = partsAt(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The date in UTC at `instant`, as YYYY-MM-DD (`localDate(instant, 'UTC')` without Intl, for hot paths). */
export const utcDate = (instant: Date): string => instant.toISOString().slice(0, 10);

/** The wall-clock minute in `timeZone` at `instant`, as YYYY-MM-DDTHH:mm. */
export function localMinute(instant: Date, timeZone: string): string {
  const p = partsAt(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** The offset of `timeZone` from UTC at `instant`, in milliseconds (local time minus UTC). */
function offsetAt(instant: Date, timeZone: string) {
  const p = partsAt(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The first instant of the next day in `timeZone` after `instant`: its midnight, or, where the clocks jump over
 * midnight (a few zones change at 00:00), the first minute that exists.
 */
export function nextLocalMidnight(instant: Date, timeZone: string): Date {
  const today = localDate(instant, timeZone);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const midnightAsUtc = Date.UTC(y, m - 1, d + 1);
  // Two passes settle the offset across a change of offset on that night.
  let candidate = midnightAsUtc - offsetAt(new Date(midnightAsUtc), timeZone);
  candidate = midnightAsUtc - offsetAt(new Date(candidate), timeZone);
  // Where midnight does not exist (clocks jump from 23:59 to 01:00), step to the first instant of the new day.
  while (localDate(new Date(candidate), timeZone) === today) candidate += 15 * 60_000;
  while (localDate(new Date(candidate - 60_000), timeZone) !== today) candidate -= 60_000;
  return new Date(candidate);
}

/** The dates of the `count` days up to and including `instant`'s, in `timeZone`, oldest first. */
export function lastDays(instant: Date, timeZone: string, count: number): string[] {
  const [y, m, d] = localDate(instant, timeZone).split('-').map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10),
  );
}
