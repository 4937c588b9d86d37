import { eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automations } from '../../db/schema/index.js';
import { openDatabase } from '../../db/client.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createPostgresTestDatabase } from '../../test/database.js';
import { startFakeLinkedin, type FakeLinkedin } from '../../test/fake-linkedin.js';
import * as q from './linkedin.automations.queries.js';
import { READBACK_GRACE_MS, READBACK_RETRY_MS } from './linkedin.scheduler.publisher.js';
import { createInProcessScheduler, createPgBossScheduler } from './linkedin.scheduler.js';
import { localMinute } from '../../lib/time.js';

let fake: FakeLinkedin;
let t: TestApp;
/** Tests move time forward; the app and the loopback LinkedIn share the clock. */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const advance = (ms: number) => (offsetMs += ms);

beforeAll(async () => {
  fake = await startFakeLinkedin({ clock });
  t = await createTestApp({ ...fake.env(), RATE_LIMIT_PER_IP: '10000' }, { clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const publisher = () => t.app.services.linkedin.publisher;

async function connectedUser() {
  const me = await t.signUp();
  const start = await t.json('POST', '/api/linkedin/connect', { token: me.token });
  const res = await fetch(`${start.body.data.url}&format=json`);
  const back = new URL(((await res.json()) as { redirect: string }).redirect);
  const done = await t.json('POST', '/api/linkedin/callback', {
    token: me.token,
    body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(done.body.data.state).toBe('connected');
  return me;
}

let counter = 0;
/** Schedules a post an hour ahead (UTC), returns its id and text. */
async function schedule(token: string, extra: Record<string, unknown> = {}) {
  counter += 1;
  const text = `Scheduled post ${counter} (${Math.random().toString(36).slice(2)}) #parley`;
  const scheduledFor = localMinute(new Date(clock().getTime() + 3_600_000), 'UTC');
  const res = await t.json('POST', '/api/linkedin/posts', {
    token,
    body: { text, scheduledFor, timezone: 'UTC', ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.data.automationId as string, text, runAt: new Date(res.body.data.runAt as string) };
}

const rowOf = async (id: string) => (await t.database.db.select().from(automations).where(eq(automations.id, id)))[0]!;
const publishedWith = (text: string) => fake.posts.filter((p) => p.commentary === escape(text));
const escape = (text: string) => text.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`);
const creates = () => fake.count('POST /rest/posts');
/** The person sets a stopped post Pending again. */
const resume = (token: string, id: string) =>
  t.json('POST', `/api/mongo/automation/updateAutomationStatus?automationId=${id}&automationStatus=Pending`, {
    token,
  });
/** Moves time to just after `runAt`. */
const reach = (runAt: Date) => {
  const gap = runAt.getTime() - clock().getTime();
  if (gap > 0) advance(gap + 1_000);
};

describe('publishing scheduled posts', () => {
  it('waits for the time, then publishes once as the member, with LinkedIn’s headers', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { visibility: 'CONNECTIONS' });
    expect(await publisher().runOne(post.id, 'w1')).toBe('skipped'); // not due yet
    reach(post.runAt);
    expect(await publisher().runOne(post.id, 'w1')).toBe('published');
    const [sent] = publishedWith(post.text);
    expect(sent).toMatchObject({ author: `urn:li:person:${fake.member.sub}`, visibility: 'CONNECTIONS' });
    expect(sent!.version).toMatch(/^\d{6}$/);

    const list = await t.json('GET', '/api/mongo/automation/getAllAutomations', { token: me.token });
    expect(list.body.data.automations[0]).toMatchObject({
      automationId: post.id,
      status: 'Completed',
      postUrn: sent!.id,
      postUrl: `https://www.linkedin.com/feed/update/${encodeURIComponent(sent!.id)}/`,
      runAt: null,
      error: null,
    });
    expect(list.body.data.automations[0].publishedAt).toBeTruthy();
    expect(await publisher().runOne(post.id, 'w2')).toBe('skipped');
    // Published once: it cannot be set Pending again (that would publish it twice) nor changed.
    const resume = await t.json(
      'POST',
      `/api/mongo/automation/updateAutomationStatus?automationId=${post.id}&automationStatus=Pending`,
      { token: me.token },
    );
    expect(resume.status).toBe(400);
    expect(resume.body.code).toBe('AUTOMATION_NOT_EDITABLE');
    expect(publishedWith(post.text)).toHaveLength(1);
  });

  it('publishes once when workers race for the same due post', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token);
    reach(post.runAt);
    const before = creates();
    fake.delayMs = 150; // the winner is still talking to LinkedIn while the others look
    try {
      const outcomes = await Promise.all([
        publisher().runOne(post.id, 'a'),
        publisher().runOne(post.id, 'b'),
        publisher().runDue('c'),
        publisher().runDue('d'),
        publisher().runOne(post.id, 'e'),
      ]);
      expect(outcomes.flat().filter((o) => o === 'published')).toHaveLength(1);
    } finally {
      fake.delayMs = 0;
    }
    expect(creates() - before).toBe(1);
    expect(publishedWith(post.text)).toHaveLength(1);
    expect((await rowOf(post.id)).status).toBe('Completed');
  });

  it('reads back a post LinkedIn accepted but whose answer was lost, and does not publish it twice', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token);
    reach(post.runAt);
    const before = creates();
    fake.dropNextAnswer();
    expect(await publisher().runOne(post.id, 'w1')).toBe('retryLater');
    const inDoubt = await rowOf(post.id);
    expect(inDoubt).toMatchObject({ status: 'Pending', lockedBy: null });
    expect(inDoubt.dedupeKey).toMatch(new RegExp(`^${post.id}:0:`));
    expect(inDoubt.attemptStartedAt).not.toBeNull();
    // Nobody touches it until its read-back time…
    expect(await publisher().runDue('w2')).toEqual([]);
    advance(READBACK_RETRY_MS + 1_000);
    // …then the next worker finds the dedupe key without an outcome and reads back instead of posting.
    expect(await publisher().runDue('w2')).toEqual(['found']);
    expect(creates() - before).toBe(1);
    const [sent] = publishedWith(post.text);
    expect(await rowOf(post.id)).toMatchObject({ status: 'Completed', postUrn: sent!.id, dedupeKey: null, runs: 1 });
    expect(publishedWith(post.text)).toHaveLength(1);
  });

  it('ends in Error, without posting again, when an unclear attempt is not found after the grace period', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token);
    reach(post.runAt);
    const before = creates();
    fake.failNext(503, '/rest/posts'); // LinkedIn's server failed: the post may or may not exist (here: not)
    expect(await publisher().runOne(post.id, 'w1')).toBe('retryLater');
    advance(READBACK_RETRY_MS + 1_000);
    expect(await publisher().runDue('w1')).toEqual(['retryLater']);
    advance(READBACK_GRACE_MS);
    expect(await publisher().runDue('w1')).toEqual(['error']);
    expect(creates() - before).toBe(1);
    expect(publishedWith(post.text)).toHaveLength(0);
    const row = await rowOf(post.id);
    expect(row).toMatchObject({ status: 'Error', error: 'LINKEDIN_UNCONFIRMED', dedupeKey: null, runAt: null });
    // The attempt stays on the row: the post may be on LinkedIn.
    expect(row.attemptStartedAt).not.toBeNull();
    advance(3_600_000);
    expect(await publisher().runDue('w1')).toEqual([]);

    // Resumed by the person: looked for once more (not there), then published, once.
    expect((await resume(me.token, post.id)).status).toBe(200);
    expect(await publisher().runDue('w1')).toEqual(['published']);
    expect(creates() - before).toBe(2);
    expect(publishedWith(post.text)).toHaveLength(1);
    expect(await rowOf(post.id)).toMatchObject({ status: 'Completed', runs: 1, attemptStartedAt: null });
  });

  it('does not post twice a post LinkedIn published but never confirmed, when the person resumes it', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token);
    reach(post.runAt);
    const before = creates();
    fake.dropNextAnswer(); // created on LinkedIn, the answer lost
    expect(await publisher().runOne(post.id, 'w1')).toBe('retryLater');
    // Every read-back fails until the grace period is over: Error, in doubt.
    for (let i = 0; i < 20 && (await rowOf(post.id)).status === 'Pending'; i++) {
      advance(READBACK_RETRY_MS + 1_000);
      fake.failNext(503, '/rest/posts');
      await publisher().runDue('w1');
    }
    const inDoubt = await rowOf(post.id);
    expect(inDoubt).toMatchObject({ status: 'Error', error: 'LINKEDIN_UNCONFIRMED', runs: 0, dedupeKey: null });
    expect(publishedWith(post.text)).toHaveLength(1);

    // The person resumes it: LinkedIn cannot say yet (a server error), so nothing is sent…
    expect((await resume(me.token, post.id)).status).toBe(200);
    fake.failNext(503, '/rest/posts');
    expect(await publisher().runDue('w1')).toEqual(['retryLater']);
    expect(creates() - before).toBe(1);
    // …then it is found there: Completed with that post, never created again.
    advance(READBACK_RETRY_MS + 1_000);
    expect(await publisher().runDue('w1')).toEqual(['found']);
    const [sent] = publishedWith(post.text);
    expect(await rowOf(post.id)).toMatchObject({ status: 'Completed', postUrn: sent!.id, runs: 1, error: null });
    expect(creates() - before).toBe(1);
    expect(publishedWith(post.text)).toHaveLength(1);
  });

  it('posts a repeat’s next time when it is resumed after a run left in doubt', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { repeat: 'daily' });
    reach(post.runAt);
    const before = creates();
    fake.dropNextAnswer();
    expect(await publisher().runOne(post.id, 'w1')).toBe('retryLater');
    for (let i = 0; i < 20 && (await rowOf(post.id)).status === 'Pending'; i++) {
      advance(READBACK_RETRY_MS + 1_000);
      fake.failNext(503, '/rest/posts');
      await publisher().runDue('w1');
    }
    expect(await rowOf(post.id)).toMatchObject({ status: 'Error', error: 'LINKEDIN_UNCONFIRMED' });
    // Resumed: it runs at its next time, and that time's post is sent (the earlier one is not taken for it).
    expect((await resume(me.token, post.id)).status).toBe(200);
    const resumed = await rowOf(post.id);
    expect(resumed.attemptStartedAt).toBeNull();
    reach(resumed.runAt!);
    expect(await publisher().runDue('w1')).toEqual(['published']);
    expect(creates() - before).toBe(2);
  });

  it('ends in Error login needed when the token expired or LinkedIn refuses it, without a post', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token);
    const before = creates();
    // Revoked at LinkedIn (the member removed the app): LinkedIn answers 401.
    fake.expireTokens();
    reach(post.runAt);
    expect(await publisher().runOne(post.id, 'w1')).toBe('error');
    expect(await rowOf(post.id)).toMatchObject({ status: 'Error', error: 'LINKEDIN_LOGIN_NEEDED' });
    expect(creates() - before).toBe(1);
    const connection = await t.json('GET', '/api/linkedin/connection', { token: me.token });
    expect(connection.body.data.state).toBe('loginNeeded');

    // Expired here: LinkedIn is not even asked.
    const again = await schedule(me.token);
    reach(again.runAt);
    expect(await publisher().runOne(again.id, 'w1')).toBe('error');
    expect(await rowOf(again.id)).toMatchObject({ status: 'Error', error: 'LINKEDIN_LOGIN_NEEDED' });
    expect(creates() - before).toBe(1);

    // Never connected.
    const stranger = await t.signUp();
    const theirs = await schedule(stranger.token);
    reach(theirs.runAt);
    expect(await publisher().runOne(theirs.id, 'w1')).toBe('error');
    expect(await rowOf(theirs.id)).toMatchObject({ status: 'Error', error: 'LINKEDIN_NOT_CONNECTED' });
  });

  it('ends in Error when LinkedIn refuses the post, and tries again later when it cannot be reached', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token);
    reach(post.runAt);
    fake.failNext(422, '/rest/posts');
    expect(await publisher().runOne(post.id, 'w1')).toBe('error');
    expect(await rowOf(post.id)).toMatchObject({ status: 'Error', error: 'LINKEDIN_ERROR' });

    // The person resumes it: it runs again, under a new key, at once (its time is past).
    const resumed = await t.json(
      'POST',
      `/api/mongo/automation/updateAutomationStatus?automationId=${post.id}&automationStatus=Pending`,
      { token: me.token },
    );
    expect(resumed.body.data).toMatchObject({ status: 'Pending', error: null });
    expect(await publisher().runOne(post.id, 'w1')).toBe('published');
    expect(publishedWith(post.text)).toHaveLength(1);
  });

  it('repeats at the same time the next day until the daily run is disabled', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { repeat: 'daily' });
    reach(post.runAt);
    expect(await publisher().runOne(post.id, 'w1')).toBe('published');
    const first = await rowOf(post.id);
    expect(first).toMatchObject({ status: 'Pending', runs: 1 });
    expect(first.runAt!.getTime() - post.runAt.getTime()).toBe(86_400_000);

    reach(first.runAt!);
    expect(await publisher().runDue('w1')).toContain('published');
    expect(publishedWith(post.text)).toHaveLength(2);

    const disabled = await t.json(
      'POST',
      `/api/mongo/automation/disableDailyRunAutomation?automationId=${post.id}&userId=${me.user.id}`,
      { token: me.token },
    );
    // Published already and waiting for tomorrow's run: the series ends now, no post tomorrow.
    expect(disabled.body.data).toMatchObject({ dailyRun: false, status: 'Completed', runAt: null });
    const jobTime = (await rowOf(post.id)).runAt;
    expect(jobTime).toBeNull();
    advance(86_400_000 + 1_000);
    // The job queued for its time (pg-boss's or the timer's) runs the publisher for this post: nothing to claim.
    expect(await publisher().runOne(post.id, 'w1')).toBe('skipped');
    await publisher().runDue('w1'); // (other posts due then may be published; this one is not)
    expect(await rowOf(post.id)).toMatchObject({ status: 'Completed', runAt: null, runs: 2, dailyRun: false });
    expect(publishedWith(post.text)).toHaveLength(2);
  });

  it('keeps the one scheduled run of a repeating post never published when its daily run is disabled', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { repeat: 'daily' });
    const disabled = await t.json('POST', `/api/mongo/automation/disableDailyRunAutomation?automationId=${post.id}`, {
      token: me.token,
    });
    expect(disabled.body.data).toMatchObject({ dailyRun: false, status: 'Pending', runAt: post.runAt.toISOString() });
    reach(post.runAt);
    expect(await publisher().runOne(post.id, 'w1')).toBe('published');
    expect(await rowOf(post.id)).toMatchObject({ status: 'Completed', runAt: null, runs: 1 });
    advance(86_400_000 + 1_000);
    await publisher().runDue('w1'); // (other posts due then may be published; this one is not)
    expect(publishedWith(post.text)).toHaveLength(1);
  });

  it('publishes nothing when the daily run is disabled between a worker’s claim and its attempt', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { repeat: 'daily' });
    reach(post.runAt);
    expect(await publisher().runOne(post.id, 'w1')).toBe('published');
    reach((await rowOf(post.id)).runAt!);
    const now = clock();
    expect(await q.claim(t.database.db, post.id, 'w2', now, new Date(now.getTime() + 60_000))).toBeTruthy();
    const daily = await t.json('POST', `/api/mongo/automation/disableDailyRunAutomation?automationId=${post.id}`, {
      token: me.token,
    });
    expect(daily.body.data).toMatchObject({ status: 'Completed', runAt: null });
    expect(await q.startAttempt(t.database.db, post.id, 'w2', 'k-claimed', clock())).toBeUndefined();
    expect(publishedWith(post.text)).toHaveLength(1);
  });
});

