import { randomBytes } from 'node:crypto';
import { STATS_IMPORT_DAYS } from '@parley/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedinStats } from '../../db/schema/index.js';
import { createZip } from '../../lib/zip.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { encodeForm } from '../../test/sse.js';
import { readStatsFile, UnreadableFile } from './linkedin.stats.import.js';
import { STATS_IMPORTS_PER_HOUR } from './linkedin.stats.routes.js';

// Stats: readings of the person's own pages (one per metric and day, a later one replaces it), their series, and the
// import of LinkedIn's analytics export (CSV or XLSX); a hostile file is refused with a message, never a 500.

const now = new Date('2026-11-25T12:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '100000' }, { clock: () => now });
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST', url: string, token: string, body?: unknown) =>
  t.json(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function upload(token: string, bytes: Uint8Array, name: string, type = 'application/octet-stream', lang = 'en') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const { payload, contentType } = await encodeForm(form);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/linkedin/stats/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'lang-type': lang },
    payload,
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A workbook as LinkedIn's "Content" export lays it out: shared strings, one sheet per table. */
async function contentWorkbook(sheets: Record<string, (string | number)[][]>, modified = new Date()) {
  const shared: string[] = [];
  const sharedIndex = (s: string) => {
    const at = shared.indexOf(s);
    if (at !== -1) return at;
    shared.push(s);
    return shared.length - 1;
  };
  const col = (i: number) => String.fromCharCode(65 + i);
  const sheetXml = (rows: (string | number)[][]) =>
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">` +
          row
            .map((v, c) =>
              typeof v === 'number'
                ? `<c r="${col(c)}${r + 1}"><v>${v}</v></c>`
                : `<c r="${col(c)}${r + 1}" t="s"><v>${sharedIndex(v)}</v></c>`,
            )
            .join('') +
          '</row>',
      )
      .join('') +
    '</sheetData></worksheet>';
  const names = Object.keys(sheets);
  const entries = names.map((name, i) => ({
    name: `xl/worksheets/sheet${i + 1}.xml`,
    data: Buffer.from(sheetXml(sheets[name]!)),
    modified,
  }));
  const workbook =
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
    names.map((n, i) => `<sheet name="${esc(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
    '</sheets></workbook>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    names
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join('') +
    '</Relationships>';
  const sharedXml = () =>
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}">` +
    shared.map((s) => `<si><t>${esc(s)}</t></si>`).join('') +
    '</sst>';
  return createZip([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types/>'), modified },
    { name: 'xl/workbook.xml', data: Buffer.from(workbook), modified },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(rels), modified },
    ...entries,
    { name: 'xl/sharedStrings.xml', data: Buffer.from(sharedXml()), modified },
  ]);
}

