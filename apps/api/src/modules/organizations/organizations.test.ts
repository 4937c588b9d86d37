import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  organizationInvitations,
  organizationMembers,
  organizations,
  walletMembers,
  wallets,
} from '../../db/schema/index.js';
import { hashSecret } from '../../lib/crypto.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { ledgerMismatches, setCredits, usageMismatches, walletOf } from '../../test/wallets.js';

// The clock the app reads: tests move it past an invitation's expiry and into the next month.
let now = new Date('2026-11-23T12:00:00Z');
const clock = () => now;

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp(
    {
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      RATE_LIMIT_PER_IP: '10000',
      RATE_LIMIT_PER_EMAIL: '10000',
      AI_RATE_PER_USER: '10000',
      AI_RATE_PER_IP: '10000',
    },
    { clock },
  );
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.database.db;
type Person = Awaited<ReturnType<TestApp['signUp']>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, body?: unknown) =>
  t.json(method, url, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
const post = (url: string, token?: string, body?: unknown) => call('POST', url, token, body);

/** A person on the Team plan with `seats` seats (a site admin's grant), signed in. */
async function teamOwner(seats = 5) {
  const owner = await t.signUp();
  await t.app.services.payments.assignPlan(owner.user.id as string, {
    plan: 'team',
    duration: 'month',
    seats,
    until: null,
  });
  return owner;
}

async function organizationOf(owner: Person, name = 'Acme') {
  const res = await post('/api/org/create', owner.token, { name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.organization as { id: string; seats: number };
}

/** The key in the last invitation mailed to `email`. */
const inviteKey = (email: string) => t.linkSecret(email, 'key');

async function invite(admin: Person, ...emails: string[]) {
  const res = await post('/api/org-admin/invite/users', admin.token, { emails });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { invited: string[]; alreadyMembers: string[] };
}

async function join(person: Person, key = inviteKey(person.email)) {
  return post('/api/auth/join', person.token, { key });
}

/** An organization with its owner and `members` people who joined by invitation. */
async function team(members = 1, seats = 5) {
  const owner = await teamOwner(seats);
  const org = await organizationOf(owner);
  const people: Person[] = [];
  for (let i = 0; i < members; i++) {
    const p = await t.signUp();
    await invite(owner, p.email);
    expect((await join(p)).status).toBe(200);
    people.push(p);
  }
  return { owner, org, people };
}

const rewrite = (token: string) =>
  post('/api/ai/edit-message', token, { text: 'make it better', model: 'CUSTOM_OPENAI_COMPATIBLE' });
const teamView = async (token: string) => (await post('/api/org/team', token, {})).body.data;
const memberRows = async (organizationId: string) =>
  db().select().from(organizationMembers).where(eq(organizationMembers.organizationId, organizationId));
const auditOf = async (organizationId: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.organizationId, organizationId))).map((r) => r.action);

describe('creating an organization', () => {
  it('is for Team subscribers: the owner is its first admin, its seats are the plan’s', async () => {
    const free = await t.signUp();
    const refused = await post('/api/org/create', free.token, { name: 'Nope' });
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('Creating an organization needs the Team plan.');
    expect((await teamView(free.token)).canCreate).toBe(false);

    const owner = await teamOwner(4);
    expect(await teamView(owner.token)).toMatchObject({ organization: null, canCreate: true });
    const org = await organizationOf(owner, '  Acme Corp ');
    const view = await teamView(owner.token);
    expect(view).toMatchObject({
      organization: { id: org.id, name: 'Acme Corp', seats: 4, members: 1, plan: 'team', ownerId: owner.user.id },
      role: 'admin',
      canCreate: false,
      members: [{ id: owner.user.id, role: 'admin', isOwner: true, limit: null, used: 0 }],
    });
    // One organization per person.
    expect((await post('/api/org/create', owner.token, { name: 'Second' })).status).toBe(400);
    expect(await auditOf(org.id)).toEqual(['organization.create']);
  });
});

describe('invitations', () => {
  it('a member joins with the key mailed to their verified address, and spends from the organization’s wallet', async () => {
    const owner = await teamOwner();
    const org = await organizationOf(owner);
    const ann = await t.signUp({ name: 'Ann' });
    const result = await invite(owner, ann.email.toUpperCase(), owner.email);
    expect(result).toEqual({ invited: [ann.email], alreadyMembers: [owner.email] });

    const mail = t.mail.last(ann.email)!;
    expect(mail.subject).toBe('You are invited to join an organization on Parley');
    expect(mail.text).toContain('invited you to join Acme on Parley');
    const key = inviteKey(ann.email);
    expect(key.length).toBeGreaterThanOrEqual(40);
    // The key is stored only as its hash and never returned by any call.
    const [stored] = await db()
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.email, ann.email));
    expect(stored!.tokenHash).toBe(hashSecret(key));
    const listed = await post('/api/org/invites', owner.token, {});
    expect(listed.body.data.invitations).toEqual([
      expect.objectContaining({ email: ann.email, expired: false, invitedBy: expect.any(String) }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(JSON.stringify(listed.body)).not.toContain(stored!.tokenHash);

    const joined = await join(ann, key);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.data).toEqual({ organization: { id: org.id, name: 'Acme' } });
    expect((await teamView(ann.token)).role).toBe('user');
    // Members see each other; limits and use are an admin's to see, but each member sees their own.
    const annSees = (await teamView(ann.token)).members as { id: string; used: number | null }[];
    expect(annSees.find((m) => m.id === owner.user.id)!.used).toBeNull();
    expect(annSees.find((m) => m.id === ann.user.id)!.used).toBe(0);

    const ownWallet = await walletOf(db(), ann.email);
    const orgWallet = await walletOf(db(), owner.email);
    expect((await rewrite(ann.token)).status).toBe(200);
    expect(await walletOf(db(), ann.email)).toMatchObject({ dailyCredit: ownWallet.dailyCredit, basicUse: 0 });
    const after = await walletOf(db(), owner.email);
    expect(after.dailyCredit + after.basicCredit).toBe(orgWallet.dailyCredit + orgWallet.basicCredit - 1);
    const usage = (await call('GET', '/api/user/usage', ann.token)).body.data;
    expect(usage.plan).toBe('team');
    const seen = (await teamView(owner.token)).members.find((m: { id: string }) => m.id === ann.user.id);
    expect(seen).toMatchObject({ role: 'user', used: 1, limit: null });
    expect(await auditOf(org.id)).toEqual(['organization.create', 'organization.invite', 'organization.join']);
    expect(await ledgerMismatches(db())).toEqual([]);
    expect(await usageMismatches(db())).toEqual([]);
  });

  it('misused keys change nothing: another address, reused, expired, revoked, replaced, an inviter no longer admin', async () => {
    const { owner, org, people } = await team(1);
    const [bob] = people;
    const eve = await t.signUp();
    const cara = await t.signUp();

    // Sent to Cara, used by Eve.
    await invite(owner, cara.email);
    const caraKey = inviteKey(cara.email);
    const stolen = await join(eve, caraKey);
    expect(stolen.status).toBe(403);
    expect(stolen.body.message).toBe(
      'This invitation was sent to another email address. Sign in with the address it was sent to.',
    );
    // A key used once does not work again (Bob's).
    const bobKey = (
      await db().select().from(organizationInvitations).where(eq(organizationInvitations.usedBy, bob!.user.id))
    )[0]!;
    expect(bobKey.usedAt).not.toBeNull();
    // Unknown and malformed keys.
    expect((await join(eve, 'x'.repeat(43))).status).toBe(400);
    expect((await join(eve, 'short')).status).toBe(400);

    // Resent: the first link stops working, the new one works... but first, revoked.
    const resent = await post(
      `/api/org-admin/invite/resend?id=${(await post('/api/org/invites', owner.token, {})).body.data.invitations[0].id}`,
      owner.token,
    );
    expect(resent.status).toBe(200);
    const newKey = inviteKey(cara.email);
    expect(newKey).not.toBe(caraKey);
    expect((await join(cara, caraKey)).body.message).toBe(
      "This invitation is no longer valid. Ask the organization's admin for a new one.",
    );
    const id = resent.body.data.invitations[0].id;
    expect((await post(`/api/org-admin/invite/revoke?id=${id}`, owner.token)).status).toBe(200);
    expect((await join(cara, newKey)).status).toBe(400);
    expect((await post('/api/org/invites', owner.token, {})).body.data.invitations).toEqual([]);

    // Expired.
    await invite(owner, cara.email);
    const expiring = inviteKey(cara.email);
    now = new Date(now.getTime() + 8 * 86_400_000);
    try {
      expect((await join(cara, expiring)).status).toBe(400);
      expect((await post('/api/org/invites', owner.token, {})).body.data.invitations[0].expired).toBe(true);
    } finally {
      now = new Date(now.getTime() - 8 * 86_400_000);
    }

    // Invited by an admin who has since been made a user: the invitation no longer stands.
    expect((await post(`/api/org-admin/make-admin/user?id=${bob!.user.id}`, owner.token)).status).toBe(200);
    const dan = await t.signUp();
    await invite(bob!, dan.email);
    const danKey = inviteKey(dan.email);
    expect((await post(`/api/org-admin/remove/admin?id=${bob!.user.id}`, owner.token)).status).toBe(200);
    expect((await join(dan, danKey)).status).toBe(400);

    const members = await memberRows(org.id);
    expect(members.map((m) => m.userId).sort()).toEqual([owner.user.id, bob!.user.id].sort());
    expect(await db().select().from(walletMembers).where(eq(walletMembers.userId, eve.user.id))).toEqual([]);
  });

  it('no more members than seats: invitations hold a seat, and a full organization refuses a join', async () => {
    const owner = await teamOwner(3);
    const org = await organizationOf(owner);
    const [a, b, c] = [await t.signUp(), await t.signUp(), await t.signUp()];
    const full = await post('/api/org-admin/invite/users', owner.token, { emails: [a.email, b.email, c.email] });
    expect(full.status).toBe(400);
    expect(full.body.message).toBe('All 3 seats of the organization are taken. Add seats to the Team plan first.');
    expect((await post('/api/org/invites', owner.token, {})).body.data.invitations).toEqual([]);
    await invite(owner, a.email, b.email);
    // Re-inviting a pending address takes no new seat.
    await invite(owner, a.email);
    expect((await post('/api/org-admin/invite/users', owner.token, { emails: [c.email] })).status).toBe(400);
    expect((await join(a)).status).toBe(200);
    expect((await join(b)).status).toBe(200);
    expect((await memberRows(org.id)).length).toBe(3);

    // Seats taken away (the plan changed): a pending invitation can no longer be used.
    const small = await teamOwner(2);
    await organizationOf(small);
    await invite(small, c.email);
    await db().update(wallets).set({ seats: 1 }).where(eq(wallets.userId, small.user.id));
    const refused = await join(c);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('All 1 seats');
  });

  it('a resent invitation is the resender’s, and an expired one sent again needs a free seat', async () => {
    const owner = await teamOwner(3);
    await organizationOf(owner);
    const bob = await t.signUp();
    await invite(owner, bob.email);
    expect((await join(bob)).status).toBe(200);
    await post(`/api/org-admin/make-admin/user?id=${bob.user.id}`, owner.token);
    const [dan, eve, fay] = [await t.signUp(), await t.signUp(), await t.signUp()];
    await invite(bob, dan.email);
    await post(`/api/org-admin/remove/admin?id=${bob.user.id}`, owner.token);
    const danInvite = (await post('/api/org/invites', owner.token, {})).body.data.invitations[0];
    expect((await post(`/api/org-admin/invite/resend?id=${danInvite.id}`, owner.token)).status).toBe(200);
    // Sent again by the owner: it stands although Bob is no longer an admin.
    expect((await join(dan)).status).toBe(200);

    // Three seats, three members: an invitation that expired cannot come back.
    const small = await teamOwner(2);
    await organizationOf(small);
    await invite(small, eve.email);
    now = new Date(now.getTime() + 8 * 86_400_000);
    try {
      await invite(small, fay.email);
      const expired = (await post('/api/org/invites', small.token, {})).body.data.invitations.find(
        (i: { email: string }) => i.email === eve.email,
      );
      const again = await post(`/api/org-admin/invite/resend?id=${expired.id}`, small.token);
      expect(again.status).toBe(400);
      expect(again.body.message).toContain('All 2 seats');
    } finally {
      now = new Date(now.getTime() - 8 * 86_400_000);
    }
  });

  it('one person joining two organizations at once ends in one membership and a clear message', async () => {
    const a = await teamOwner();
    const b = await teamOwner();
    await organizationOf(a, 'A');
    await organizationOf(b, 'B');
    const zed = await t.signUp();
    await invite(a, zed.email);
    const keyA = inviteKey(zed.email);
    await invite(b, zed.email);
    const keyB = inviteKey(zed.email);
    const answers = await Promise.all([join(zed, keyA), join(zed, keyB)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.status === 400)!.body.message).toBe(
      'You are already a member of an organization. Leave it first.',
    );
    expect(
      (await db().select().from(organizationMembers).where(eq(organizationMembers.userId, zed.user.id))).length,
    ).toBe(1);
  });

  it('escapes names in the mail: no header or markup from an organization’s or an inviter’s name', async () => {
    const owner = await t.signUp({ name: 'Mallory\r\nBcc: victim@example.com' });
    await t.app.services.payments.assignPlan(owner.user.id as string, {
      plan: 'team',
      duration: 'month',
      seats: 3,
      until: null,
    });
    await organizationOf(owner, '<img src=x onerror=alert(1)> Evil');
    const guest = await t.signUp();
    await invite(owner, guest.email);
    const mail = t.mail.last(guest.email)!;
    expect(mail.to).toBe(guest.email);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).not.toContain('\r\nBcc');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; Evil');
  });
});

