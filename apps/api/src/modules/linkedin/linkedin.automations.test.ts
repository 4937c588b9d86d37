import { and, eq } from 'drizzle-orm';
import { POSTS_SCHEDULED_MAX } from '@parley/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, automations, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { FINISHED_POSTS_KEPT } from './linkedin.automations.queries.js';
import { localMinute } from '../../lib/time.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: '10000' });
});
afterAll(() => t.close());

const tomorrow = () => localMinute(new Date(Date.now() + 86_400_000), 'UTC');
async function schedule(token: string, repeat = 'none') {
  const res = await t.json('POST', '/api/linkedin/posts', {
    token,
    body: { text: 'A post of mine', scheduledFor: tomorrow(), timezone: 'UTC', repeat },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.automationId as string;
}
const A = '/api/mongo/automation';

describe('the automations of spec §7', () => {
  it('answer another person’s automation 404 on every route, whatever userId says, and change nothing', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const id = await schedule(me.token, 'daily');
    const before = (await t.database.db.select().from(automations).where(eq(automations.id, id)))[0];

    const attempts = [
      t.json('POST', `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Completed&userId=${me.user.id}`, {
        token: other.token,
      }),
      t.json('POST', `${A}/disableDailyRunAutomation?automationId=${id}&userId=${me.user.id}`, { token: other.token }),
      t.json('DELETE', `${A}/delete-automation?automationId=${id}&userId=${me.user.id}`, { token: other.token }),
      t.json('PUT', `/api/linkedin/posts/${id}`, {
        token: other.token,
        body: { text: 'x', scheduledFor: tomorrow(), timezone: 'UTC' },
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    // Their list is theirs, even when it names someone else.
    const list = await t.json('GET', `${A}/getAllAutomations?userId=${me.user.id}`, { token: other.token });
    expect(list.body.data.automations).toEqual([]);
    const after = (await t.database.db.select().from(automations).where(eq(automations.id, id)))[0];
    expect(after).toEqual(before);

    for (const url of [
      `${A}/getAllAutomations`,
      `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Completed`,
    ]) {
      const method = url.includes('getAll') ? 'GET' : 'POST';
      expect((await t.json(method, url)).status).toBe(401);
    }
  });

  it('set status, disable the daily run and delete the caller’s own, with localized messages', async () => {
    const me = await t.signUp();
    const id = await schedule(me.token, 'weekly');

    const stop = await t.json('POST', `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Completed`, {
      token: me.token,
      lang: 'fr',
    });
    expect(stop.status).toBe(200);
    expect(stop.body.message).toBe('Automatisation mise à jour.');
    expect(stop.body.data).toMatchObject({ status: 'Completed', runAt: null });

    // Resumed: at its next weekly time after now.
    const resume = await t.json('POST', `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Pending`, {
      token: me.token,
    });
    expect(resume.body.data.status).toBe('Pending');
    expect(new Date(resume.body.data.runAt).getTime()).toBeGreaterThan(Date.now());

    const error = await t.json('POST', `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Error`, {
      token: me.token,
    });
    expect(error.status).toBe(400);
    for (const url of [
      `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Paused`,
      `${A}/updateAutomationStatus?automationId=not-a-uuid&automationStatus=Completed`,
      `${A}/disableDailyRunAutomation`,
    ]) {
      expect((await t.json('POST', url, { token: me.token })).status).toBe(400);
    }

    const daily = await t.json('POST', `${A}/disableDailyRunAutomation?automationId=${id}`, { token: me.token });
    expect(daily.body.data.dailyRun).toBe(false);

    const deleted = await t.json('DELETE', `${A}/delete-automation?automationId=${id}`, {
      token: me.token,
      lang: 'es',
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ message: 'Automatización eliminada.', data: { deleted: 1 } });
    expect((await t.json('DELETE', `${A}/delete-automation?automationId=${id}`, { token: me.token })).status).toBe(404);
  });

  it('are paced: past 60 changes a minute a person is asked to wait', async () => {
    const me = await t.signUp();
    const id = await schedule(me.token);
    let last = 0;
    for (let i = 0; i < 61 && last !== 429; i++) {
      last = (await t.json('POST', `${A}/disableDailyRunAutomation?automationId=${id}`, { token: me.token })).status;
    }
    expect(last).toBe(429);
    const other = await t.signUp();
    expect((await t.json('GET', `${A}/getAllAutomations`, { token: other.token })).status).toBe(200);
  });

  it('list a keyword’s daily engagement run with its keyword', async () => {
    const me = await t.signUp();
    const kw = await t.json('POST', '/api/linkedin/keywords', { token: me.token, body: { keyword: 'product design' } });
    expect(kw.status, JSON.stringify(kw.body)).toBe(200);
    // Its daily run (made when auto-engage is on).
    await t.database.db
      .insert(automations)
      .values({ userId: me.user.id, kind: 'aiComment', keywordId: kw.body.data.id, dailyRun: true, runAt: new Date() });
    const list = await t.json('GET', `${A}/getAllAutomations`, { token: me.token });
    const runs = (list.body.data.automations as { kind: string; keyword: string | null }[]).filter(
      (a) => a.kind === 'aiComment',
    );
    expect(runs.map((r) => r.keyword)).toEqual(['product design']);

    // Disabling its daily run stops it: no next time.
    const id = (list.body.data.automations as { kind: string; automationId: string }[]).find(
      (a) => a.kind === 'aiComment',
    )!.automationId;
    const daily = await t.json('POST', `${A}/disableDailyRunAutomation?automationId=${id}`, { token: me.token });
    expect(daily.status).toBe(200);
    expect(daily.body.data).toMatchObject({ dailyRun: false, runAt: null });
    const [row] = await t.database.db.select().from(automations).where(eq(automations.id, id));
    expect(row).toMatchObject({ dailyRun: false, runAt: null });
  });

  it('are deleted by a site admin (recorded in the audit log), and by no one else through the admin route', async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id));
    const id = await schedule(owner.token);

    const refused = await t.json('POST', `/api/admin/deleteAutomation?automationId=${id}`, { token: owner.token });
    expect(refused.status).toBe(403);

    const res = await t.json('POST', `/api/admin/deleteAutomation?automationId=${id}`, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ deleted: 1 });
    expect((await t.json('GET', `${A}/getAllAutomations`, { token: owner.token })).body.data.automations).toEqual([]);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'automation.delete'));
    expect(entry).toMatchObject({ actorId: admin.user.id, targetUserId: owner.user.id });
    expect(entry!.before).toMatchObject({ automationId: id, kind: 'post' });

    const again = await t.json('POST', `/api/admin/deleteAutomation?automationId=${id}`, { token: admin.token });
    expect(again.status).toBe(404);
  });

  it('resume a published repeating post whose daily run is off at its next time, never at once', async () => {
    const me = await t.signUp();
    for (const status of ['Completed', 'Error'] as const) {
      const id = await schedule(me.token, 'daily');
      // Its wall-clock time comes round in two hours. Published once, its daily run turned off, then stopped (or
      // its last run failed).
      const localTime = localMinute(new Date(Date.now() + 2 * 3_600_000), 'UTC').slice(11);
      await t.database.db
        .update(automations)
        .set({
          status,
          localTime,
          runs: 1,
          dailyRun: false,
          runAt: null,
          postUrn: 'urn:li:share:9',
          publishedAt: new Date(),
        })
        .where(eq(automations.id, id));
      const before = Date.now();
      const res = await t.json('POST', `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Pending`, {
        token: me.token,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const runAt = new Date(res.body.data.runAt);
      expect(runAt.getTime() - before, status).toBeGreaterThan(3_600_000);
      expect(localMinute(runAt, 'UTC').slice(11), status).toBe(localTime);
      expect(res.body.data).toMatchObject({ status: 'Pending', dailyRun: false, postUrn: 'urn:li:share:9' });
    }
  });

  it('count a resumed post against the posts a person may have waiting', async () => {
    const me = await t.signUp();
    const id = await schedule(me.token);
    await t.database.db.update(automations).set({ status: 'Completed', runAt: null }).where(eq(automations.id, id));
    const runAt = new Date(Date.now() + 86_400_000);
    await t.database.db.insert(automations).values(
      Array.from({ length: POSTS_SCHEDULED_MAX }, () => ({
        userId: me.user.id,
        kind: 'post' as const,
        text: 'Waiting',
        runAt,
        localTime: '09:00',
        timezone: 'UTC',
      })),
    );
    const res = await t.json('POST', `${A}/updateAutomationStatus?automationId=${id}&automationStatus=Pending`, {
      token: me.token,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TOO_MANY_ITEMS');
    const [row] = await t.database.db.select().from(automations).where(eq(automations.id, id));
    expect(row!.status).toBe('Completed');
  });

  it('keep a person’s newest finished posts: scheduling one deletes the oldest past the cap', async () => {
    const me = await t.signUp();
    const other = await t.signUp();
    const base = Date.now() - 30 * 86_400_000;
    const finished = (userId: string) =>
      Array.from({ length: FINISHED_POSTS_KEPT + 10 }, (_, i) => ({
        userId,
        kind: 'post' as const,
        status: (i % 2 ? 'Completed' : 'Error') as 'Completed' | 'Error',
        text: `Old ${i}`,
        updatedAt: new Date(base + i * 60_000),
      }));
    await t.database.db.insert(automations).values([...finished(me.user.id), ...finished(other.user.id)]);
    const waiting = await schedule(me.token);
    const mine = await t.database.db.select().from(automations).where(eq(automations.userId, me.user.id));
    const done = mine.filter((r) => r.status !== 'Pending');
    expect(done).toHaveLength(FINISHED_POSTS_KEPT);
    // The oldest ten went; the pending post stays.
    expect(done.map((r) => r.text).sort()).toEqual(
      Array.from({ length: FINISHED_POSTS_KEPT }, (_, i) => `Old ${i + 10}`).sort(),
    );
    expect(mine.some((r) => r.id === waiting && r.status === 'Pending')).toBe(true);
    // Someone else's are theirs.
    const theirs = await t.database.db
      .select()
      .from(automations)
      .where(and(eq(automations.userId, other.user.id), eq(automations.kind, 'post')));
    expect(theirs).toHaveLength(FINISHED_POSTS_KEPT + 10);
  });
});
