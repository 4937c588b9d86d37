// How Parley writes sizes and moments, in the web app and the extension alike. Everything goes through Intl, so the
// separators, unit names and word order are the language's own ("1.2 MB", "1,2 MB", "1,2 Mo").

/** Interface languages and Arabic get their own formats (spec §1); anything else reads as English. */
const FORMAT_LOCALES = ['en', 'es', 'fr', 'ar'];

export function formatLocale(lng: string): string {
  const short = lng.slice(0, 2).toLowerCase();
  return FORMAT_LOCALES.includes(short) ? short : 'en';
}

const SIZE_UNITS = ['kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * A file size: whole bytes under 1 KB with the unit written out ("643 bytes", "643 octets"), then KB, MB, GB with
 * one decimal when it says something ("1.2 MB", "1,2 Mo", "10 MB"). Units are binary (1 KB = 1,024 bytes), as the
 * upload limits are.
 */
export function formatFileSize(bytes: number, lng: string): string {
  const locale = formatLocale(lng);
  const value = Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : 0;
  if (value < 1024) {
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(value);
  }
  let scaled = value / 1024;
  let unit = 0;
  while (scaled >= 1024 && unit < SIZE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: SIZE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: scaled < 100 ? 1 : 0,
  }).format(scaled);
}

export type DateTimeOptions = {
  /** The moment "today" is judged from (tests pin it). */
  now?: Date;
  /** An IANA time zone; the runtime's own by default. */
  timeZone?: string;
};

const toDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));

function calendarParts(date: Date, timeZone: string | undefined) {
  const parts = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'numeric', day: 'numeric', timeZone })
    .formatToParts(date)
    .reduce<Record<string, string>>((all, p) => ({ ...all, [p.type]: p.value }), {});
  return { year: parts.year, day: `${parts.year}-${parts.month}-${parts.day}` };
}

const hourStyles = new Map<string, 'numeric' | '2-digit'>();

/** The hour as the language writes a short time: "9:05 AM", "9:05", but "09:05" in French. */
function hourStyle(locale: string): 'numeric' | '2-digit' {
  let style = hourStyles.get(locale);
  if (!style) {
    const nine = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' })
      .formatToParts(new Date(Date.UTC(2000, 0, 1, 9, 5)))
      .find((part) => part.type === 'hour')?.value;
    style = nine?.length === 2 ? '2-digit' : 'numeric';
    hourStyles.set(locale, style);
  }
  return style;
}

/**
 * When something happened, as every list of the product shows it: the time alone today ("2:05 PM", "14:05"), the day
 * and time this year ("Nov 3, 2:05 PM", "3 nov, 14:05"), the full date before ("Nov 3, 2025"). Invalid input gives ''.
 */
export function formatDateTime(value: Date | string | number, lng: string, options: DateTimeOptions = {}): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '';
  const { timeZone } = options;
  const then = calendarParts(date, timeZone);
  const now = calendarParts(options.now ?? new Date(), timeZone);
  const locale = formatLocale(lng);
  const time: Intl.DateTimeFormatOptions = { hour: hourStyle(locale), minute: '2-digit' };
  const format: Intl.DateTimeFormatOptions =
    then.day === now.day
      ? time
      : then.year === now.year
        ? { month: 'short', day: 'numeric', ...time }
        : { year: 'numeric', month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(locale, { ...format, timeZone }).format(date);
}

/** The whole moment, for a tooltip or a `<time title>`: "Tuesday, November 3, 2026 at 2:05 PM". */
export function formatFullDateTime(value: Date | string | number, lng: string, options: DateTimeOptions = {}): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(formatLocale(lng), {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: options.timeZone,
  }).format(date);
}

/** Digits after the decimal point of a currency's smallest unit (2 for USD and EUR, 0 for JPY). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A price given in the currency's smallest unit (cents), as the language writes money: "$15", "15 US$", "15 $US";
 * cents only when there are some ("$8.25"). An unknown currency code is written after the number.
 */
export function formatPrice(amountInCents: number, currency: string, lng: string): string {
  const code = currency.toUpperCase();
  const digits = minorDigits(code);
  const value = (Number.isFinite(amountInCents) ? amountInCents : 0) / 10 ** digits;
  const whole = Math.abs(value - Math.round(value)) < 1e-9;
  const locale = formatLocale(lng);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: whole ? 0 : digits,
      maximumFractionDigits: whole ? 0 : digits,
    }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${code}`;
  }
}