describe('readings of the person’s own pages', () => {
  it('one value per metric and day, a later reading replaces it; series over the days asked; latest values', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const save = await call('POST', '/api/linkedin/stats', me.token, {
      readings: [
        { metric: 'followers', value: 100, day: '2026-11-01' },
        { metric: 'followers', value: 120, day: '2026-11-24' },
        { metric: 'followers', value: 125 },
        { metric: 'ssiScore', value: 61.5 },
      ],
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    expect(save.body.data).toEqual({ saved: 4 });
    await call('POST', '/api/linkedin/stats', me.token, { readings: [{ metric: 'followers', value: 130 }] });
    const week = await call('GET', '/api/linkedin/stats?days=7', me.token);
    expect(week.body.data.series.followers).toEqual([
      { day: '2026-11-24', value: 120, source: 'page' },
      { day: '2026-11-25', value: 130, source: 'page' },
    ]);
    expect(week.body.data.latest).toMatchObject({
      followers: { day: '2026-11-25', value: 130 },
      ssiScore: { day: '2026-11-25', value: 61.5 },
      impressions: null,
    });
    expect((await call('GET', '/api/linkedin/stats', me.token)).body.data.series.followers).toHaveLength(3);
    const theirs = (await call('GET', '/api/linkedin/stats', other.token)).body.data;
    expect(theirs.series.followers).toEqual([]);
    expect(theirs.latest.followers).toBeNull();
    for (const body of [
      { readings: [{ metric: 'karma', value: 1 }] },
      { readings: [{ metric: 'followers', value: -1 }] },
      { readings: [{ metric: 'followers', value: 1, day: '2026-13-01' }] },
      { readings: [{ metric: 'followers', value: 1, day: '2026-11-27' }] },
      // No year 0 (PostgreSQL has none), nor days before 2000 (no LinkedIn stats, and rows without end).
      { readings: [{ metric: 'followers', value: 1, day: '0000-01-01' }] },
      { readings: [{ metric: 'followers', value: 1, day: '1700-01-01' }] },
      { readings: [{ metric: 'followers', value: 1, day: '1999-12-31' }] },
      { readings: [] },
    ]) {
      expect((await call('POST', '/api/linkedin/stats', me.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('GET', '/api/linkedin/stats?days=0', me.token)).status).toBe(400);
    const first = await call('POST', '/api/linkedin/stats', me.token, {
      readings: [{ metric: 'connections', value: 1, day: '2000-01-01' }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
  });
});

describe('the analytics export', () => {
  it('a simple CSV with a Date column and metric columns', async () => {
    const me = await t.signUp();
    const csv =
      '\uFEFFDate,Impressions,Reactions,Comments,Engagements\r\n' +
      '11/23/2026,"1,200",30,4,50\r\n' +
      '2026-11-24,900,20,2,31\r\n' +
      'not a date,1,1,1,1\r\n' +
      '11/26/2026,5,5,5,5\r\n';
    const res = await upload(me.token, Buffer.from(csv), 'stats.csv', 'text/csv');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ imported: 6, days: 2, notes: [] });
    const stats = (await call('GET', '/api/linkedin/stats?days=30', me.token)).body.data;
    expect(stats.series.impressions).toEqual([
      { day: '2026-11-23', value: 1200, source: 'import' },
      { day: '2026-11-24', value: 900, source: 'import' },
    ]);
    expect(stats.series.likes.map((p: { value: number }) => p.value)).toEqual([30, 20]);
  });

  it("LinkedIn's Content workbook (XLSX): engagement by day, followers from the total and the new followers", async () => {
    const me = await t.signUp();
    const xlsx = await contentWorkbook({
      DISCOVERY: [
        ['Overall Performance', '11/20/2026 - 11/22/2026'],
        ['Impressions', 3000],
      ],
      ENGAGEMENT: [
        ['Date', 'Impressions', 'Engagements'],
        ['11/20/2026', 1000, 40],
        ['11/21/2026', 800, 20],
        [46348, 1200, 60], // 2026-11-22 as Excel's day number
      ],
      FOLLOWERS: [
        ['Total followers on 11/22/2026:', 1234],
        [],
        ['Date', 'New followers'],
        ['11/20/2026', 4],
        ['11/21/2026', 6],
        ['11/22/2026', 10],
      ],
    });
    const res = await upload(me.token, xlsx, 'Content_2026.xlsx');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ imported: 6, days: 3, notes: [] });
    const stats = (await call('GET', '/api/linkedin/stats?days=30', me.token)).body.data;
    expect(stats.series.impressions.map((p: { day: string; value: number }) => [p.day, p.value])).toEqual([
      ['2026-11-20', 1000],
      ['2026-11-21', 800],
      ['2026-11-22', 1200],
    ]);
    expect(stats.series.followers.map((p: { day: string; value: number }) => [p.day, p.value])).toEqual([
      ['2026-11-20', 1218],
      ['2026-11-21', 1224],
      ['2026-11-22', 1234],
    ]);
    // Imported again, the same days are replaced, not added.
    expect((await upload(me.token, xlsx, 'again.xlsx')).body.data).toEqual({ imported: 6, days: 3, notes: [] });
    expect((await call('GET', '/api/linkedin/stats?days=30', me.token)).body.data.series.followers).toHaveLength(3);
  });

  it('says when new followers came without the "Total followers" line to count them from', async () => {
    const me = await t.signUp();
    const xlsx = await contentWorkbook({
      ENGAGEMENT: [
        ['Date', 'Impressions'],
        ['11/20/2026', 1000],
      ],
      FOLLOWERS: [
        ['Date', 'New followers'],
        ['11/20/2026', 4],
        ['11/21/2026', 6],
      ],
    });
    const res = await upload(me.token, xlsx, 'Content_2026.xlsx');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ imported: 1, days: 1, notes: ['followersWithoutTotal'] });
    expect((await call('GET', '/api/linkedin/stats?days=30', me.token)).body.data.series.followers).toEqual([]);

    // The same in a CSV; a followers column besides makes the new followers unneeded: no note.
    const csv = 'Date,Impressions,New followers\n2026-11-20,5,3\n';
    expect((await upload(me.token, Buffer.from(csv), 'stats.csv', 'text/csv')).body.data.notes).toEqual([
      'followersWithoutTotal',
    ]);
    const withTotal = 'Date,Followers,New followers\n2026-11-20,120,3\n';
    expect((await upload(me.token, Buffer.from(withTotal), 'stats.csv', 'text/csv')).body.data).toEqual({
      imported: 1,
      days: 1,
      notes: [],
    });
  });

  it('hostile files are refused with a message: not a table, a zip bomb, a huge sheet, too large, none', async () => {
    const me = await t.signUp();
    const refusedAs = async (bytes: Uint8Array, name: string, status = 400, code = 'STATS_FILE_UNREADABLE') => {
      const res = await upload(me.token, bytes, name, 'application/octet-stream', 'fr');
      expect(res.status, name).toBe(status);
      expect(res.body.code, name).toBe(code);
      expect(res.body.message.length, name).toBeGreaterThan(10);
    };
    await refusedAs(randomBytes(4096), 'noise.xlsx');
    await refusedAs(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'picture.png');
    await refusedAs(Buffer.from('Name,Value\nx,1\n'), 'no-dates.csv');
    await refusedAs(Buffer.from('Date,Impressions\n'), 'header-only.csv');
    // A zip bomb: a sheet of 30 MB of spaces deflated to a few kilobytes.
    const padded = await createZip([
      {
        name: 'xl/workbook.xml',
        data: Buffer.from('<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>'),
        modified: new Date(),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
        modified: new Date(),
      },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(30 * 1024 * 1024, 0x20), modified: new Date() },
    ]);
    expect(padded.length).toBeLessThan(200_000);
    await refusedAs(padded, 'bomb.xlsx');
    // A sheet with a row left open, and a CSV of too many lines.
    const open = await createZip([
      {
        name: 'xl/workbook.xml',
        data: Buffer.from('<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>'),
        modified: new Date(),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
        modified: new Date(),
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: Buffer.from('<sheetData>' + '<row><c><v>1</v></c>'.repeat(50_000)),
        modified: new Date(),
      },
    ]);
    await refusedAs(open, 'open.xlsx');
    await refusedAs(Buffer.from('Date,Impressions\n' + '2026-11-01,1\n'.repeat(25_000)), 'long.csv');
    await refusedAs(Buffer.alloc(5 * 1024 * 1024 + 1, 0x41), 'big.csv', 413, 'FILE_TOO_LARGE');

    const form = new FormData();
    form.append('other', 'x');
    const { payload, contentType } = await encodeForm(form);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/linkedin/stats/import',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': contentType },
      payload,
    });
    expect(empty.statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/linkedin/stats/import',
      headers: { 'content-type': contentType },
      payload,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await call('GET', '/api/linkedin/stats', me.token)).body.data.latest.impressions).toBeNull();
  });
});

