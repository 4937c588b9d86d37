import { inflateRawSync } from 'node:zlib';
import type { LinkedinMetric, STATS_IMPORT_NOTES } from '@parley/contract';

type StatsImportNote = (typeof STATS_IMPORT_NOTES)[number];

/**
 * Reading LinkedIn's analytics export: the "Content" workbook (XLSX: sheets DISCOVERY, ENGAGEMENT with Date,
 * Impressions, Engagements…, FOLLOWERS with the total and Date, New followers), or a CSV with a Date column and
 * metric columns. No dependency: the ZIP is read from its central directory and each part inflated with a cap on
 * its size, so a zip bomb, a huge sheet or a file that is not one of these is refused (null), never a 500.
 */

export type Reading = { metric: LinkedinMetric; day: string; value: number };

/** Bounds on what a file may hold. */
const MAX_ENTRIES = 2_000;
/** Uncompressed bytes of one part read (a sheet), and of all the parts read. */
const MAX_PART_BYTES = 20 * 1024 * 1024;
const MAX_TOTAL_BYTES = 40 * 1024 * 1024;
/** Rows of a sheet or lines of a CSV. */
const MAX_ROWS = 20_000;
const MAX_COLUMNS = 60;
/**
 * Characters of one cell or shared string: LinkedIn's cells are dates, numbers, titles and links. A longer one is
 * read as empty, so no cell costs more than this whatever refers to it.
 */
export const MAX_CELL = 1_024;
/** Characters of a header cell looked at (a column's name). */
const MAX_HEADER = 100;
/** Cells (empty ones included) and characters of cells in a whole file, and sheets in a workbook. */
const MAX_CELLS = 300_000;
const MAX_TEXT = 4 * 1024 * 1024;
const MAX_SHEETS = 50;
/** However a file is made, reading it stops after this long (the work is done on the request's thread). */
const MAX_READ_MS = 3_000;

export class UnreadableFile extends Error {}
const unreadable = (why: string): never => {
  throw new UnreadableFile(why);
};

/**
 * What reading one file may cost: each cell is counted with its characters (capped at MAX_CELL), and the time is
 * looked at every so often. Over a bound, the file is unreadable.
 */
