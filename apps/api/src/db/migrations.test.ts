import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../test/global-setup.js';
import { ledgerMismatches, usageMismatches } from '../test/wallets.js';
import { MIGRATIONS_DIR, type Db } from './client.js';

// A database filled by an earlier schema, then migrated: nothing a person had is lost on the way.

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

/** The committed migrations up to `tag` (included), in a folder of their own. */
async function migrationsUpTo(tag: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-migrations-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag) + 1);
  await writeFile(journalFile, JSON.stringify(journal));
  return dir;
}

/** A fresh database of the suite's kind, migrated with `folder`; and a function to migrate it the rest of the way. */
async function openAt(folder: string): Promise<{ db: Db; migrateAll: () => Promise<void> }> {
  if (process.env.PARLEY_TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `parley_m_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const pool = new pg.Pool({ connectionString: withDatabase(url, name), max: 2 });
    // The database is dropped WITH (FORCE) at the end: a connection still closing then hears "terminating
    // connection", which is expected, not a failure of the run.
    pool.on('error', () => undefined);
    cleanup.push(async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    const db = drizzlePg(pool);
    await migratePg(db, { migrationsFolder: folder });
    return {
      db: db as unknown as Db,
      migrateAll: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
    };
  }
  const client = new PGlite();
  cleanup.push(() => client.close());
  const db = drizzlePglite(client);
  await migratePglite(db, { migrationsFolder: folder });
  return {
    db: db as unknown as Db,
    migrateAll: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
  };
}

const rows = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

describe('the move of credits from users to wallets (0003_wallets)', () => {
  it('carries every balance over, with its history, and each balance equals its ledger', async () => {
    const { db, migrateAll } = await openAt(await migrationsUpTo('0002_mail_outbox'));
    // Three accounts as the previous schema kept them: a free one that chatted, an early bird, a lifetime deal.
    await db.execute(sql`
      INSERT INTO users (id, email, name, verified, early_bird, app_deal, lifetime_user, timezone,
                         basic_use, advance_use, extra_advance_use,
                         daily_credit, basic_credit, advance_credit, extra_advance_credit, created_at)
      VALUES ('00000000-0000-4000-8000-000000000001', 'free@example.com', 'Free', true, false, false, false, 'Europe/Paris',
              2, 1, 0, 3, 28, 4, 0, now() - interval '40 days'),
             ('00000000-0000-4000-8000-000000000002', 'early@example.com', 'Early', true, true, false, false, 'UTC',
              0, 0, 0, 10, 300, 50, 10, now() - interval '10 days'),
             ('00000000-0000-4000-8000-000000000003', 'deal@example.com', 'Deal', true, false, true, true, 'Bad/Zone',
              0, 0, 0, 20, 1000, 200, 50, now() - interval '5 days')`);
    await db.execute(sql`
      INSERT INTO credit_ledger (id, user_id, tier, amount, feature, state, created_at, settled_at)
      VALUES ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', 'basic', 1, 'chat', 'charged',
              now() - interval '3 days', now() - interval '3 days'),
             ('10000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'basic', 1, 'rewrite', 'charged',
              now() - interval '2 days', now() - interval '2 days'),
             ('10000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', 'advance', 1, 'chat', 'charged',
              now() - interval '1 day', now() - interval '1 day'),
             ('10000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000001', 'basic', 1, 'chat', 'refunded',
              now() - interval '1 day', now() - interval '1 day')`);

    await migrateAll();

    const wallets = await rows<Record<string, unknown>>(
      db,
      sql`SELECT u.email, w.plan, w.base_plan, w.seats, w.daily_credit, w.basic_credit, w.advance_credit,
                 w.extra_advance_credit, w.monthly_renews_at IS NOT NULL AS renews_monthly
            FROM wallets w JOIN users u ON u.id = w.user_id ORDER BY u.email`,
    );
    expect(wallets).toEqual([
      {
        email: 'deal@example.com',
        plan: 'appDeal',
        base_plan: 'appDeal', // 0005: what each returns to when a subscription ends
        seats: 1,
        daily_credit: 20,
        basic_credit: 1000,
        advance_credit: 200,
        extra_advance_credit: 50,
        renews_monthly: true,
      },
      {
        email: 'early@example.com',
        plan: 'earlyBird',
        base_plan: 'earlyBird', // 0005: what each returns to when a subscription ends
        seats: 1,
        daily_credit: 10,
        basic_credit: 300,
        advance_credit: 50,
        extra_advance_credit: 10,
        renews_monthly: false,
      },
      {
        email: 'free@example.com',
        plan: 'free',
        base_plan: 'free', // 0005: what each returns to when a subscription ends
        seats: 1,
        daily_credit: 3,
        basic_credit: 28,
        advance_credit: 4,
        extra_advance_credit: 0,
        renews_monthly: false,
      },
    ]);
    expect(await ledgerMismatches(db)).toEqual([]);
    expect(await usageMismatches(db)).toEqual([]); // 0004: what was charged, by hour
    // The history is kept: what was charged still counts as use, and the refunded call has its refund.
    const history = await rows<{ kind: string; state: string | null; amount: number; feature: string | null }>(
      db,
      sql`SELECT l.kind, l.state, l.amount, l.feature FROM wallet_ledger l JOIN users u ON u.id = l.user_id
           WHERE u.email = 'free@example.com' AND l.kind IN ('reserve', 'refund') ORDER BY l.created_at, l.kind DESC`,
    );
    expect(history).toEqual([
      { kind: 'reserve', state: 'charged', amount: -1, feature: 'chat' },
      { kind: 'reserve', state: 'charged', amount: -1, feature: 'rewrite' },
      { kind: 'reserve', state: 'charged', amount: -1, feature: 'chat' },
      { kind: 'reserve', state: 'refunded', amount: -1, feature: 'chat' },
      { kind: 'refund', state: null, amount: 1, feature: 'chat' },
    ]);
    const [gone] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM information_schema.tables
      WHERE table_name = 'credit_ledger'`,
    );
    expect(gone!.n).toBe(0);
  });
});