/** Milliseconds `fn` takes, and what it returned or threw. */
const timed = <T>(fn: () => T) => {
  const start = performance.now();
  let result: T | Error;
  try {
    result = fn();
  } catch (error) {
    result = error as Error;
  }
  return { ms: performance.now() - start, result };
};

/** A workbook of one sheet, its XML given as is, with shared strings given as is. */
const rawWorkbook = (sheetXml: string, sharedXml: string) =>
  createZip([
    {
      name: 'xl/workbook.xml',
      data: Buffer.from('<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>'),
      modified: new Date(),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
      modified: new Date(),
    },
    { name: 'xl/sharedStrings.xml', data: Buffer.from(`<sst>${sharedXml}</sst>`), modified: new Date() },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(`<sheetData>${sheetXml}</sheetData>`), modified: new Date() },
  ]);

describe('files made to be slow to read are read in bounded time', () => {
  it('a 250 KB shared string referred to by every cell costs nothing: a cell over 1 KB is empty', async () => {
    const shared = `<si><t>${'1'.repeat(250 * 1024)}</t></si><si><t>Date</t></si><si><t>Impressions</t></si>`;
    const header = '<row><c t="s"><v>1</v></c>' + '<c t="s"><v>2</v></c>'.repeat(59) + '</row>';
    const rows = ('<row><c><v>45000</v></c>' + '<c t="s"><v>0</v></c>'.repeat(59) + '</row>').repeat(300);
    const xlsx = await rawWorkbook(header + rows, shared);
    expect(xlsx.length).toBeLessThan(10_000);
    const { ms, result } = timed(() => readStatsFile(xlsx));
    expect(ms).toBeLessThan(1_000);
    expect(result).toBeInstanceOf(UnreadableFile); // every value is the long string, read as empty: no readings
    const me = await t.signUp();
    const res = await upload(me.token, xlsx, 'slow.xlsx');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('STATS_FILE_UNREADABLE');
    // The same in a CSV: the long cell is empty, the others are read.
    const csv = `Date,Impressions,Comments\n2026-11-20,${'1'.repeat(2_000)},5\n`;
    expect(readStatsFile(Buffer.from(csv))).toEqual([{ metric: 'comments', day: '2026-11-20', value: 5 }]);
  });

  it('lines that made a regular expression backtrack: the total of followers, a header with parentheses', () => {
    const followers = timed(() =>
      readStatsFile(Buffer.from(`${'total followers '.repeat(32_000)}\nDate,Impressions\n2026-11-20,5\n`)),
    );
    expect(followers.ms).toBeLessThan(1_000);
    expect(followers.result).toEqual([{ metric: 'impressions', day: '2026-11-20', value: 5 }]);
    // Within the cell limit: 60 cells of nearly 1 KB each, none with a colon.
    const cells = Array.from({ length: 60 }, () => 'total followers '.repeat(63)).join(',');
    const wide = timed(() => readStatsFile(Buffer.from(`${cells}\nDate,Impressions\n2026-11-20,5\n`)));
    expect(wide.ms).toBeLessThan(1_000);
    expect(wide.result).toEqual([{ metric: 'impressions', day: '2026-11-20', value: 5 }]);
    const header = timed(() => readStatsFile(Buffer.from(`Date,${'('.repeat(40_000)}\n2026-11-20,5\n`)));
    expect(header.ms).toBeLessThan(1_000);
    expect(header.result).toBeInstanceOf(UnreadableFile);
    // A header's trailing "(…)" is still dropped; the total after its colon still read.
    expect(
      readStatsFile(
        Buffer.from('Total followers on 11/22/2026: 1,234\nDate,Impressions (total),New followers\n11/22/2026,7,3\n'),
      ),
    ).toEqual([
      { metric: 'impressions', day: '2026-11-22', value: 7 },
      { metric: 'followers', day: '2026-11-22', value: 1234 },
    ]);
  });

  it('a file of too many cells, or one that takes too long, is refused', () => {
    const many = 'Date' + ',Impressions'.repeat(19) + '\n' + ('2026-11-01' + ',1'.repeat(19) + '\n').repeat(16_000);
    expect(timed(() => readStatsFile(Buffer.from(many))).result).toBeInstanceOf(UnreadableFile);
    // With no time left, reading stops at the first look at the clock.
    const rows = 'Date,Impressions\n' + '2026-11-01,1\n'.repeat(2_000);
    expect(readStatsFile(Buffer.from(rows))).toHaveLength(1);
    expect(timed(() => readStatsFile(Buffer.from(rows), -1)).result).toBeInstanceOf(UnreadableFile);
  });
});

