import { count, eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_ALLOWANCE, PRO_ALLOWANCE } from '@parley/contract';
import {
  auditLog,
  automations,
  billingCustomers,
  chatMessages,
  conversations,
  errorLogs,
  sessions,
  subscriptions,
  userSettings,
  users,
  walletLedger,
  wallets,
  walletUsage,
  walletUsageDays,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { seedParleyCatalogue, startFakeStripe, type FakeStripe } from '../../test/fake-stripe.js';
import { ledgerMismatches, recordUse, walletOf } from '../../test/wallets.js';

let stripe: FakeStripe;
let t: TestApp;
beforeAll(async () => {
  stripe = await startFakeStripe();
  seedParleyCatalogue(stripe);
  t = await createTestApp({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
    RATE_LIMIT_PER_IP: '10000',
    RATE_LIMIT_PER_EMAIL: '10000',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  stripe.setWebhookUrl(`http://127.0.0.1:${address.port}/api/payment/webhook`);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const db = () => t.database.db;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let admins = 0;
/** A site admin, made the way `npm run admin -- create-admin` makes one, signed in. */
async function siteAdmin() {
  admins += 1;
  const email = `admin${admins}-${Date.now()}@example.com`;
  const password = 'an admin password';
  const profile = await t.app.services.users.createAdmin({ email, password, name: `Admin ${admins}` });
  const login = await t.json('POST', '/api/auth/login', { body: { email, password } });
  expect(login.status).toBe(200);
  return { email, password, id: profile.id as string, token: login.body.data.token as string };
}

const signIn = async (email: string, password: string, deviceType = 'WEB') => {
  const res = await t.json('POST', '/api/auth/login', {
    body: { email, password },
    headers: { devicetype: deviceType },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.token as string;
};
const profileStatus = async (token: string) => (await t.json('GET', '/api/user/profile', { token })).status;
const auditRows = async (targetUserId?: string) =>
  targetUserId
    ? db().select().from(auditLog).where(eq(auditLog.targetUserId, targetUserId))
    : db().select().from(auditLog);
const credits = (w: Awaited<ReturnType<typeof walletOf>>) => ({
  dailyCredit: w.dailyCredit,
  basicCredit: w.basicCredit,
  advanceCredit: w.advanceCredit,
  extraAdvanceCredit: w.extraAdvanceCredit,
});
const rowsOf = async (table: PgTable, where: SQL) => (await db().select({ n: count() }).from(table).where(where))[0]!.n;

async function insertErrorLog(at: Date, url: string, message: string) {
  const [row] = await db()
    .insert(errorLogs)
    .values({ createdAt: at, url, message, method: 'GET', status: 500 })
    .returning();
  return row!;
}

/** Every admin call, aimed at `victim` (and one error-log entry). */
const calls = (victim: string, logId: string): [Method, string, unknown?][] => [
  ['POST', '/api/admin/users', { search: '' }],
  [
    'PUT',
    '/api/admin/editUser',
    {
      id: victim,
      credits: { dailyCredit: 999, basicCredit: 999, advanceCredit: 999, extraAdvanceCredit: 999 },
      lifetimeUser: true,
      multipleLogin: true,
    },
  ],
  ['POST', `/api/admin/forceLogout?id=${victim}`],
  ['DELETE', `/api/admin/deleteUser?id=${victim}`],
  ['POST', `/api/admin/RemoveUserPlan?id=${victim}`],
  ['POST', '/api/admin/userPlan', { id: victim }],
  ['POST', '/api/admin/organizations', {}],
  ['POST', '/api/admin/errorsLog', {}],
  ['DELETE', `/api/admin/deleteErrorLog?id=${logId}`],
  ['DELETE', `/api/admin/deleteErrorLog?before=${encodeURIComponent(new Date(Date.now() + 86400_000).toISOString())}`],
  ['POST', '/api/admin/audit', {}],
  ['POST', '/api/admin/automations', { id: victim }],
];

describe('who may call the admin portal', () => {
  it('answers 401 without a session and 403 to anyone but a site admin, before reading the body, changing nothing', async () => {
    const victim = await t.signUp();
    const user = await t.signUp();
    const log = await insertErrorLog(new Date(Date.now() - 3600_000), '/api/ai/chat', 'boom');
    const before = credits(await walletOf(db(), victim.email));
    const auditBefore = (await auditRows()).length;

    for (const [method, url, body] of calls(victim.user.id, log.id)) {
      const anonymous = await t.json(method, url, body === undefined ? {} : { body });
      expect(anonymous.status, `${method} ${url}`).toBe(401);
      expect(anonymous.body.code).toBe('UNAUTHENTICATED');

      const forbidden = await t.json(method, url, { token: user.token, lang: 'es', ...(body ? { body } : {}) });
      expect(forbidden.status, `${method} ${url}`).toBe(403);
      expect(forbidden.body).toEqual({ status: 403, code: 'FORBIDDEN', message: 'No tienes permiso para hacer esto.' });

      // The role is checked before the body is read: a body that is not even JSON gets the same answer.
      const raw = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        payload: '{"search": ',
      });
      expect(raw.statusCode, `${method} ${url}`).toBe(403);
    }

    // Nothing happened to anyone.
    expect(credits(await walletOf(db(), victim.email))).toEqual(before);
    const [row] = await db().select().from(users).where(eq(users.id, victim.user.id));
    expect(row).toMatchObject({ lifetimeUser: false, multipleLogin: false, role: 'user' });
    expect(await profileStatus(victim.token)).toBe(200);
    expect(await db().select().from(errorLogs).where(eq(errorLogs.id, log.id))).toHaveLength(1);
    expect((await auditRows()).length).toBe(auditBefore);
  });

  it('lets a site admin make every call', async () => {
    const admin = await siteAdmin();
    const victim = await t.signUp();
    const log = await insertErrorLog(new Date(Date.now() - 3600_000), '/api/x', 'boom');
    const expected: Record<string, number> = { '/api/admin/RemoveUserPlan': 404 }; // the victim has no plan
    for (const [method, url, body] of calls(victim.user.id, log.id)) {
      if (url.startsWith('/api/admin/deleteUser')) continue; // below, last
      const res = await t.json(method, url, { token: admin.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(expected[url.split('?')[0]!] ?? 200);
    }
    const deleted = await t.json('DELETE', `/api/admin/deleteUser?id=${victim.user.id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
  });

  it('stops a demoted admin at once, and a session ended elsewhere answers 409', async () => {
    const admin = await siteAdmin();
    expect((await t.json('POST', '/api/admin/users', { token: admin.token, body: {} })).status).toBe(200);
    await db().update(users).set({ role: 'user' }).where(eq(users.id, admin.id));
    expect((await t.json('POST', '/api/admin/users', { token: admin.token, body: {} })).status).toBe(403);
    await db().update(users).set({ role: 'admin' }).where(eq(users.id, admin.id));
    await signIn(admin.email, admin.password); // no multiple login: the first session ends
    const ended = await t.json('POST', '/api/admin/users', { token: admin.token, body: {} });
    expect(ended.status).toBe(409);
  });
});

describe('users', () => {
  it('searches, sorts and pages people, with their plan, credits and use over 30 days', async () => {
    const admin = await siteAdmin();
    const tag = `zebra${Date.now()}`;
    const made = [];
    for (const name of ['Carla', 'alma', 'Bruno'])
      made.push(await t.signUp({ email: `${name.toLowerCase()}.${tag}@example.com`, name }));
    await recordUse(db(), made[0]!.email, 'basic', 3);
    await recordUse(db(), made[0]!.email, 'advance', 2);
    await recordUse(db(), made[0]!.email, 'basic', 5, new Date(Date.now() - 40 * 86400_000)); // too old to count

    const list = async (body: Record<string, unknown>) => {
      const res = await t.json('POST', '/api/admin/users', { token: admin.token, body: { search: tag, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const byName = await list({ sort: 'name', order: 'asc' });
    expect(byName.total).toBe(3);
    expect(byName.users.map((u: { name: string }) => u.name)).toEqual(['alma', 'Bruno', 'Carla']);
    const carla = byName.users[2];
    expect(carla).toMatchObject({
      email: made[0]!.email,
      role: 'user',
      plan: 'free',
      basicUse: 3,
      advanceUse: 2,
      extraAdvanceUse: 0,
      monthlyUse: 5,
      activeSessions: 1,
      loginCount: 1,
      lifetimeUser: false,
      multipleLogin: false,
    });
    expect(carla.credits).toEqual({
      ...FREE_ALLOWANCE,
      basicCredit: FREE_ALLOWANCE.basicCredit - 8,
      advanceCredit: FREE_ALLOWANCE.advanceCredit - 2,
    });
    expect(Date.parse(carla.lastLoginAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(carla).not.toHaveProperty('passwordHash');

    const desc = await list({ sort: 'name', order: 'desc', pageSize: 2 });
    expect(desc.users.map((u: { name: string }) => u.name)).toEqual(['Carla', 'Bruno']);
    const page2 = await list({ sort: 'name', order: 'desc', pageSize: 2, page: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.users.map((u: { name: string }) => u.name)).toEqual(['alma']);

    // Search by name too, case-insensitively; LIKE's wildcards are taken literally.
    expect((await list({ search: 'BRUNO' })).users.map((u: { email: string }) => u.email)).toContain(made[2]!.email);
    expect((await list({ search: '%' })).total).toBe(0);
    expect((await list({ search: '_' })).total).toBe(0);
  });

  it('refuses bounds and fields it does not know', async () => {
    const admin = await siteAdmin();
    for (const body of [
      { pageSize: 1000 },
      { page: 0 },
      { sort: 'passwordHash' },
      { order: 'sideways' },
      { search: 'x'.repeat(201) },
      { role: 'admin' },
    ]) {
      const res = await t.json('POST', '/api/admin/users', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('editing a person', () => {
  it("sets all four credits ('Please enter each credit'), as ledger adjustments, recorded in the audit log", async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const id = u.user.id;
    const edit = (body: Record<string, unknown>) =>
      t.json('PUT', '/api/admin/editUser', { token: admin.token, body: { id, ...body } });

    for (const bad of [
      { dailyCredit: 1, basicCredit: 2, advanceCredit: 3 },
      { dailyCredit: 1, basicCredit: 2, advanceCredit: 3, extraAdvanceCredit: -1 },
      { dailyCredit: 1.5, basicCredit: 2, advanceCredit: 3, extraAdvanceCredit: 4 },
      { dailyCredit: '1', basicCredit: 2, advanceCredit: 3, extraAdvanceCredit: 4 },
      { dailyCredit: 1, basicCredit: 2, advanceCredit: 3, extraAdvanceCredit: 4e12 },
    ]) {
      const res = await edit({ credits: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await edit({})).status).toBe(400); // nothing to change
    const before = credits(await walletOf(db(), u.email));

    const to = { dailyCredit: 7, basicCredit: 0, advanceCredit: 123, extraAdvanceCredit: 4 };
    const res = await edit({ credits: to });
    expect(res.status).toBe(200);
    expect(res.body.data.credits).toEqual(to);
    expect(credits(await walletOf(db(), u.email))).toEqual(to);
    expect(await ledgerMismatches(db())).toEqual([]);
    const adjustments = await db()
      .select({ balance: walletLedger.balance, amount: walletLedger.amount })
      .from(walletLedger)
      .where(sql`${walletLedger.walletId} = ${(await walletOf(db(), u.email)).id} AND ${walletLedger.kind} = 'adjust'`);
    expect(adjustments).toHaveLength(4);

    const [entry] = await auditRows(id);
    expect(entry).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      action: 'user.credits',
      targetEmail: u.email,
      before,
      after: to,
    });
    expect(entry!.at.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('grants and revokes lifetime free credits, each change in the audit log', async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const set = (lifetimeUser: boolean) =>
      t.json('PUT', '/api/admin/editUser', { token: admin.token, body: { id: u.user.id, lifetimeUser } });
    expect((await set(true)).body.data.lifetimeUser).toBe(true);
    expect((await t.json('GET', '/api/user/profile', { token: u.token })).body.data.lifetimeUser).toBe(true);
    expect((await set(false)).body.data.lifetimeUser).toBe(false);
    const entries = await auditRows(u.user.id);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['user.lifetime', { lifetimeUser: false }, { lifetimeUser: true }],
      ['user.lifetime', { lifetimeUser: true }, { lifetimeUser: false }],
    ]);
  });

  it('allows multiple login (sessions coexist) and forbids it (the newest sign-in ends the others with 409)', async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const set = (multipleLogin: boolean) =>
      t.json('PUT', '/api/admin/editUser', { token: admin.token, body: { id: u.user.id, multipleLogin } });
    expect((await set(true)).status).toBe(200);
    const second = await signIn(u.email, u.password, 'EXTENSION');
    expect(await profileStatus(u.token)).toBe(200);
    expect(await profileStatus(second)).toBe(200);

    expect((await set(false)).body.data.multipleLogin).toBe(false);
    const third = await signIn(u.email, u.password);
    expect(await profileStatus(u.token)).toBe(409);
    expect(await profileStatus(second)).toBe(409);
    expect(await profileStatus(third)).toBe(200);
    expect((await auditRows(u.user.id)).map((e) => e.action)).toEqual(['user.multipleLogin', 'user.multipleLogin']);
  });

  it('ignores nothing it should refuse: role, e-mail, another id or wallet ids in the body change nothing', async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const other = await t.signUp();
    const before = credits(await walletOf(db(), u.email));
    for (const extra of [
      { role: 'admin' },
      { email: 'taken@example.com' },
      { userId: other.user.id },
      { walletId: (await walletOf(db(), other.email)).id },
      { verified: false },
      { credits: { ...before, walletId: 'x' } },
      { credits: { ...before, plan: 'pro' } },
    ]) {
      const res = await t.json('PUT', '/api/admin/editUser', {
        token: admin.token,
        body: { id: u.user.id, lifetimeUser: true, ...extra },
      });
      expect(res.status, JSON.stringify(extra)).toBe(400);
    }
    const [row] = await db().select().from(users).where(eq(users.id, u.user.id));
    expect(row).toMatchObject({ role: 'user', lifetimeUser: false, verified: true, email: u.email });
    expect(credits(await walletOf(db(), u.email))).toEqual(before);
    expect(credits(await walletOf(db(), other.email))).toEqual(credits(await walletOf(db(), other.email)));
    expect(await auditRows(u.user.id)).toEqual([]);
    // Someone who does not exist is a 404.
    const missing = await t.json('PUT', '/api/admin/editUser', {
      token: admin.token,
      body: { id: '00000000-0000-4000-8000-000000000000', lifetimeUser: true },
    });
    expect(missing.status).toBe(404);
  });

  it('loses no spend when credits are edited during 20 concurrent spends, and the ledger stays whole', async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const id = u.user.id;
    const start = { dailyCredit: 0, basicCredit: 0, advanceCredit: 0, extraAdvanceCredit: 100 };
    const edit = (to: typeof start) =>
      t.json('PUT', '/api/admin/editUser', { token: admin.token, body: { id, credits: to } });
    expect((await edit(start)).status).toBe(200);
    const wallet = await walletOf(db(), u.email);
    const payer = { user: { id, timezone: 'UTC' }, wallet: { id: wallet.id, plan: 'free' as const } };
    const use = { capability: 'chat' as const, tier: 'extraAdvance' as const, keySource: 'server' as const };

    const edited = { ...start, extraAdvanceCredit: 50 };
    const spends = Array.from({ length: 20 }, () => t.app.services.billing.metered(payer, use, async () => 'answered'));
    const [editResult, ...spent] = await Promise.all([edit(edited), ...spends]);
    expect(editResult!.status).toBe(200);
    expect(spent).toEqual(Array(20).fill('answered'));

    // The adjustment was computed from the balance at its instant: 100 minus the spends before it.
    const final = (await walletOf(db(), u.email)).extraAdvanceCredit;
    const after = 50 - final; // spends that came after the edit
    expect(after).toBeGreaterThanOrEqual(0);
    expect(after).toBeLessThanOrEqual(20);
    const ledger = await db()
      .select({ kind: walletLedger.kind, amount: walletLedger.amount, state: walletLedger.state })
      .from(walletLedger)
      .where(sql`${walletLedger.walletId} = ${wallet.id} AND ${walletLedger.balance} = 'extraAdvance'`);
    const adjust = ledger.filter((l) => l.kind === 'adjust');
    expect(adjust.map((a) => a.amount)).toEqual([100, 50 - (100 - (20 - after))]);
    expect(ledger.filter((l) => l.kind === 'reserve' && l.state === 'charged')).toHaveLength(20);
    expect(await ledgerMismatches(db())).toEqual([]);
  });
});

describe('force logout', () => {
  it("ends the person's web and extension sessions (409), recorded in the audit log", async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    await db().update(users).set({ multipleLogin: true }).where(eq(users.id, u.user.id));
    const extension = await signIn(u.email, u.password, 'EXTENSION');
    const bystander = await t.signUp();

    const res = await t.json('POST', `/api/admin/forceLogout?id=${u.user.id}`, { token: admin.token, lang: 'fr' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      data: { ended: 2 },
      message: "L'utilisateur a été déconnecté de tous ses appareils.",
    });
    for (const token of [u.token, extension]) {
      const after = await t.json('GET', '/api/user/profile', { token });
      expect(after.status).toBe(409);
      expect(after.body.code).toBe('SESSION_REPLACED');
    }
    // The chat's own session check (one statement with the reservation) says the same.
    const chat = await t.app.inject({
      method: 'POST',
      url: '/api/ai/chat',
      headers: { authorization: `Bearer ${extension}` },
      payload: { request: '{}' },
    });
    expect(chat.statusCode).toBe(409);
    expect(await profileStatus(bystander.token)).toBe(200);
    expect(await profileStatus(admin.token)).toBe(200);
    const [entry] = await auditRows(u.user.id);
    expect(entry).toMatchObject({
      action: 'user.forceLogout',
      before: { activeSessions: 2 },
      after: { activeSessions: 0 },
    });

    // A new sign-in works again.
    expect(await profileStatus(await signIn(u.email, u.password))).toBe(200);
  });

  it('signs an admin out of their other devices only, when they force their own logout', async () => {
    const admin = await siteAdmin();
    await db().update(users).set({ multipleLogin: true }).where(eq(users.id, admin.id));
    const other = await signIn(admin.email, admin.password, 'EXTENSION');
    const res = await t.json('POST', `/api/admin/forceLogout?id=${admin.id}`, { token: admin.token });
    expect(res.body.data).toEqual({ ended: 1 });
    expect(await profileStatus(other)).toBe(409);
    expect(await profileStatus(admin.token)).toBe(200);
  });
});

describe('deleting a person', () => {
  it('removes them and everything of theirs, cancels their paid plan at Stripe, and keeps the audit record', async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const id = u.user.id;
    // Their things: settings, a conversation, use, a paid subscription.
    await t.json('POST', '/api/user/setting', { token: u.token, body: { theme: 'dark' } });
    const [conversation] = await db()
      .insert(conversations)
      .values({ userId: id, title: 'Mine', model: 'gpt-4o-mini' })
      .returning();
    await db()
      .insert(chatMessages)
      .values({ conversationId: conversation!.id, position: 0, role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    await recordUse(db(), u.email, 'basic', 2);
    const checkout = await t.json('GET', '/api/payment/subscribe?plan=pro&planDuration=month', { token: u.token });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    await stripe.completeCheckout(new URL(checkout.body.data.url).pathname.split('/').pop()!);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.userId, id));
    expect(sub?.status).toBe('active');
    const walletId = (await walletOf(db(), u.email)).id;

    const res = await t.json('DELETE', `/api/admin/deleteUser?id=${id}`, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ deleted: 1 });

    expect(stripe.state.subscriptions.get(sub!.stripeSubscriptionId!)?.status).toBe('canceled');
    expect(await rowsOf(users, eq(users.id, id))).toBe(0);
    expect(await rowsOf(sessions, eq(sessions.userId, id))).toBe(0);
    expect(await rowsOf(userSettings, eq(userSettings.userId, id))).toBe(0);
    expect(await rowsOf(conversations, eq(conversations.userId, id))).toBe(0);
    expect(await rowsOf(chatMessages, eq(chatMessages.conversationId, conversation!.id))).toBe(0);
    expect(await rowsOf(wallets, eq(wallets.id, walletId))).toBe(0);
    expect(await rowsOf(walletLedger, eq(walletLedger.walletId, walletId))).toBe(0);
    expect(await rowsOf(walletUsage, eq(walletUsage.walletId, walletId))).toBe(0);
    expect(await rowsOf(walletUsageDays, eq(walletUsageDays.walletId, walletId))).toBe(0);
    expect(await rowsOf(subscriptions, eq(subscriptions.userId, id))).toBe(0);
    expect(await rowsOf(billingCustomers, eq(billingCustomers.userId, id))).toBe(0);
    expect((await t.json('GET', '/api/user/profile', { token: u.token })).status).toBe(401);
    expect((await t.json('POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(
      401,
    );

    const [entry] = await auditRows(id);
    expect(entry).toMatchObject({
      action: 'user.delete',
      actorId: admin.id,
      targetEmail: u.email,
      before: { email: u.email, role: 'user', plan: 'pro' },
      after: null,
    });
    expect(await ledgerMismatches(db())).toEqual([]);
    expect((await t.json('DELETE', `/api/admin/deleteUser?id=${id}`, { token: admin.token })).status).toBe(404);
  });

  /** Runs `fn` with `keep` the only site admins (others demoted meanwhile). */
  async function onlyAdmins(keep: string[], fn: () => Promise<void>) {
    const others = await db()
      .update(users)
      .set({ role: 'user' })
      .where(sql`${users.role} = 'admin' AND NOT (${users.id} = ANY(${`{${keep.join(',')}}`}::uuid[]))`)
      .returning({ id: users.id });
    try {
      await fn();
    } finally {
      for (const { id } of others) await db().update(users).set({ role: 'admin' }).where(eq(users.id, id));
    }
  }

  it('refuses to delete the admin themself, and two admins deleting each other at once leave one', async () => {
    const a = await siteAdmin();
    const self = await t.json('DELETE', `/api/admin/deleteUser?id=${a.id}`, { token: a.token, lang: 'es' });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({
      code: 'CANNOT_DELETE_SELF',
      message: 'No puedes eliminar tu propia cuenta desde el portal de administración.',
    });
    expect(await profileStatus(a.token)).toBe(200);

    const b = await siteAdmin();
    await onlyAdmins([a.id, b.id], async () => {
      const results = await Promise.all([
        t.json('DELETE', `/api/admin/deleteUser?id=${b.id}`, { token: a.token }),
        t.json('DELETE', `/api/admin/deleteUser?id=${a.id}`, { token: b.token }),
      ]);
      const codes = results.map((r) => r.body.code ?? r.status).sort();
      expect(codes).toEqual([200, 'LAST_SITE_ADMIN'].sort());
      const left = await db().select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
      expect(left).toHaveLength(1);
      expect([a.id, b.id]).toContain(left[0]!.id);
      expect(await auditRows(left[0]!.id === a.id ? b.id : a.id)).toHaveLength(1);
    });
  });

  it('keeps the last site admin when the admin deleting them lost the role meanwhile', async () => {
    const a = await siteAdmin();
    const b = await siteAdmin();
    const regular = await t.signUp();
    const caller = await t.app.services.auth.authenticate(b.token);
    await onlyAdmins([a.id], async () => {
      // `b` was let in as an admin, then demoted before their deletion ran: `a` is the only admin, and stays.
      await expect(t.app.services.admin.deleteUser(caller, a.id)).rejects.toMatchObject({ code: 'LAST_SITE_ADMIN' });
      // Nor may `b` delete anyone else any more.
      await expect(t.app.services.admin.deleteUser(caller, regular.user.id)).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    });
    expect(await rowsOf(users, eq(users.id, a.id))).toBe(1);
    expect(await rowsOf(users, eq(users.id, regular.user.id))).toBe(1);
    expect(await auditRows(a.id)).toEqual([]);
  });
});

describe.runIf(process.env.PARLEY_TEST_DB === 'postgres')("an admin's change while the person reserves credits", () => {
  const pool = () => (db() as unknown as { $client: Pool }).$client;
  /** Waits until some connection waits for a lock that the backend `pid` holds. */
  const blockedBy = async (pid: number) => {
    for (let i = 0; i < 500; i++) {
      const { rows } = await pool().query<{ blocked: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))) AS blocked',
        [pid],
      );
      if (rows[0]!.blocked) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`nothing ever waited for backend ${pid}`);
  };

  /**
   * A reservation's locks in the order its statement takes them — the wallet's row, then the account's (the ledger
   * row's foreign key) — with the admin's `change` started in between, once it waits for the reservation. Had the
   * change taken the account's row in a way that keeps the foreign key's check out, each would wait for the other,
   * and PostgreSQL would end one of them. Returns what became of the reservation and of the change.
   */
  async function reservingWhile(change: (person: { id: string }) => Promise<unknown>) {
    const u = await t.signUp();
    const person = { id: u.user.id as string, email: u.email, walletId: (await walletOf(db(), u.email)).id };
    const client = await pool().connect();
    let changed: Promise<string | undefined> | undefined;
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query('BEGIN');
      await client.query('UPDATE wallets SET basic_credit = basic_credit - 1 WHERE id = $1', [person.walletId]);
      changed = change(person).then(
        () => 'done',
        (error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code,
      );
      await blockedBy(rows[0]!.pid);
      const reserved = await client
        .query(
          `INSERT INTO wallet_ledger (wallet_id, user_id, balance, tier, amount, kind, state, feature)
           VALUES ($1, $2, 'basic', 'basic', -1, 'reserve', 'reserved', 'chat')`,
          [person.walletId, person.id],
        )
        .then(
          () => 'reserved',
          (error: { code?: string }) => error.code,
        );
      await client.query(reserved === 'reserved' ? 'COMMIT' : 'ROLLBACK');
      return { person, reserved, changed: await changed };
    } finally {
      // Dropped, not returned to the pool: a failure above may have left its transaction open. The change is let end.
      client.release(true);
      await changed;
    }
  }

  it('a deletion waits for the reservation, then deletes them', async () => {
    const admin = await siteAdmin();
    const caller = await t.app.services.auth.authenticate(admin.token);
    const { person, reserved, changed } = await reservingWhile((p) => t.app.services.admin.deleteUser(caller, p.id));
    expect({ reserved, changed }).toEqual({ reserved: 'reserved', changed: 'done' });
    expect(await rowsOf(users, eq(users.id, person.id))).toBe(0);
    expect(await rowsOf(wallets, eq(wallets.id, person.walletId))).toBe(0);
    expect(await rowsOf(walletLedger, eq(walletLedger.walletId, person.walletId))).toBe(0);
    expect(await auditRows(person.id)).toHaveLength(1);
  });

  it("an edit of their flags and credits never waits for the reservation's foreign key", async () => {
    const admin = await siteAdmin();
    const caller = await t.app.services.auth.authenticate(admin.token);
    const set = { dailyCredit: 7, basicCredit: 70, advanceCredit: 17, extraAdvanceCredit: 1 };
    const { person, reserved, changed } = await reservingWhile((p) =>
      t.app.services.admin.editUser(caller, { id: p.id, lifetimeUser: true, credits: set }),
    );
    expect({ reserved, changed }).toEqual({ reserved: 'reserved', changed: 'done' });
    // The edit came after the reservation: the credits are those it set, and the ledger agrees.
    expect(credits(await walletOf(db(), person.email))).toEqual(set);
    expect(await ledgerMismatches(db())).toEqual([]);
    expect(await auditRows(person.id)).toHaveLength(2);
  });
});

describe('plans', () => {
  it("reads a person's plan, and removes a plan an admin gave and one paid through Stripe", async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    const plan = async () =>
      (await t.json('POST', '/api/admin/userPlan', { token: admin.token, body: { id: u.user.id } })).body.data;
    expect(await plan()).toMatchObject({
      userId: u.user.id,
      organizationId: null,
      plan: { plan: 'free', subscription: null },
    });

    await t.app.services.payments.assignPlan(u.user.id, { plan: 'pro', duration: 'month', seats: 1, until: null });
    expect((await plan()).plan).toMatchObject({ plan: 'pro', subscription: { source: 'admin', status: 'active' } });
    expect((await walletOf(db(), u.email)).basicCredit).toBeGreaterThanOrEqual(PRO_ALLOWANCE.basicCredit);
    const removed = await t.json('POST', `/api/admin/RemoveUserPlan?id=${u.user.id}`, { token: admin.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data.plan).toMatchObject({ plan: 'free', subscription: { status: 'canceled' } });
    expect(credits(await walletOf(db(), u.email))).toEqual(FREE_ALLOWANCE);

    const checkout = await t.json('GET', '/api/payment/subscribe?plan=plus&planDuration=year', { token: u.token });
    await stripe.completeCheckout(new URL(checkout.body.data.url).pathname.split('/').pop()!);
    expect((await plan()).plan).toMatchObject({ plan: 'plus', subscription: { source: 'stripe', status: 'active' } });
    const paid = await t.json('POST', `/api/admin/RemoveUserPlan?id=${u.user.id}`, { token: admin.token });
    expect(paid.status).toBe(200);
    expect(paid.body.data.plan).toMatchObject({ plan: 'free', subscription: { source: 'stripe', status: 'canceled' } });

    const none = await t.json('POST', `/api/admin/RemoveUserPlan?id=${u.user.id}`, { token: admin.token });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('NO_SUBSCRIPTION');
    expect(
      (await auditRows(u.user.id)).map((e) => [
        e.action,
        (e.before as { plan: string }).plan,
        (e.after as { plan: string }).plan,
      ]),
    ).toEqual([
      ['user.removePlan', 'pro', 'free'],
      ['user.removePlan', 'plus', 'free'],
    ]);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('lists organizations (none here yet), and a plan in an unknown organization is a 404', async () => {
    const admin = await siteAdmin();
    const orgs = await t.json('POST', '/api/admin/organizations', { token: admin.token, body: {} });
    expect(orgs.body.data).toEqual({ available: true, organizations: [], total: 0 });
    const inOrg = await t.json('POST', '/api/admin/userPlan', {
      token: admin.token,
      body: { id: admin.id, org: '00000000-0000-4000-8000-000000000000' },
    });
    expect(inOrg.status).toBe(404);
  });
});

describe('error logs', () => {
  it('lists with filters, deletes one and everything before a date, each deletion in the audit log', async () => {
    const admin = await siteAdmin();
    await db().delete(errorLogs);
    const day = 86400_000;
    const old = await insertErrorLog(new Date(Date.now() - 10 * day), '/api/ai/chat', 'provider exploded');
    const mid = await insertErrorLog(new Date(Date.now() - 5 * day), '/api/user/profile', 'database hiccup');
    const fresh = await insertErrorLog(new Date(Date.now() - 1000), '/api/ai/chat?x=1', 'timeout 50% of the time');

    const list = async (body: Record<string, unknown>) => {
      const res = await t.json('POST', '/api/admin/errorsLog', { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { logs: { id: string }[]; total: number };
    };
    expect((await list({})).logs.map((l) => l.id)).toEqual([fresh.id, mid.id, old.id]);
    expect((await list({ path: '/api/ai/chat' })).logs.map((l) => l.id)).toEqual([fresh.id, old.id]);
    expect((await list({ search: '50%' })).logs.map((l) => l.id)).toEqual([fresh.id]);
    expect((await list({ status: 404 })).total).toBe(0);
    expect((await list({ status: 500, pageSize: 1, page: 2 })).logs.map((l) => l.id)).toEqual([mid.id]);
    const iso = (ms: number) => new Date(Date.now() - ms).toISOString();
    expect((await list({ from: iso(7 * day), to: iso(2 * day) })).logs.map((l) => l.id)).toEqual([mid.id]);
    expect(
      (await t.json('POST', '/api/admin/errorsLog', { token: admin.token, body: { from: 'yesterday' } })).status,
    ).toBe(400);
    // Well formed, a date to JavaScript, but a year the database has not got: refused, not a 500.
    const yearZero = '0000-01-01T00:00:00Z';
    for (const body of [{ from: yearZero }, { to: yearZero }]) {
      const res = await t.json('POST', '/api/admin/errorsLog', { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    expect(
      (await t.json('DELETE', `/api/admin/deleteErrorLog?before=${yearZero}`, { token: admin.token })).status,
    ).toBe(400);

    const one = await t.json('DELETE', `/api/admin/deleteErrorLog?id=${mid.id}`, { token: admin.token });
    expect(one.body.data).toEqual({ deleted: 1 });
    expect((await t.json('DELETE', `/api/admin/deleteErrorLog?id=${mid.id}`, { token: admin.token })).status).toBe(404);
    const before = await t.json('DELETE', `/api/admin/deleteErrorLog?before=${encodeURIComponent(iso(day))}`, {
      token: admin.token,
    });
    expect(before.body.data).toEqual({ deleted: 1 });
    expect((await list({})).logs.map((l) => l.id)).toEqual([fresh.id]);
    // Neither both nor none.
    expect((await t.json('DELETE', '/api/admin/deleteErrorLog', { token: admin.token })).status).toBe(400);
    expect(
      (
        await t.json('DELETE', `/api/admin/deleteErrorLog?id=${fresh.id}&before=${encodeURIComponent(iso(0))}`, {
          token: admin.token,
        })
      ).status,
    ).toBe(400);

    const audit = await t.json('POST', '/api/admin/audit', { token: admin.token, body: { action: 'errorLog.delete' } });
    const [newest, previous] = audit.body.data.entries;
    expect(newest).toMatchObject({
      actorEmail: admin.email,
      before: { before: expect.any(String) },
      after: { deleted: 1 },
    });
    expect(previous).toMatchObject({ actorEmail: admin.email, before: { id: mid.id }, after: { deleted: 1 } });
  });
});

describe('LinkedIn automations', () => {
  it("lists a person's automations for a site admin, newest first; an unknown person is a 404", async () => {
    const admin = await siteAdmin();
    const owner = await t.signUp();
    const other = await t.signUp();
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    await db()
      .insert(automations)
      .values([
        { userId: owner.user.id, kind: 'post', text: 'first post', runAt: at(60), createdAt: at(-2) },
        { userId: owner.user.id, kind: 'post', text: 'second post', runAt: at(120), createdAt: at(-1) },
        { userId: other.user.id, kind: 'post', text: 'not theirs', runAt: at(60) },
      ]);
    const res = await t.json('POST', '/api/admin/automations', { token: admin.token, body: { id: owner.user.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const listed = res.body.data.automations as { text: string; status: string; kind: string }[];
    expect(listed.map((a) => a.text)).toEqual(['second post', 'first post']);
    expect(listed[0]).toMatchObject({ kind: 'post', status: 'Pending' });

    const unknown = await t.json('POST', '/api/admin/automations', {
      token: admin.token,
      body: { id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    const bad = await t.json('POST', '/api/admin/automations', { token: admin.token, body: { id: 'nope' } });
    expect(bad.status).toBe(400);
  });
});

describe('the audit log', () => {
  it('pages the newest first and filters by person', async () => {
    const admin = await siteAdmin();
    const u = await t.signUp();
    for (const lifetimeUser of [true, false, true]) {
      await t.json('PUT', '/api/admin/editUser', { token: admin.token, body: { id: u.user.id, lifetimeUser } });
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.json('POST', '/api/admin/audit', { token: admin.token, body: { targetUserId: u.user.id, ...body } }))
        .body.data;
    const first = await page({ pageSize: 2 });
    expect(first.total).toBe(3);
    expect(first.entries.map((e: { after: { lifetimeUser: boolean } }) => e.after.lifetimeUser)).toEqual([true, false]);
    const second = await page({ pageSize: 2, page: 2 });
    expect(second.entries.map((e: { after: { lifetimeUser: boolean } }) => e.after.lifetimeUser)).toEqual([true]);
    expect(
      (await t.json('POST', '/api/admin/audit', { token: admin.token, body: { action: 'drop table' } })).status,
    ).toBe(400);
  });
});
