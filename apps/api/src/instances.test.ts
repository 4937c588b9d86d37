import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from './test/fake-openai.js';
import { createPostgresTestDatabase } from './test/database.js';
import { startInstances, type Instance } from './test/instances.js';
import { chatForm, encodeForm } from './test/sse.js';

// Two API processes on one PostgreSQL and one Redis, as Parley runs when it outgrows one machine: what one instance
// decides about sessions, limits and credits holds on the other.

const enabled = process.env.PARLEY_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

describe.runIf(enabled)('two instances, one database', () => {
  let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
  let database: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let sql: pg.Pool;
  let cluster: Awaited<ReturnType<typeof startInstances>>;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    database = await createPostgresTestDatabase();
    sql = new pg.Pool({ connectionString: database.url, max: 2 });
    // The database is dropped WITH (FORCE) at the end: a connection still closing then hears "terminating
    // connection", which is expected, not a failure of the run.
    sql.on('error', () => undefined);
    cluster = await startInstances({
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      RATE_LIMIT_PER_IP: '10000',
      AI_RATE_PER_IP: '10000',
      AI_RATE_PER_USER: '1000',
    });
    [a, b] = await Promise.all([cluster.start(), cluster.start()]);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await sql?.end();
    await database?.drop();
    await fake?.close();
  });

  async function call(on: Instance, method: string, url: string, body?: object, token?: string) {
    const res = await fetch(`${on.url}${url}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  /** Signs up on one instance, verifies from the mail that instance wrote, signs in on `loginOn`. */
  async function signUp(on: Instance, email: string, loginOn = on) {
    const password = 'correct horse battery';
    expect((await call(on, 'POST', '/api/auth/register', { email, password, name: 'Two' })).status).toBe(200);
    const dir = path.join(on.dataDir, 'mail');
    const file = (await readdir(dir)).find((f) => f.endsWith(`-${email}.eml`))!;
    const eml = (await readFile(path.join(dir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(eml)![1];
    expect((await call(loginOn, 'POST', `/api/auth/verify?token=${token}`)).status).toBe(200);
    const login = await call(loginOn, 'POST', '/api/auth/login', { email, password });
    return login.body.data.token as string;
  }

  async function turn(on: Instance, token: string, text = 'Hello') {
    const { payload, contentType } = await encodeForm(chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text }));
    const res = await fetch(`${on.url}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: payload,
    });
    return { status: res.status, body: await res.text(), res };
  }

  const creditsOf = async (email: string) =>
    (
      await sql.query(
        'SELECT w.daily_credit + w.basic_credit AS n FROM wallets w JOIN users u ON u.id = w.user_id WHERE u.email = $1',
        [email],
      )
    ).rows[0].n as number;

  it('a session ended on one instance is ended on the other', async () => {
    const first = await signUp(a, 'sessions@example.com');
    expect((await call(b, 'GET', '/api/user/profile', undefined, first)).status).toBe(200);
    // Signing in again on B (no "multiple login") ends the first session: both instances answer 409.
    const second = (
      await call(b, 'POST', '/api/auth/login', { email: 'sessions@example.com', password: 'correct horse battery' })
    ).body.data.token as string;
    expect((await call(a, 'GET', '/api/user/profile', undefined, first)).status).toBe(409);
    expect((await call(b, 'GET', '/api/user/profile', undefined, first)).status).toBe(409);
    expect((await turn(a, first)).status).toBe(409);
    // Signing out on A ends it on B.
    expect((await call(b, 'GET', '/api/user/profile', undefined, second)).status).toBe(200);
    expect((await call(a, 'POST', '/api/user/logout', {}, second)).status).toBe(200);
    expect((await call(b, 'GET', '/api/user/profile', undefined, second)).status).toBe(401);
    expect((await turn(b, second)).status).toBe(401);
  });

  it('rate limits are shared', async () => {
    // Sign-in failures counted on both lock the account on both (LOGIN_MAX_FAILURES is 5).
    await signUp(a, 'limits@example.com');
    for (const on of [a, b, a, b, a]) {
      const res = await call(on, 'POST', '/api/auth/login', { email: 'limits@example.com', password: 'wrong one!' });
      expect(res.status).toBe(401);
    }
    const locked = await call(b, 'POST', '/api/auth/login', {
      email: 'limits@example.com',
      password: 'correct horse battery',
    });
    expect(locked.status).toBe(429);
  });

  it('50 turns racing for 10 credits across both instances spend exactly 10', async () => {
    const token = await signUp(a, 'race@example.com', b);
    await sql.query(
      `UPDATE wallets SET daily_credit = 0, basic_credit = 10 WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      ['race@example.com'],
    );
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => turn(i % 2 ? a : b, token, `Race ${i}`)));
    const served = results.filter((r) => r.status === 200 && r.body.includes('"text-delta"'));
    expect(served).toHaveLength(10);
    expect(results.filter((r) => r.status === 402)).toHaveLength(40);
    expect(await creditsOf('race@example.com')).toBe(0);
    const ledger = await sql.query(
      `SELECT state, count(*)::int AS n FROM wallet_ledger l JOIN users u ON u.id = l.user_id
        WHERE u.email = $1 AND l.kind = 'reserve' GROUP BY state`,
      ['race@example.com'],
    );
    expect(ledger.rows).toEqual([{ state: 'charged', n: 10 }]);
  });

  it('a reservation left by a killed instance is refunded, and the other keeps serving', async () => {
    const token = await signUp(b, 'crash@example.com');
    const before = await creditsOf('crash@example.com');
    const victim = await cluster.start();
    // Its provider never answers: the turn stays under way, its credit reserved, until the process dies.
    const { payload, contentType } = await encodeForm(
      chatForm({ model: 'CUSTOM_OPENAI_COMPATIBLE', text: 'Wait for me #hang' }),
    );
    const hanging = fetch(`${victim.url}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: payload,
    }).then((res) => res.text());
    hanging.catch(() => undefined); // the connection dies with the process
    await expect
      .poll(
        async () =>
          (await sql.query("SELECT count(*)::int AS n FROM wallet_ledger WHERE state = 'reserved'")).rows[0].n,
      )
      .toBe(1);
    await cluster.kill(victim);
    expect(await creditsOf('crash@example.com')).toBe(before - 1);
    // B serves meanwhile.
    expect((await turn(b, token, 'Still there?')).status).toBe(200);
    // Once the reservation is older than any turn can last, the next instance to start (or a running one, within
    // ten minutes) gives it back.
    await sql.query("UPDATE wallet_ledger SET created_at = now() - interval '1 hour' WHERE state = 'reserved'");
    await cluster.start();
    await expect.poll(() => creditsOf('crash@example.com')).toBe(before - 1); // the one B served stays charged
    const states = await sql.query(
      `SELECT state FROM wallet_ledger l JOIN users u ON u.id = l.user_id
        WHERE u.email = $1 AND l.kind = 'reserve' ORDER BY l.created_at`,
      ['crash@example.com'],
    );
    expect(states.rows.map((r) => r.state)).toEqual(['refunded', 'charged']);
  });
});