type Budget = { cell(value: string, overlong?: boolean): string };
function createBudget(maxMs = MAX_READ_MS): Budget {
  const deadline = Date.now() + maxMs;
  let cells = 0;
  let chars = 0;
  return {
    cell(value, overlong = false) {
      const kept = overlong || value.length > MAX_CELL ? '' : value;
      cells++;
      chars += kept.length;
      if (cells > MAX_CELLS || chars > MAX_TEXT) unreadable('too many cells');
      if (cells % 1024 === 0 && Date.now() > deadline) unreadable('too slow to read');
      return kept;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Column names → metrics

const HEADERS: [RegExp, LinkedinMetric | 'newFollowers'][] = [
  [/^(total )?followers?( count)?$/, 'followers'],
  [/^new followers?$/, 'newFollowers'],
  [/^connections?$/, 'connections'],
  [/^posts?$/, 'posts'],
  [/^impressions?$/, 'impressions'],
  [/^(likes?|reactions?)$/, 'likes'],
  [/^comments?$/, 'comments'],
  [/^profile ?(viewers|views)$/, 'profileViewers'],
  [/^ssi( score)?$/, 'ssiScore'],
];
/** A header's name: a long cell is no column name, and a trailing "(…)" (a unit, a date range) is dropped. */
const headerName = (header: string) => {
  let h = header.trim();
  if (h.length > MAX_HEADER) return '';
  h = h.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  if (h.endsWith(')')) {
    const open = h.lastIndexOf('(');
    if (open !== -1) h = h.slice(0, open);
  }
  return h.trim();
};
const metricOf = (header: string) => {
  const h = headerName(header);
  return h ? (HEADERS.find(([re]) => re.test(h))?.[1] ?? null) : null;
};
const isDateHeader = (cell: string) => cell.length <= MAX_HEADER && /^date$/i.test(cell.trim());

// ---------------------------------------------------------------------------------------------------------------
// Dates and numbers

const pad = (n: number) => String(n).padStart(2, '0');
const validDay = (y: number, m: number, d: number) => {
  if (y < 2000 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 ? `${y}-${pad(m)}-${pad(d)}` : null;
};

/** A day from a cell: 2026-11-25, 11/25/2026 (LinkedIn's exports; 25/11/2026 when the first part is over 12), or an Excel serial. */
export function dayOf(value: string, serial = false): string | null {
  // No day is written in more than a few characters (2026-11-25T12:00:00.000+01:00 at most).
  if (value.length > 40) return null;
  const v = value.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(v);
  if (m) return validDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(v);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return a > 12 ? validDay(y, b, a) : validDay(y, a, b);
  }
  if (serial && /^\d{5}(\.\d+)?$/.test(v)) {
    // Excel's day 25569 is 1970-01-01.
    const date = new Date((Math.floor(Number(v)) - 25569) * 86_400_000);
    return validDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
  }
  return null;
}

const numberOf = (value: string) => {
  if (value.length > 40) return null;
  const v = value.trim().replace(/[\s,]/g, '').replace(/%$/, '');
  if (!/^-?\d+(\.\d+)?$/.test(v)) return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 && n <= 1e12 ? n : null;
};

// ---------------------------------------------------------------------------------------------------------------
// Tables → readings

type Table = string[][];

/**
 * The readings of a table whose header row has a Date column and metric columns. `New followers` per day become
 * the total of each day when the total at the end is known (`totalFollowers`).
 */
function readingsOf(
  table: Table,
  serialDates: boolean,
  totalFollowers: number | null,
): { readings: Reading[]; newFollowersUnused: boolean } {
  const headerAt = table.findIndex((row) => row.some(isDateHeader));
  if (headerAt === -1) return { readings: [], newFollowersUnused: false };
  const header = table[headerAt]!;
  const dateColumn = header.findIndex(isDateHeader);
  const columns = header.map((c, i) => (i === dateColumn ? null : metricOf(c)));
  const out: Reading[] = [];
  const newFollowers: { day: string; value: number }[] = [];
  for (const row of table.slice(headerAt + 1)) {
    const day = dayOf(row[dateColumn] ?? '', serialDates);
    if (!day) continue;
    columns.forEach((metric, i) => {
      if (!metric) return;
      const value = numberOf(row[i] ?? '');
      if (value === null) return;
      if (metric === 'newFollowers') newFollowers.push({ day, value });
      else out.push({ metric, day, value });
    });
  }
  const withoutTotal = newFollowers.length > 0 && !out.some((r) => r.metric === 'followers');
  if (totalFollowers !== null && withoutTotal) {
    // The total is the count on the last day; each day before it had that minus what came after.
    newFollowers.sort((a, b) => (a.day < b.day ? 1 : -1));
    let total = totalFollowers;
    for (const { day, value } of newFollowers) {
      out.push({ metric: 'followers', day, value: Math.max(0, total) });
      total -= value;
    }
  }
  return { readings: out, newFollowersUnused: withoutTotal && totalFollowers === null };
}

/** Characters of a line looked at for the total of followers. */
const TOTAL_LINE_MAX = 200;

/**
 * "Total followers on 11/25/2026: 1,234" (LinkedIn puts it above the FOLLOWERS table). Found with indexOf in the
 * first characters of the line: no expression scans a long line from every position.
 */
function totalFollowersIn(table: Table) {
  for (const row of table.slice(0, 5)) {
    const line = row.join(' ').slice(0, TOTAL_LINE_MAX);
    const at = line.toLowerCase().indexOf('total followers');
    if (at === -1) continue;
    const colon = line.indexOf(':', at);
    if (colon !== -1) {
      const m = /^\s*([\d,.\s]{1,40})/.exec(line.slice(colon + 1, colon + 60));
      if (m) return numberOf(m[1]!);
    }
    if ((row[0] ?? '').toLowerCase().includes('total followers') && row[1]) return numberOf(row[1]);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

/** The rows of a CSV; a cell over MAX_CELL characters is read as empty (its characters are not kept). */
export function parseCsv(text: string, budget: Budget = createBudget()): Table {
  const rows: Table = [];
  let row: string[] = [];
  let cell = '';
  let long = false;
  let quoted = false;
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const add = (c: string) => {
    if (long) return;
    if (cell.length >= MAX_CELL) {
      long = true;
      cell = '';
    } else cell += c;
  };
  const endCell = () => {
    row.push(budget.cell(cell, long));
    cell = '';
    long = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          add('"');
          i++;
        } else quoted = false;
      } else add(c);
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === delimiter) {
      endCell();
      if (row.length > MAX_COLUMNS) unreadable('too many columns');
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endCell();
      rows.push(row);
      row = [];
      if (rows.length > MAX_ROWS) unreadable('too many rows');
    } else add(c);
  }
  if (cell !== '' || long || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// XLSX (a ZIP of XML parts)

type ZipEntry = { name: string; method: number; compressedSize: number; size: number; offset: number };

function zipEntries(buf: Buffer): ZipEntry[] {
  // The end of central directory record: in the last 64 KiB + 22 bytes.
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end === -1) unreadable('not a zip');
  const count = buf.readUInt16LE(end + 10);
  const size = buf.readUInt32LE(end + 12);
  let at = buf.readUInt32LE(end + 16);
  if (count > MAX_ENTRIES || at + size > buf.length) unreadable('bad central directory');
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) unreadable('bad central directory entry');
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    entries.push({
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      offset: buf.readUInt32LE(at + 42),
      name: buf.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function createPartReader(buf: Buffer) {
  const entries = new Map(zipEntries(buf).map((e) => [e.name.replace(/^\//, ''), e]));
  let total = 0;
  return {
    has: (name: string) => entries.has(name),
    read(name: string): string | null {
      const entry = entries.get(name);
      if (!entry) return null;
      const at = entry.offset;
      if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) unreadable('bad local header');
      const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
      const end = start + entry.compressedSize;
      if (end > buf.length) unreadable('entry past the end');
      const raw = buf.subarray(start, end);
      let data: Buffer;
      if (entry.method === 0) data = raw;
      else if (entry.method === 8) {
        try {
          // The declared size is not trusted: inflating stops at the cap whatever the header says.
          data = inflateRawSync(raw, { maxOutputLength: MAX_PART_BYTES });
        } catch {
          return unreadable('cannot inflate (or too large)');
        }
      } else return unreadable('unknown compression');
      total += data.length;
      if (data.length > MAX_PART_BYTES || total > MAX_TOTAL_BYTES) unreadable('too large');
      return data.toString('utf8');
    },
  };
}

const decodeXml = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()]!;
    const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
  });
/** The value of attribute `name` in a tag's attributes, found with indexOf (the tag is the file's, not ours). */
const attr = (tag: string, name: string) => {
  const key = `${name}="`;
  for (let at = tag.indexOf(key); at !== -1; at = tag.indexOf(key, at + 1)) {
    const before = tag[at - 1];
    if (before !== undefined && before !== ' ' && before !== '\t' && before !== '\n' && before !== '\r') continue;
    const end = tag.indexOf('"', at + key.length);
    return end === -1 ? undefined : tag.slice(at + key.length, end);
  }
  return undefined;
};

/** A1 → 0, B7 → 1, AA3 → 26. */
const columnIndex = (ref: string) => {
  const letters = /^[A-Z]+/.exec(ref)?.[0] ?? '';
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
};

/** Bytes an element of a sheet may hold (a row, a cell, a shared string), and its opening tag (attributes). */
const MAX_ELEMENT = 256 * 1024;
const MAX_TAG = 2_048;
const MAX_SHARED = 200_000;

/**
 * The `<tag …>…</tag>` (or `<tag …/>`) elements of `xml` in order, found with indexOf in one pass: no regular
 * expression backtracks over a hostile part. An element left open makes the file unreadable.
 */
function* elements(xml: string, tag: string): Generator<{ attrs: string; inner: string }> {
  const open = `<${tag}`;
  const close = `</${tag}>`;
  let at = 0;
  for (;;) {
    const start = xml.indexOf(open, at);
    if (start === -1) return;
    const next = xml[start + open.length];
    if (next !== '>' && next !== '/' && next !== ' ' && next !== '\t' && next !== '\n' && next !== '\r') {
      at = start + open.length;
      continue;
    }
    const tagEnd = xml.indexOf('>', start);
    if (tagEnd === -1) return unreadable('a tag left open');
    if (tagEnd - start > MAX_TAG) return unreadable('a tag too long');
    const attrs = xml.slice(start + open.length, tagEnd);
    if (attrs.endsWith('/')) {
      yield { attrs, inner: '' };
      at = tagEnd + 1;
      continue;
    }
    const end = xml.indexOf(close, tagEnd);
    if (end === -1) return unreadable('an element left open');
    if (end - tagEnd > MAX_ELEMENT) return unreadable('an element too large');
    yield { attrs, inner: xml.slice(tagEnd + 1, end) };
    at = end + close.length;
  }
}

/**
 * The text of every <t> in an element (shared strings and inline strings may be split into runs); over MAX_CELL
 * characters it is read as empty, so a long string costs nothing more however many cells refer to it.
 */
const textOf = (xml: string) => {
  let out = '';
  for (const t of elements(xml, 't')) {
    out += decodeXml(t.inner);
    if (out.length > MAX_CELL) return '';
  }
  return out;
};

function sheetTable(xml: string, shared: string[], budget: Budget): Table {
  const table: Table = [];
  for (const { inner: rowXml } of elements(xml, 'row')) {
    if (table.length >= MAX_ROWS) unreadable('too many rows');
    const row: string[] = [];
    let next = 0;
    for (const cell of elements(rowXml, 'c')) {
      const ref = attr(cell.attrs, 'r');
      const index = ref ? columnIndex(ref) : next;
      if (index < 0 || index >= MAX_COLUMNS) continue;
      next = index + 1;
      const type = attr(cell.attrs, 't');
      const v = elements(cell.inner, 'v').next().value?.inner;
      let value = '';
      if (type === 's') value = shared[Number(v)] ?? '';
      else if (type === 'inlineStr') value = textOf(cell.inner);
      else if (v !== undefined) value = v.length > MAX_CELL * 8 ? '' : decodeXml(v);
      row[index] = budget.cell(value);
    }
    table.push(Array.from(row, (c) => c ?? ''));
  }
  return table;
}

/** Every sheet of a workbook by name, as tables of strings. */
export function readXlsx(buf: Buffer, budget: Budget = createBudget()): Map<string, Table> {
  const parts = createPartReader(buf);
  const workbook = parts.read('xl/workbook.xml');
  if (!workbook) return unreadable('no workbook');
  const rels = parts.read('xl/_rels/workbook.xml.rels') ?? '';
  const targets = new Map(
    [...elements(rels, 'Relationship')].map((r) => [attr(r.attrs, 'Id'), attr(r.attrs, 'Target') ?? '']),
  );
  const sharedXml = parts.read('xl/sharedStrings.xml');
  const shared: string[] = [];
  for (const si of sharedXml ? elements(sharedXml, 'si') : []) {
    if (shared.length >= MAX_SHARED) unreadable('too many strings');
    shared.push(textOf(si.inner));
  }
  const sheets = new Map<string, Table>();
  let count = 0;
  for (const sheet of elements(workbook, 'sheet')) {
    if (++count > MAX_SHEETS) unreadable('too many sheets');
    const name = decodeXml(attr(sheet.attrs, 'name') ?? '');
    const target = targets.get(attr(sheet.attrs, 'r:id'));
    if (!target) continue;
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    const xml = parts.read(path);
    if (xml) sheets.set(name, sheetTable(xml, shared, budget));
  }
  return sheets;
}

// ---------------------------------------------------------------------------------------------------------------

const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50;

/**
 * The readings in an export file (XLSX or CSV), and what it held that could not be used: daily new followers
 * without the "Total followers" line to count them from (`followersWithoutTotal`). UnreadableFile when it is
 * neither or holds no readings.
 */
export function readStatsExport(bytes: Buffer, maxMs = MAX_READ_MS): { readings: Reading[]; notes: StatsImportNote[] } {
  const budget = createBudget(maxMs);
  let readings: Reading[] = [];
  let newFollowersUnused = false;
  const add = (table: Table, serialDates: boolean) => {
    const read = readingsOf(table, serialDates, totalFollowersIn(table));
    // Not push(...all): a sheet's readings can outnumber the arguments a call may take.
    readings = readings.concat(read.readings);
    newFollowersUnused ||= read.newFollowersUnused;
  };
  if (isZip(bytes)) {
    for (const [, table] of readXlsx(bytes, budget)) add(table, true);
  } else {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    // A text file: no NUL bytes, mostly printable.
    if (text.includes('\u0000') || text.includes('\uFFFD')) unreadable('not text');
    add(parseCsv(text, budget), false);
  }
  if (!readings.length) unreadable('no readings');
  // One value per metric and day: the last one read wins.
  const byKey = new Map(readings.map((r) => [`${r.metric}:${r.day}`, r]));
  const kept = [...byKey.values()];
  // New followers are of no use only when no sheet gave the followers otherwise.
  const notes: StatsImportNote[] =
    newFollowersUnused && !kept.some((r) => r.metric === 'followers') ? ['followersWithoutTotal'] : [];
  return { readings: kept, notes };
}

/** The readings in an export file (readStatsExport without its notes). */
export function readStatsFile(bytes: Buffer, maxMs = MAX_READ_MS): Reading[] {
  return readStatsExport(bytes, maxMs).readings;
}
