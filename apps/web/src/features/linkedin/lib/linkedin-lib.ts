import { useEffect } from 'react';
import { splitCommaList } from '@parley/contract';
import { useGlobalLoader, type LoaderType } from '../../../lib/global-loader';

/** A list of words as the pages show it: comma separated (spec §5). */
export const joinCommaList = (words: readonly string[]) => words.join(', ');
export { splitCommaList };

/** The browser's time zone (the scheduled post's default). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The time zones the browser knows, with `current` among them. */
export function timeZones(current: string): string[] {
  let zones: string[] = [];
  try {
    zones =
      (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  if (!zones.includes('UTC')) zones = ['UTC', ...zones];
  return zones.includes(current) ? zones : [current, ...zones];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock date and time (YYYY-MM-DD, HH:mm) of an instant in a time zone. */
export function localParts(iso: string | Date, timeZone: string): { date: string; time: string } {
  const when = typeof iso === 'string' ? new Date(iso) : iso;
  try {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(when)
        .map((p) => [p.type, p.value]),
    );
    return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
  } catch {
    return {
      date: `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`,
      time: `${pad(when.getHours())}:${pad(when.getMinutes())}`,
    };
  }
}

/** A calendar date (YYYY-MM-DD) at noon UTC, so formatting it never shifts the day. */
export const calendarDay = (day: string) => `${day}T12:00:00Z`;

/** Shows the global loader (spec §2) with `kind`'s rotating messages while `waiting` is true. */
export function useLoaderWhile(waiting: boolean, kind: LoaderType) {
  const { show, hide } = useGlobalLoader();
  useEffect(() => {
    if (!waiting) return;
    show(kind);
    return () => hide();
  }, [waiting, kind, show, hide]);
}

/** Leaves the app for an address outside it (LinkedIn's consent page). Its own object so tests can watch it. */
export const browser = {
  go(url: string) {
    window.location.assign(url);
  },
  open(url: string) {
    window.open(url, '_blank', 'noopener,noreferrer');
  },
};

/** Puts text on the clipboard; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
