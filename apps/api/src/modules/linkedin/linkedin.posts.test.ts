import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { walletOf } from '../../test/wallets.js';
import { isKnownTimeZone, localMinute } from '../../lib/time.js';
import { localToUtc, nextRun } from './linkedin.posts.time.js';

describe('local times in a time zone', () => {
  it('turn into the instant they name, in summer and in winter', () => {
    expect(localToUtc('2026-07-01T09:00', 'Europe/Paris')!.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(localToUtc('2026-01-15T09:00', 'Europe/Paris')!.toISOString()).toBe('2026-01-15T08:00:00.000Z');
    expect(localToUtc('2026-01-15T09:00', 'America/New_York')!.toISOString()).toBe('2026-01-15T14:00:00.000Z');
    expect(localToUtc('2026-01-15T09:00', 'Asia/Kolkata')!.toISOString()).toBe('2026-01-15T03:30:00.000Z');
    expect(localToUtc('2026-01-15T09:00', 'UTC')!.toISOString()).toBe('2026-01-15T09:00:00.000Z');
  });

  it('take a skipped time to the same time after the jump, and a repeated one at its first occurrence', () => {
    // Paris springs forward on 2026-03-29 at 02:00 → 03:00.
    expect(localToUtc('2026-03-29T02:30', 'Europe/Paris')!.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(localMinute(localToUtc('2026-03-29T02:30', 'Europe/Paris')!, 'Europe/Paris')).toBe('2026-03-29T03:30');
    // …and falls back on 2026-10-25 at 03:00 → 02:00: 02:30 happens twice, the first is taken.
    expect(localToUtc('2026-10-25T02:30', 'Europe/Paris')!.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('refuse dates that do not exist and zones nobody knows', () => {
    expect(localToUtc('2026-02-30T09:00', 'Europe/Paris')).toBeNull();
    expect(localToUtc('2026-13-01T09:00', 'UTC')).toBeNull();
    expect(localToUtc('2026-01-01T24:00', 'UTC')).toBeNull();
    expect(isKnownTimeZone('Europe/Paris')).toBe(true);
    for (const zone of ['Mars/Olympus', 'Europe/Paris; DROP', '', 'x'.repeat(100)])
      expect(isKnownTimeZone(zone)).toBe(false);
  });

  it('repeat at the same wall-clock time across daylight-saving changes', () => {
    const zone = 'Europe/Paris';
    // A daily 09:00 post the day before the clocks change: 08:00 UTC, then 07:00 UTC.
    const before = localToUtc('2026-03-28T09:00', zone)!;
    const next = nextRun(before, '09:00', zone, 'daily', before)!;
    expect(next.toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(localMinute(next, zone)).toBe('2026-03-29T09:00');
    // Weekly, across the autumn change in New York.
    const ny = localToUtc('2026-10-30T18:15', 'America/New_York')!;
    const week = nextRun(ny, '18:15', 'America/New_York', 'weekly', ny)!;
    expect(localMinute(week, 'America/New_York')).toBe('2026-11-06T18:15');
    expect(week.getTime() - ny.getTime()).toBe(7 * 86_400_000 + 3_600_000);
    // Runs missed while the server was stopped are skipped, not all published at once.
    const later = new Date(before.getTime() + 3.5 * 86_400_000);
    expect(localMinute(nextRun(before, '09:00', zone, 'daily', later)!, zone)).toBe('2026-04-01T09:00');
    expect(nextRun(before, '09:00', zone, 'none', before)).toBeNull();
    // A repeat ends with the years the database keeps.
    const last = localToUtc('9999-12-30T23:00', 'America/New_York')!;
    expect(nextRun(last, '23:00', 'America/New_York', 'daily', last)).toBeNull();
  });
});

let ai: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
beforeAll(async () => {
  ai = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: ai.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    RATE_LIMIT_PER_IP: '10000',
    AI_RATE_PER_USER: '10000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await ai.close();
});

/** A local date-time `days` from now in `zone`, as the form sends it. */
const inDays = (days: number, zone = 'Europe/Paris', time = '09:30') =>
  `${localMinute(new Date(Date.now() + days * 86_400_000), zone).slice(0, 10)}T${time}`;

describe('scheduling a post', () => {
  it('stores the instant of the local time, keeps the wall-clock time for repeats, and lists it', async () => {
    const me = await t.signUp();
    const scheduledFor = inDays(3);
    const res = await t.json('POST', '/api/linkedin/posts', {
      token: me.token,
      body: { text: 'Hello LinkedIn', scheduledFor, timezone: 'Europe/Paris', repeat: 'daily' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Post scheduled.');
    expect(res.body.data).toMatchObject({
      kind: 'post',
      status: 'Pending',
      dailyRun: true,
      text: 'Hello LinkedIn',
      timezone: 'Europe/Paris',
      repeat: 'daily',
      visibility: 'PUBLIC',
      postUrn: null,
      error: null,
    });
    expect(res.body.data.runAt).toBe(localToUtc(scheduledFor, 'Europe/Paris')!.toISOString());

    const list = await t.json('GET', `/api/mongo/automation/getAllAutomations?userId=${me.user.id}`, {
      token: me.token,
    });
    expect(list.body.data.automations.map((a: { automationId: string }) => a.automationId)).toEqual([
      res.body.data.automationId,
    ]);
  });

  it('refuses a time in the past and an unknown time zone with a localized 400', async () => {
    const me = await t.signUp();
    const past = await t.json('POST', '/api/linkedin/posts', {
      token: me.token,
      lang: 'fr',
      body: { text: 'x', scheduledFor: inDays(-1), timezone: 'Europe/Paris' },
    });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ code: 'SCHEDULE_IN_PAST', message: 'Choisissez une date et une heure à venir.' });
    const zone = await t.json('POST', '/api/linkedin/posts', {
      token: me.token,
      lang: 'es',
      body: { text: 'x', scheduledFor: inDays(1), timezone: 'Mars/Olympus' },
    });
    expect(zone.status).toBe(400);
    expect(zone.body).toMatchObject({ code: 'INVALID_TIMEZONE', message: 'No se reconoce esta zona horaria.' });
    // Within a year, said in the person's language. The last evening of year 9999 in New York is an instant of year
    // 10000, which the database does not keep: refused, never a 500.
    for (const scheduledFor of [inDays(400), '9999-12-31T23:00']) {
      const far = await t.json('POST', '/api/linkedin/posts', {
        token: me.token,
        lang: 'es',
        body: { text: 'x', scheduledFor, timezone: 'America/New_York' },
      });
      expect(far.status, scheduledFor).toBe(400);
      expect(far.body).toMatchObject({
        code: 'SCHEDULE_TOO_FAR',
        message: 'Elige una fecha dentro de los próximos 365 días.',
      });
    }
    for (const body of [
      { text: 'x', scheduledFor: '2026-02-30T09:00', timezone: 'UTC' },
      { text: 'x', scheduledFor: 'tomorrow', timezone: 'UTC' },
      { text: '', scheduledFor: inDays(1), timezone: 'UTC' },
      { text: 'x'.repeat(3001), scheduledFor: inDays(1), timezone: 'UTC' },
      { text: 'x', scheduledFor: inDays(1), timezone: 'UTC', repeat: 'hourly' },
      { text: 'x', scheduledFor: inDays(1), timezone: 'UTC', author: 'urn:li:person:someone' },
    ]) {
      const res = await t.json('POST', '/api/linkedin/posts', { token: me.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.json('GET', '/api/mongo/automation/getAllAutomations', { token: me.token })).body.data).toEqual({
      automations: [],
    });
  });

  it('is changed while it waits, by its owner only', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const { body } = await t.json('POST', '/api/linkedin/posts', {
      token: me.token,
      body: { text: 'First', scheduledFor: inDays(2), timezone: 'UTC' },
    });
    const id = body.data.automationId as string;
    const changed = await t.json('PUT', `/api/linkedin/posts/${id}`, {
      token: me.token,
      body: { text: 'Second', scheduledFor: inDays(4, 'UTC', '18:00'), timezone: 'UTC', visibility: 'CONNECTIONS' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ text: 'Second', visibility: 'CONNECTIONS' });
    expect(changed.body.data.runAt).toBe(`${inDays(4, 'UTC', '18:00')}:00.000Z`);
    const far = await t.json('PUT', `/api/linkedin/posts/${id}`, {
      token: me.token,
      body: { text: 'Third', scheduledFor: '9999-12-31T23:00', timezone: 'America/New_York' },
    });
    expect(far.status).toBe(400);
    expect(far.body.code).toBe('SCHEDULE_TOO_FAR');

    const theirs = await t.json('PUT', `/api/linkedin/posts/${id}`, {
      token: other.token,
      body: { text: 'Hijacked', scheduledFor: inDays(2), timezone: 'UTC' },
    });
    expect(theirs.status).toBe(404);
    expect((await t.json('PUT', `/api/linkedin/posts/not-a-uuid`, { token: me.token, body: {} })).status).toBe(400);

    // Completed (stopped): no longer editable.
    await t.json('POST', `/api/mongo/automation/updateAutomationStatus?automationId=${id}&automationStatus=Completed`, {
      token: me.token,
    });
    const late = await t.json('PUT', `/api/linkedin/posts/${id}`, {
      token: me.token,
      lang: 'fr',
      body: { text: 'Third', scheduledFor: inDays(2), timezone: 'UTC' },
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('AUTOMATION_NOT_EDITABLE');
  });
});

describe('writing a post from an idea', () => {
  it('asks the AI in the person’s language and tone, metered as a rewrite, and returns the text unsaved', async () => {
    const me = await t.signUp();
    const before = await walletOf(t.database.db, me.email);
    const res = await t.json('POST', '/api/linkedin/posts/write', {
      token: me.token,
      body: { idea: 'We shipped scheduled posts today', language: 'FRENCH', tone: 'FRIENDLY' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.text.length).toBeGreaterThan(0);
    expect(res.body.data.model).toBeTruthy();
    const sent = ai.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    const system = JSON.stringify(sent.messages.find((m) => m.role === 'system'));
    expect(system).toContain('french');
    expect(system).toContain('friendly');
    expect(JSON.stringify(sent.messages)).toContain('<idea>\\nWe shipped scheduled posts today\\n</idea>');
    const after = await walletOf(t.database.db, me.email);
    expect(after).not.toEqual(before);
    expect(
      (await t.json('GET', '/api/mongo/automation/getAllAutomations', { token: me.token })).body.data.automations,
    ).toEqual([]);
    const bad = await t.json('POST', '/api/linkedin/posts/write', { token: me.token, body: { idea: '' } });
    expect(bad.status).toBe(400);
  });
});