describe('a post being published', () => {
  it('cannot be stopped until its outcome is known, and a daily run disabled meanwhile ends after it', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { repeat: 'daily' });
    reach(post.runAt);
    fake.delayMs = 1_000;
    try {
      const running = publisher().runOne(post.id, 'w1');
      // Wait until its dedupe key is written: LinkedIn is being called.
      while (!(await rowOf(post.id)).dedupeKey) await new Promise((r) => setTimeout(r, 20));
      const stop = await t.json(
        'POST',
        `/api/mongo/automation/updateAutomationStatus?automationId=${post.id}&automationStatus=Completed`,
        { token: me.token },
      );
      expect(stop.status).toBe(400);
      expect(stop.body.code).toBe('AUTOMATION_NOT_EDITABLE');
      // Pending (it is already): nothing changes, the run in progress is left alone.
      const keyed = await rowOf(post.id);
      const resume = await t.json(
        'POST',
        `/api/mongo/automation/updateAutomationStatus?automationId=${post.id}&automationStatus=Pending`,
        { token: me.token },
      );
      expect(resume.body.data).toMatchObject({ status: 'Pending' });
      expect(await rowOf(post.id)).toEqual(keyed);
      const edit = await t.json('PUT', `/api/linkedin/posts/${post.id}`, {
        token: me.token,
        body: {
          text: 'changed',
          scheduledFor: localMinute(new Date(clock().getTime() + 7_200_000), 'UTC'),
          timezone: 'UTC',
        },
      });
      expect(edit.body.code).toBe('AUTOMATION_NOT_EDITABLE');
      const remove = await t.json('DELETE', `/api/mongo/automation/delete-automation?automationId=${post.id}`, {
        token: me.token,
      });
      expect(remove.body.code).toBe('AUTOMATION_NOT_EDITABLE');
      const daily = await t.json('POST', `/api/mongo/automation/disableDailyRunAutomation?automationId=${post.id}`, {
        token: me.token,
      });
      expect(daily.status).toBe(200);
      expect(await running).toBe('published');
    } finally {
      fake.delayMs = 0;
    }
    const [sent] = publishedWith(post.text);
    expect(await rowOf(post.id)).toMatchObject({
      status: 'Completed',
      runAt: null,
      runs: 1,
      dailyRun: false,
      postUrn: sent!.id,
    });
    expect(publishedWith(post.text)).toHaveLength(1);
  });
});