describe('large files within the bounds', () => {
  it('a sheet of 270,000 readings is read (not passed as the arguments of one call)', async () => {
    const header = '<row><c t="s"><v>0</v></c>' + '<c t="s"><v>1</v></c>'.repeat(15) + '</row>';
    const row = '<row><c><v>46346</v></c>' + '<c><v>7</v></c>'.repeat(15) + '</row>';
    const xlsx = await rawWorkbook(header + row.repeat(18_000), '<si><t>Date</t></si><si><t>Impressions</t></si>');
    expect(readStatsFile(xlsx)).toEqual([{ metric: 'impressions', day: '2026-11-20', value: 7 }]);
  });
});

describe('imports are bounded', () => {
  it(`a file of every day since 2000 keeps the last ${STATS_IMPORT_DAYS} days`, async () => {
    const me = await t.signUp();
    const metrics = 'Followers,Connections,Posts,Impressions,Reactions,Comments,Profile viewers,SSI';
    const lines = [`Date,${metrics}`];
    for (let d = new Date('2000-01-01T00:00:00Z'); d <= now; d.setUTCDate(d.getUTCDate() + 1))
      lines.push(`${d.toISOString().slice(0, 10)},1,2,3,4,5,6,7,8`);
    expect(lines.length).toBeGreaterThan(9_000);
    const res = await upload(me.token, Buffer.from(lines.join('\n')), 'everything.csv', 'text/csv');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ imported: STATS_IMPORT_DAYS * 8, days: STATS_IMPORT_DAYS, notes: [] });
    const rows = await t.database.db.select().from(linkedinStats).where(eq(linkedinStats.userId, me.user.id));
    expect(rows).toHaveLength(STATS_IMPORT_DAYS * 8);
    expect(rows.map((r) => r.day).sort()[0]).toBe('2025-10-22'); // 2026-11-25 and the 399 days before it
  });

  it(`${STATS_IMPORTS_PER_HOUR} imports an hour per person; one file of at most 5 MB per request`, async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const csv = Buffer.from('Date,Impressions\n2026-11-20,5\n');
    // More files than the route takes: refused before a second is read (not the 5 files of other uploads).
    const form = new FormData();
    for (let i = 0; i < 6; i++) form.append('file', new Blob([csv]), `s${i}.csv`);
    const { payload, contentType } = await encodeForm(form);
    const several = await t.app.inject({
      method: 'POST',
      url: '/api/linkedin/stats/import',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': contentType },
      payload,
    });
    expect(several.statusCode).toBe(400);
    expect(several.json().code).toBe('STATS_FILE_UNREADABLE');
    for (let i = 1; i < STATS_IMPORTS_PER_HOUR; i++) expect((await upload(me.token, csv, 'a.csv')).status).toBe(200);
    const over = await upload(me.token, csv, 'a.csv');
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('TOO_MANY_REQUESTS');
    expect((await upload(other.token, csv, 'a.csv')).status).toBe(200);
  });
});