describe('roles', () => {
  it('admins promote and demote; the last admin cannot step down or leave; the owner stays', async () => {
    const { owner, org, people } = await team(2);
    const [ann, bob] = people as [Person, Person];

    // The owner is the only admin: they cannot switch to user, nor leave, nor be removed.
    const alone = await post(`/api/org-admin/remove/admin?id=${owner.user.id}`, owner.token);
    expect(alone.status).toBe(400);
    expect(alone.body.message).toBe('An organization needs at least one admin. Make someone else admin first.');
    const leaving = await post(`/api/org/leave?id=${org.id}`, owner.token);
    expect(leaving.status).toBe(400);
    expect(leaving.body.message).toBe(
      "The organization's owner pays for its plan: they cannot leave it or be removed.",
    );

    // A user cannot do admin things.
    expect((await post(`/api/org-admin/make-admin/user?id=${ann.user.id}`, ann.token)).status).toBe(403);
    expect((await post(`/api/org-admin/remove/user?id=${bob.user.id}`, ann.token)).status).toBe(403);

    expect((await post(`/api/org-admin/make-admin/user?id=${ann.user.id}`, owner.token)).status).toBe(200);
    expect((await post(`/api/org-admin/remove/user?id=${owner.user.id}`, ann.token)).status).toBe(400);
    // Switch To User: the owner steps down now that Ann is an admin.
    const switched = await post(`/api/org-admin/remove/admin?id=${owner.user.id}`, owner.token);
    expect(switched.status).toBe(200);
    expect(switched.body.data.role).toBe('user');
    // Ann is now the last admin: she cannot step down or leave.
    expect((await post(`/api/org-admin/remove/admin?id=${ann.user.id}`, ann.token)).status).toBe(400);
    expect((await post(`/api/org/leave?id=${org.id}`, ann.token)).status).toBe(400);
    // Bob leaves; Ann removes nobody else; the owner is still a member.
    const left = await post(`/api/org/leave?id=${org.id}`, bob.token);
    expect(left.status).toBe(200);
    expect(left.body.data.organization).toBeNull();
    expect((await memberRows(org.id)).map((m) => [m.userId, m.role]).sort()).toEqual(
      [
        [owner.user.id, 'user'],
        [ann.user.id, 'admin'],
      ].sort(),
    );
    // Bob spends from his own wallet again.
    const bobWallet = await walletOf(db(), bob.email);
    expect((await rewrite(bob.token)).status).toBe(200);
    expect((await walletOf(db(), bob.email)).basicUse).toBe(bobWallet.basicUse + 1);
    expect(await auditOf(org.id)).toEqual(
      expect.arrayContaining(['organization.makeAdmin', 'organization.makeUser', 'organization.leave']),
    );
  });
});