describe('recording a published run', () => {
  it('decides whether the series goes on from the row as it is then, in the same statement', async () => {
    const me = await connectedUser();
    const post = await schedule(me.token, { repeat: 'daily' });
    reach(post.runAt);
    const now = clock();
    expect(await q.claim(t.database.db, post.id, 'w1', now, new Date(now.getTime() + 60_000))).toBeTruthy();
    expect(await q.startAttempt(t.database.db, post.id, 'w1', 'k-m1', now)).toBeTruthy();
    // The publisher read the row with its daily run on; the person turns it off before the outcome is recorded.
    await t.database.db.update(automations).set({ dailyRun: false }).where(eq(automations.id, post.id));
    const nextRunAt = new Date(post.runAt.getTime() + 86_400_000);
    const done = await q.finishPublished(
      t.database.db,
      post.id,
      'k-m1',
      { postUrn: 'urn:li:share:1', publishedAt: now, nextRunAt },
      now,
    );
    expect(done).toMatchObject({ status: 'Completed', runAt: null, runs: 1, postUrn: 'urn:li:share:1' });

    // With the daily run on, the same statement sets its next time.
    const other = await schedule(me.token, { repeat: 'daily' });
    reach(other.runAt);
    const later = clock();
    await q.claim(t.database.db, other.id, 'w1', later, new Date(later.getTime() + 60_000));
    await q.startAttempt(t.database.db, other.id, 'w1', 'k-m1b', later);
    const again = await q.finishPublished(
      t.database.db,
      other.id,
      'k-m1b',
      { postUrn: 'urn:li:share:2', publishedAt: later, nextRunAt: new Date(other.runAt.getTime() + 86_400_000) },
      later,
    );
    expect(again).toMatchObject({ status: 'Pending', runs: 1 });
    expect(again!.runAt!.getTime()).toBe(other.runAt.getTime() + 86_400_000);
  });
});