describe('use summed by the day (0012_usage_days)', () => {
  it('sums the use already kept by the hour into UTC days, each hour in the day it starts in', async () => {
    const { db, migrateAll } = await openAt(await migrationsUpTo('0011_linkedin'));
    await db.execute(sql`
      INSERT INTO users (id, email, name, verified) VALUES
        ('00000000-0000-4000-8000-000000000001', 'a@example.com', 'A', true),
        ('00000000-0000-4000-8000-000000000002', 'b@example.com', 'B', true)`);
    await db.execute(sql`
      INSERT INTO wallets (id, user_id, daily_renews_at) VALUES
        ('20000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', now()),
        ('20000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000002', now())`);
    await db.execute(sql`
      INSERT INTO wallet_usage (wallet_id, hour, tier, used) VALUES
        ('20000000-0000-4000-8000-000000000001', '2026-11-20T00:00:00Z', 'basic', 2),
        ('20000000-0000-4000-8000-000000000001', '2026-11-20T23:00:00Z', 'basic', 3),
        ('20000000-0000-4000-8000-000000000001', '2026-11-20T23:00:00Z', 'advance', 1),
        ('20000000-0000-4000-8000-000000000001', '2026-11-21T00:00:00Z', 'basic', 4),
        ('20000000-0000-4000-8000-000000000002', '2026-11-20T12:00:00Z', 'extraAdvance', 5)`);

    await migrateAll();

    expect(
      await rows(
        db,
        sql`SELECT wallet_id, day::text AS day, tier, used FROM wallet_usage_days ORDER BY wallet_id, day, tier`,
      ),
    ).toEqual([
      { wallet_id: '20000000-0000-4000-8000-000000000001', day: '2026-11-20', tier: 'advance', used: 1 },
      { wallet_id: '20000000-0000-4000-8000-000000000001', day: '2026-11-20', tier: 'basic', used: 5 },
      { wallet_id: '20000000-0000-4000-8000-000000000001', day: '2026-11-21', tier: 'basic', used: 4 },
      { wallet_id: '20000000-0000-4000-8000-000000000002', day: '2026-11-20', tier: 'extraAdvance', used: 5 },
    ]);
  });
});

describe('the 30-day use kept on the wallet (0013_recent_use)', () => {
  it('leaves every wallet unsummed (its first read sums its days: billing.test.ts), its use kept by day', async () => {
    const { db, migrateAll } = await openAt(await migrationsUpTo('0012_usage_days'));
    await db.execute(sql`
      INSERT INTO users (id, email, name, verified) VALUES
        ('00000000-0000-4000-8000-000000000001', 'a@example.com', 'A', true)`);
    await db.execute(sql`
      INSERT INTO wallets (id, user_id, daily_renews_at) VALUES
        ('20000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', now())`);
    await db.execute(sql`
      INSERT INTO wallet_usage (wallet_id, hour, tier, used) VALUES
        ('20000000-0000-4000-8000-000000000001', '2026-11-20T10:00:00Z', 'advance', 3)`);
    await db.execute(sql`
      INSERT INTO wallet_usage_days (wallet_id, day, tier, used) VALUES
        ('20000000-0000-4000-8000-000000000001', '2026-11-20', 'advance', 3)`);

    await migrateAll();

    expect(
      await rows(db, sql`SELECT recent_day, recent_basic, recent_advance, recent_extra_advance FROM wallets`),
    ).toEqual([{ recent_day: null, recent_basic: 0, recent_advance: 0, recent_extra_advance: 0 }]);
    expect(await rows(db, sql`SELECT day::text AS day, tier, used FROM wallet_usage_days`)).toEqual([
      { day: '2026-11-20', tier: 'advance', used: 3 },
    ]);
  });
});