describe('the owner', () => {
  it('another admin can neither demote the owner nor limit their spending; the owner may step down themself', async () => {
    const { owner, people } = await team(1);
    const [ann] = people as [Person];
    await post(`/api/org-admin/make-admin/user?id=${ann.user.id}`, owner.token);
    const demote = await post(`/api/org-admin/remove/admin?id=${owner.user.id}`, ann.token);
    expect(demote.status).toBe(400);
    expect(demote.body.message).toBe("The organization's owner pays for its plan: they cannot leave it or be removed.");
    expect((await post('/api/org-admin/member-token/limit', ann.token, { id: owner.user.id, limit: 0 })).status).toBe(
      400,
    );
    expect((await rewrite(owner.token)).status).toBe(200);
    // The owner limits themself, and steps down.
    expect(
      (await post('/api/org-admin/member-token/limit', owner.token, { id: owner.user.id, limit: 50 })).status,
    ).toBe(200);
    expect((await post(`/api/org-admin/remove/admin?id=${owner.user.id}`, owner.token)).status).toBe(200);
  });
});

describe('member limits', () => {
  it('a member spends up to their monthly limit; then the clear message; the next month counts anew', async () => {
    const { owner, people } = await team(1);
    const [ann] = people as [Person];
    const set = await post('/api/org-admin/member-token/limit', owner.token, { id: ann.user.id, limit: 2 });
    expect(set.status).toBe(200);
    expect(set.body.data.members.find((m: { id: string }) => m.id === ann.user.id)).toMatchObject({ limit: 2 });
    expect((await rewrite(ann.token)).status).toBe(200);
    expect((await rewrite(ann.token)).status).toBe(200);
    const stopped = await rewrite(ann.token);
    expect(stopped.status).toBe(402);
    expect(stopped.body.message).toBe('You need to upgrade plan to continue...');
    // The owner (no limit) goes on.
    expect((await rewrite(owner.token)).status).toBe(200);
    // Lowering below what was used stops at once; raising lets them go on.
    await post('/api/org-admin/member-token/limit', owner.token, { id: ann.user.id, limit: 3 });
    expect((await rewrite(ann.token)).status).toBe(200);
    expect((await rewrite(ann.token)).status).toBe(402);
    now = new Date('2026-12-01T00:00:01Z');
    try {
      expect((await rewrite(ann.token)).status).toBe(200);
      const seen = (await teamView(owner.token)).members.find((m: { id: string }) => m.id === ann.user.id);
      expect(seen).toMatchObject({ used: 1, limit: 3 });
    } finally {
      now = new Date('2026-11-23T12:00:00Z');
    }
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('20 concurrent spends against a limit of 5: exactly 5 pass, the use and the ledger agree', async () => {
    const { owner, people } = await team(1);
    const [ann] = people as [Person];
    await post('/api/org-admin/member-token/limit', owner.token, { id: ann.user.id, limit: 5 });
    const before = await walletOf(db(), owner.email);
    const answers = await Promise.all(Array.from({ length: 20 }, () => rewrite(ann.token)));
    expect(answers.filter((a) => a.status === 200).length).toBe(5);
    expect(answers.filter((a) => a.status === 402).length).toBe(15);
    const after = await walletOf(db(), owner.email);
    expect(before.dailyCredit + before.basicCredit - (after.dailyCredit + after.basicCredit)).toBe(5);
    const [row] = await db().select().from(walletMembers).where(eq(walletMembers.userId, ann.user.id));
    expect(row!.used).toBe(5);
    expect(await ledgerMismatches(db())).toEqual([]);
    expect(await usageMismatches(db())).toEqual([]);
  });

  it('a failed call gives the member’s use back with the credit', async () => {
    const { owner, people } = await team(1);
    const [ann] = people as [Person];
    await post('/api/org-admin/member-token/limit', owner.token, { id: ann.user.id, limit: 1 });
    const failed = await post('/api/ai/edit-message', ann.token, {
      text: 'please #fail500',
      model: 'CUSTOM_OPENAI_COMPATIBLE',
    });
    expect(failed.status).toBe(502);
    const [row] = await db().select().from(walletMembers).where(eq(walletMembers.userId, ann.user.id));
    expect(row!.used).toBe(0);
    expect((await rewrite(ann.token)).status).toBe(200);
    expect((await rewrite(ann.token)).status).toBe(402);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('a request that chose the organization’s wallet before its sender left spends nothing from it', async () => {
    const { owner, org, people } = await team(1);
    const [ann] = people as [Person];
    await post('/api/org-admin/member-token/limit', owner.token, { id: ann.user.id, limit: 0 });
    const orgWallet = await walletOf(db(), owner.email);
    // What a request resolved before the leave: Ann paying from the organization's wallet.
    const stale = {
      user: { id: ann.user.id as string, timezone: 'UTC' },
      wallet: { id: orgWallet.id, plan: 'team' as const },
    };
    expect((await post(`/api/org/leave?id=${org.id}`, ann.token)).status).toBe(200);
    const billing = t.app.services.billing;
    await expect(
      billing.metered(stale, { capability: 'rewrite', tier: 'basic', keySource: 'server' }, async () => 'x'),
    ).rejects.toMatchObject({ code: 'OUT_OF_CREDITS' });
    expect(await walletOf(db(), owner.email)).toMatchObject({
      dailyCredit: orgWallet.dailyCredit,
      basicCredit: orgWallet.basicCredit,
    });
  });

  it('an organization out of credits stops its members too', async () => {
    const { owner, people } = await team(1);
    const [ann] = people as [Person];
    await setCredits(db(), owner.email, { dailyCredit: 0, basicCredit: 0 });
    expect((await rewrite(ann.token)).status).toBe(402);
    const [row] = await db().select().from(walletMembers).where(eq(walletMembers.userId, ann.user.id));
    expect(row!.used).toBe(0);
  });
});

describe('who may call what', () => {
  it('anonymous, a member, another organization’s admin and a site admin: 401, 403 or 404, and nothing changes', async () => {
    const { owner, org, people } = await team(2);
    const [ann, bob] = people as [Person, Person];
    const other = await team(1);
    const site = await t.signUp();
    await db().execute(sql`UPDATE users SET role = 'admin' WHERE id = ${site.user.id}::uuid`);
    await invite(owner, 'pending@example.com');
    const invitationId = (await post('/api/org/invites', owner.token, {})).body.data.invitations[0].id as string;

    const adminCalls: [string, unknown?][] = [
      [`/api/org-admin/remove/user?id=${bob.user.id}`],
      [`/api/org-admin/make-admin/user?id=${bob.user.id}`],
      [`/api/org-admin/remove/admin?id=${owner.user.id}`],
      ['/api/org-admin/member-token/limit', { id: bob.user.id, limit: 0 }],
      [`/api/org-admin/invite/revoke?id=${invitationId}`],
      [`/api/org-admin/invite/resend?id=${invitationId}`],
      ['/api/org-admin/invite/users', { emails: ['x@example.com'] }],
      ['/api/org/invites', {}],
    ];
    const snapshot = async () => ({
      members: (await memberRows(org.id)).map((m) => [m.userId, m.role]).sort(),
      limits: (await db().select().from(walletMembers)).map((m) => [m.userId, m.monthlyLimit]).sort(),
      invitations: (
        await db().select().from(organizationInvitations).where(eq(organizationInvitations.organizationId, org.id))
      ).map((i) => [i.id, i.tokenHash, i.revokedAt]),
    });
    const before = await snapshot();
    for (const [url, body] of adminCalls) {
      expect((await post(url, undefined, body)).status, `anonymous ${url}`).toBe(401);
      expect((await post(url, ann.token, body)).status, `member ${url}`).toBe(403);
      // Another organization's admin: this organization's people and invitations are not theirs to see.
      const foreign = await post(url, other.owner.token, body);
      if (url.includes('?id=') || url.endsWith('/limit')) {
        expect(foreign.status, `other admin ${url}`).toBe(404);
      } else {
        expect(foreign.status, `other admin ${url}`).toBe(200);
      }
      // A site admin who belongs to no organization acts through the admin portal, not here.
      expect((await post(url, site.token, body)).status, `site admin ${url}`).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
    // Leaving someone else's organization is not possible; neither is seeing its team.
    expect((await post(`/api/org/leave?id=${org.id}`, other.people[0]!.token)).status).toBe(404);
    expect((await post(`/api/org/leave?id=${org.id}`, site.token)).status).toBe(404);
    expect((await teamView(other.owner.token)).organization.id).toBe(other.org.id);
    expect((await post('/api/org/team', undefined, {})).status).toBe(401);
    // The other organization's invitation went to other.org, not to this one.
    const otherInvites = await db()
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.email, 'x@example.com'));
    expect(otherInvites.map((i) => i.organizationId)).toEqual([other.org.id]);
  });

  it('fields the caller may not set are refused, and change nothing', async () => {
    const { owner, org, people } = await team(1);
    const [ann] = people as [Person];
    const before = await memberRows(org.id);
    const attempts: [string, unknown][] = [
      ['/api/org/create', { name: 'X', role: 'admin' }],
      ['/api/org/team', { organizationId: org.id }],
      ['/api/org-admin/member-token/limit', { id: ann.user.id, limit: 5, role: 'admin' }],
      ['/api/org-admin/member-token/limit', { id: ann.user.id, limit: -1 }],
      ['/api/org-admin/member-token/limit', { id: ann.user.id, limit: 1.5 }],
      ['/api/org-admin/invite/users', { emails: ['a@example.com'], role: 'admin', orgId: org.id }],
      ['/api/org-admin/invite/users', { emails: ['not an address'] }],
      ['/api/org-admin/invite/users', { emails: Array.from({ length: 21 }, (_, i) => `p${i}@example.com`) }],
      ['/api/auth/join', { key: 'k'.repeat(43), organizationId: org.id, role: 'admin' }],
      ['/api/org/create', { name: 'x'.repeat(81) }],
    ];
    for (const [url, body] of attempts) {
      const res = await post(url, url.includes('join') ? ann.token : owner.token, body);
      expect(res.status, url).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect(await memberRows(org.id)).toEqual(before);
    const [limit] = await db().select().from(walletMembers).where(eq(walletMembers.userId, ann.user.id));
    expect(limit!.monthlyLimit).toBeNull();
  });

  it('a member buys and changes only their own plan: the organization’s subscription is out of their reach', async () => {
    const { owner, people } = await team(1);
    const [ann] = people as [Person];
    const plan = (await call('GET', '/api/payment/current-plan', ann.token)).body.data;
    expect(plan.plan).toBe('free');
    expect((await post('/api/payment/cancel-subscription', ann.token)).status).not.toBe(200);
    const ownerPlan = (await call('GET', '/api/payment/current-plan', owner.token)).body.data;
    expect(ownerPlan.plan).toBe('team');
    expect(ownerPlan.subscription).not.toBeNull();
  });
});

describe('the site admin and organizations', () => {
  it('lists, opens, creates for a person, shows the plan that pays for a member; deleting the owner closes it', async () => {
    const { owner, org, people } = await team(1);
    const [ann] = people as [Person];
    const site = await t.signUp();
    await db().execute(sql`UPDATE users SET role = 'admin' WHERE id = ${site.user.id}::uuid`);

    const list = await post('/api/admin/organizations', site.token, { search: 'Acme' });
    expect(list.status).toBe(200);
    expect(list.body.data.organizations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: org.id, name: 'Acme', members: 2, seats: 5, plan: 'team' }),
      ]),
    );
    const details = await post('/api/admin/organizations/members', site.token, { id: org.id });
    expect(details.body.data.members.map((m: { id: string }) => m.id).sort()).toEqual(
      [owner.user.id, ann.user.id].sort(),
    );
    const plan = await post('/api/admin/userPlan', site.token, { id: ann.user.id, org: org.id });
    expect(plan.status).toBe(200);
    expect(plan.body.data.plan.plan).toBe('team');
    // A person who is not a member of that organization: 404.
    expect((await post('/api/admin/userPlan', site.token, { id: site.user.id, org: org.id })).status).toBe(404);
    // Only site admins.
    expect((await post('/api/admin/organizations/members', owner.token, { id: org.id })).status).toBe(403);
    expect(
      (await post('/api/admin/organizations/create', owner.token, { name: 'X', ownerEmail: ann.email })).status,
    ).toBe(403);

    const newOwner = await t.signUp();
    const made = await post('/api/admin/organizations/create', site.token, {
      name: 'Made',
      ownerEmail: newOwner.email,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.organization).toMatchObject({ name: 'Made', ownerId: newOwner.user.id, seats: 1 });
    expect((await teamView(newOwner.token)).role).toBe('admin');
    // Someone already in an organization cannot be given another.
    expect(
      (await post('/api/admin/organizations/create', site.token, { name: 'Y', ownerEmail: ann.email })).status,
    ).toBe(400);
    const created = await db().select().from(auditLog).where(eq(auditLog.action, 'organization.create'));
    expect(created.some((r) => r.actorId === site.user.id && r.targetUserId === newOwner.user.id)).toBe(true);

    // The owner's account is deleted: the organization closes, Ann spends from her own wallet again.
    const deleted = await call('DELETE', `/api/admin/deleteUser?id=${owner.user.id}`, site.token);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await db().select().from(organizations).where(eq(organizations.id, org.id))).toEqual([]);
    expect((await teamView(ann.token)).organization).toBeNull();
    const annWallet = await walletOf(db(), ann.email);
    expect((await rewrite(ann.token)).status).toBe(200);
    expect((await walletOf(db(), ann.email)).basicUse).toBe(annWallet.basicUse + 1);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('deleting the last admin (not the owner) gives the owner the admin role back', async () => {
    const { owner, org, people } = await team(1);
    const [ann] = people as [Person];
    await post(`/api/org-admin/make-admin/user?id=${ann.user.id}`, owner.token);
    await post(`/api/org-admin/remove/admin?id=${owner.user.id}`, owner.token);
    const site = await t.signUp();
    await db().execute(sql`UPDATE users SET role = 'admin' WHERE id = ${site.user.id}::uuid`);
    expect((await call('DELETE', `/api/admin/deleteUser?id=${ann.user.id}`, site.token)).status).toBe(200);
    expect((await memberRows(org.id)).map((m) => [m.userId, m.role])).toEqual([[owner.user.id, 'admin']]);
  });
});