describe('the scheduler', () => {
  it('publishes a due post by itself once started, and stops with the app', async () => {
    offsetMs = 0; // pg-boss starts jobs by the database's clock
    const me = await connectedUser();
    const post = await schedule(me.token);
    const scheduler = t.app.services.linkedin.scheduler;
    expect(scheduler.kind).toBe(t.database.kind === 'postgres' ? 'pg-boss' : 'in-process');
    // Due now.
    const due = new Date(clock().getTime() - 1_000);
    await t.database.db.update(automations).set({ runAt: due }).where(eq(automations.id, post.id));
    await scheduler.start();
    try {
      await scheduler.enqueue(post.id, due);
      const deadline = Date.now() + 20_000;
      while ((await rowOf(post.id)).status === 'Pending' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await rowOf(post.id)).status).toBe('Completed');
      expect(publishedWith(post.text)).toHaveLength(1);
    } finally {
      await scheduler.stop();
    }
  }, 30_000);
});

describe('stopping the scheduler', () => {
  it('takes no further post once stopped: the one being published finishes, the rest wait', async () => {
    offsetMs = 0;
    const me = await connectedUser();
    const posts = [];
    for (let i = 0; i < 6; i++) posts.push(await schedule(me.token));
    const ids = posts.map((p) => p.id);
    await t.database.db
      .update(automations)
      .set({ runAt: new Date(clock().getTime() - 1_000) })
      .where(inArray(automations.id, ids));
    const scheduler = createInProcessScheduler({ publisher: publisher(), log: t.app.log, clock, sweepMs: 60_000 });
    const before = creates();
    fake.delayMs = 1_000;
    try {
      await scheduler.start();
      await new Promise((r) => setTimeout(r, 300));
      const stopping = Date.now();
      await scheduler.stop();
      expect(Date.now() - stopping).toBeLessThan(2_500);
      const atStop = creates() - before;
      expect(atStop).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(creates() - before).toBe(atStop);
    } finally {
      fake.delayMs = 0;
    }
    const rows = await t.database.db.select().from(automations).where(inArray(automations.id, ids));
    expect(rows.filter((r) => r.status === 'Pending' && r.lockedBy === null).length).toBeGreaterThanOrEqual(5);
  }, 20_000);
});

describe.skipIf(process.env.PARLEY_TEST_DB !== 'postgres')('pg-boss stopped while it starts', () => {
  it('stops once its start is over, and publishes nothing after', async () => {
    offsetMs = 0;
    const me = await connectedUser();
    const post = await schedule(me.token);
    const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
    const scheduler = createPgBossScheduler({
      publisher: publisher(),
      log: t.app.log,
      pool,
      pollingIntervalSeconds: 0.5,
    });
    try {
      const started = scheduler.start();
      await scheduler.stop();
      await started;
      const due = new Date(Date.now() - 1_000);
      await t.database.db.update(automations).set({ runAt: due }).where(eq(automations.id, post.id));
      await scheduler.enqueue(post.id, due);
      await new Promise((r) => setTimeout(r, 3_000));
      expect((await rowOf(post.id)).status).toBe('Pending');
      expect(publishedWith(post.text)).toHaveLength(0);
    } finally {
      await scheduler.stop();
      await t.database.db
        .update(automations)
        .set({ status: 'Completed', runAt: null })
        .where(eq(automations.id, post.id));
    }
  }, 30_000);
});

describe.skipIf(process.env.PARLEY_TEST_DB !== 'postgres')('two API instances on one PostgreSQL database', () => {
  it('publish each due post once between them, through pg-boss', async () => {
    const created = await createPostgresTestDatabase();
    // Instances of one deployment share the server secret (the LinkedIn tokens are sealed with a key from it).
    const env = { ...fake.env(), RATE_LIMIT_PER_IP: '10000', APP_SECRET: 'one secret shared by both API instances' };
    const first = await createTestApp(env, {
      database: await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 }),
    });
    const second = await createTestApp(env, {
      database: await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 }),
    });
    try {
      offsetMs = 0;
      const me = await first.signUp();
      const start = await first.json('POST', '/api/linkedin/connect', { token: me.token });
      const back = new URL(
        ((await (await fetch(`${start.body.data.url}&format=json`)).json()) as { redirect: string }).redirect,
      );
      await first.json('POST', '/api/linkedin/callback', {
        token: me.token,
        body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      });
      const posts: { id: string; text: string }[] = [];
      for (let i = 0; i < 6; i++) {
        const text = `Shared post ${i} ${Math.random().toString(36).slice(2)}`;
        const res = await (i % 2 ? second : first).json('POST', '/api/linkedin/posts', {
          token: me.token,
          body: { text, scheduledFor: localMinute(new Date(Date.now() + 3_600_000), 'UTC'), timezone: 'UTC' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        posts.push({ id: res.body.data.automationId, text });
      }
      const due = new Date(Date.now() - 1_000);
      await first.database.db.update(automations).set({ runAt: due }).where(eq(automations.userId, me.user.id));
      const before = creates();
      fake.delayMs = 100;
      const schedulers = [first.app.services.linkedin.scheduler, second.app.services.linkedin.scheduler];
      await Promise.all(schedulers.map((s) => s.start()));
      // Both instances are told about every post (as if each had scheduled it).
      for (const post of posts) for (const s of schedulers) await s.enqueue(post.id, due);
      const pending = async () =>
        (await first.database.db.select().from(automations).where(eq(automations.userId, me.user.id))).filter(
          (r) => r.status === 'Pending',
        ).length;
      const deadline = Date.now() + 30_000;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      const rows = await first.database.db.select().from(automations).where(eq(automations.userId, me.user.id));
      const seen = JSON.stringify(rows.map((r) => [r.status, r.error, r.runs]));
      expect(await pending(), seen).toBe(0);
      await Promise.all(schedulers.map((s) => s.stop()));
      expect(creates() - before, seen).toBe(posts.length);
      for (const post of posts) expect(publishedWith(post.text), post.text).toHaveLength(1);
    } finally {
      fake.delayMs = 0;
      await first.close();
      await second.close();
      await created.drop();
    }
  }, 60_000);
});
