import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedinConnections, linkedinOauthStates } from '../../db/schema/index.js';
import { createSecretBox } from '../../lib/secret-box.js';
import type { LinkedinClient } from '../../providers/linkedin/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeLinkedin, type FakeLinkedin } from '../../test/fake-linkedin.js';
import { createLinkedinConnection } from './linkedin.connection.service.js';

let fake: FakeLinkedin;
let t: TestApp;
let now = new Date();
const clock = () => now;
const logs: string[] = [];

beforeAll(async () => {
  fake = await startFakeLinkedin({ clock });
  t = await createTestApp({ ...fake.env(), RATE_LIMIT_PER_IP: '10000' }, { clock, logs });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

let lastBack: URL | null = null;
/** What the browser does: open the authorization URL, approve, come back with `code` and `state`. */
async function approve(url: string) {
  const res = await fetch(`${url}&format=json`);
  const back = new URL(((await res.json()) as { redirect: string }).redirect);
  lastBack = back;
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

async function connectUrl(token: string) {
  const res = await t.json('POST', '/api/linkedin/connect', { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.url as string;
}

describe('the LinkedIn connection', () => {
  it('connects: the state is checked, the token is stored encrypted with its expiry, and the page shows it', async () => {
    const me = await t.signUp();
    expect((await t.json('GET', '/api/linkedin/connection', { token: me.token })).body.data).toEqual({
      configured: true,
      state: 'none',
      name: null,
      email: null,
      picture: null,
      expiresAt: null,
      canPost: false,
    });

    const url = new URL(await connectUrl(me.token));
    expect(url.searchParams.get('redirect_uri')).toBe('http://parley.test/linkedin-auth-redirect');
    expect(url.searchParams.get('scope')).toBe('openid profile email w_member_social');
    const state = url.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(40);
    // Only its hash is kept.
    const stored = await t.database.db.select().from(linkedinOauthStates);
    expect(stored.some((s) => s.stateHash === state)).toBe(false);
    expect(stored.some((s) => /^[0-9a-f]{64}$/.test(s.stateHash))).toBe(true);

    const { code } = await approve(url.toString());
    const back = lastBack!;
    expect(back.origin + back.pathname).toBe('http://parley.test/linkedin-auth-redirect');
    const done = await t.json('POST', '/api/linkedin/callback', { token: me.token, body: { code, state } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toBe('LinkedIn connected.');
    expect(done.body.data).toMatchObject({
      configured: true,
      state: 'connected',
      name: 'Robin Example',
      email: 'robin@example.com',
      picture: `${fake.url}/media/robin.png`,
      canPost: true,
    });
    // The picture is a real image on LinkedIn's (here: the stand-in's) picture host, which the pages may load.
    const picture = await fetch(done.body.data.picture);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).toMatchObject({
      format: 'png',
      width: 96,
      height: 96,
    });
    const page = await t.app.inject({ method: 'GET', url: '/automation/linkedin-access-1' });
    const imgSrc = /img-src ([^;]*)/.exec(String(page.headers['content-security-policy']))![1]!.split(' ');
    expect(imgSrc).toContain(fake.url);
    expect(imgSrc).toContain('https://media.licdn.com');
    expect(new Date(done.body.data.expiresAt).getTime()).toBeGreaterThan(now.getTime() + 59 * 86_400_000);

    // The token is nowhere in the database in the clear, nor in the logs.
    const [row] = await t.database.db
      .select()
      .from(linkedinConnections)
      .where(eq(linkedinConnections.userId, me.user.id));
    expect(row!.memberId).toBe(fake.member.sub);
    expect(row!.accessTokenEnc).toMatch(/^v1\./);
    const issued = fake.revoked.length; // (none revoked yet for this one)
    const everything = JSON.stringify(await t.database.db.execute('SELECT * FROM linkedin_connections'));
    // The tokens themselves, not a pattern: a ciphertext can hold "AQ" and 20 more letters by chance.
    const handedOut = fake.issuedTokens();
    expect(handedOut.length).toBeGreaterThan(0);
    for (const token of handedOut) {
      expect(everything).not.toContain(token);
      expect(logs.join('\n')).not.toContain(token);
    }
    expect(fake.revoked.length).toBe(issued);
  });

  it('refuses a forged, a replayed, an expired and another person’s state, in the caller’s language', async () => {
    const me = await t.signUp();
    const other = await t.signUp();

    const forged = await t.json('POST', '/api/linkedin/callback', {
      token: me.token,
      body: {
        code: fake.authorize({ redirectUri: 'http://parley.test/linkedin-auth-redirect' }),
        state: 'x'.repeat(43),
      },
      lang: 'fr',
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'LINKEDIN_STATE_INVALID' });
    expect(forged.body.message).toMatch(/Veuillez vous reconnecter/);

    // Used once: the second time it is refused, and LinkedIn is not asked again.
    const first = await approve(await connectUrl(me.token));
    expect((await t.json('POST', '/api/linkedin/callback', { token: me.token, body: first })).status).toBe(200);
    const tokenCalls = fake.count('POST /oauth/v2/accessToken');
    const replay = await t.json('POST', '/api/linkedin/callback', { token: me.token, body: first });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('LINKEDIN_STATE_INVALID');
    expect(fake.count('POST /oauth/v2/accessToken')).toBe(tokenCalls);

    // Someone else's state (a link sent to a victim) does not connect the victim's account to the sender's LinkedIn.
    const theirs = await approve(await connectUrl(other.token));
    const stolen = await t.json('POST', '/api/linkedin/callback', { token: me.token, body: theirs });
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe('LINKEDIN_STATE_INVALID');
    // …and it is spent: its owner cannot use it after that either.
    expect((await t.json('POST', '/api/linkedin/callback', { token: other.token, body: theirs })).status).toBe(400);

    // Past its 10 minutes.
    const late = await approve(await connectUrl(other.token));
    now = new Date(now.getTime() + 10 * 60_000 + 1_000);
    try {
      const expired = await t.json('POST', '/api/linkedin/callback', { token: other.token, body: late, lang: 'es' });
      expect(expired.status).toBe(400);
      expect(expired.body.code).toBe('LINKEDIN_STATE_INVALID');
    } finally {
      now = new Date();
    }
    expect((await t.json('GET', '/api/linkedin/connection', { token: other.token })).body.data.state).toBe('none');
  });

  it('connecting again replaces the token and revokes the one it replaces', async () => {
    const me = await t.signUp();
    const first = await approve(await connectUrl(me.token));
    await t.json('POST', '/api/linkedin/callback', { token: me.token, body: first });
    expect(fake.tokenCount()).toBeGreaterThan(0);
    const revoked = fake.revoked.length;
    const second = await approve(await connectUrl(me.token));
    const res = await t.json('POST', '/api/linkedin/callback', { token: me.token, body: second });
    expect(res.body.data.state).toBe('connected');
    expect(fake.revoked.length).toBe(revoked + 1);
  });

  it('refuses a code LinkedIn does not accept, and validates the input', async () => {
    const me = await t.signUp();
    const { state } = await approve(await connectUrl(me.token));
    const bad = await t.json('POST', '/api/linkedin/callback', {
      token: me.token,
      body: { code: 'not-a-code', state },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('LINKEDIN_STATE_INVALID');
    for (const body of [
      {},
      { code: '', state: 'x' },
      { code: 'a', state: 'b', extra: 1 },
      { code: 'a'.repeat(3000), state: 'b' },
    ]) {
      expect((await t.json('POST', '/api/linkedin/callback', { token: me.token, body })).status).toBe(400);
    }
    expect((await t.json('POST', '/api/linkedin/callback', { body: { code: 'a', state: 'b' } })).status).toBe(401);
    for (const [method, url] of [
      ['GET', '/api/linkedin/connection'],
      ['POST', '/api/linkedin/connect'],
      ['POST', '/api/linkedin/logout'],
    ] as const) {
      expect((await t.json(method, url)).status, url).toBe(401);
    }
  });

  it('shows login needed once the token expires, and logout revokes it at LinkedIn and forgets it', async () => {
    const me = await t.signUp();
    const { code, state } = await approve(await connectUrl(me.token));
    await t.json('POST', '/api/linkedin/callback', { token: me.token, body: { code, state } });
    const revokedBefore = fake.revoked.length;

    now = new Date(now.getTime() + 61 * 86_400_000);
    try {
      expect((await t.json('GET', '/api/linkedin/connection', { token: me.token })).body.data.state).toBe(
        'loginNeeded',
      );
    } finally {
      now = new Date();
    }

    const out = await t.json('POST', '/api/linkedin/logout', { token: me.token, lang: 'es' });
    expect(out.status).toBe(200);
    expect(out.body.message).toBe('LinkedIn desconectado.');
    expect(out.body.data.state).toBe('none');
    expect(fake.revoked.length).toBe(revokedBefore + 1);
    expect(
      await t.database.db.select().from(linkedinConnections).where(eq(linkedinConnections.userId, me.user.id)),
    ).toEqual([]);

    // LinkedIn down at logout: the connection is forgotten here all the same.
    const again = await approve(await connectUrl(me.token));
    await t.json('POST', '/api/linkedin/callback', { token: me.token, body: again });
    fake.failNext(500, '/oauth/v2/revoke');
    expect((await t.json('POST', '/api/linkedin/logout', { token: me.token })).body.data.state).toBe('none');
  });
});

/**
 * The connection service with a LinkedIn stand-in that hands out the given tokens in turn; `gate`, when set, holds
 * every userinfo call until it resolves (to line up callbacks that run at once).
 */
function stubbedConnection(tokens: string[]) {
  const revoked: string[] = [];
  const control: { gate: Promise<void> | null } = { gate: null };
  const client = {
    authorizationUrl: ({ state }: { state: string }) => `https://linkedin.test/auth?state=${state}`,
    exchangeCode: async () => ({
      accessToken: tokens.shift()!,
      expiresAt: new Date(now.getTime() + 86_400_000),
      scope: 'openid profile email w_member_social',
    }),
    userinfo: async () => {
      if (control.gate) await control.gate;
      return { sub: 'stubMember', name: 'Stub', email: null, picture: null };
    },
    revoke: async (token: string) => {
      revoked.push(token);
    },
  } as unknown as LinkedinClient;
  const box = createSecretBox('a test secret of some length', 'parley:linkedin-tokens');
  const service = createLinkedinConnection({
    db: t.database.db,
    client,
    box,
    redirectUri: 'http://parley.test/linkedin-auth-redirect',
    log: t.app.log,
    clock,
  });
  const owner = (id: string) => ({ user: { id } });
  const callback = async (userId: string) => {
    const { url } = await service.connect(owner(userId));
    const state = new URL(url).searchParams.get('state')!;
    return service.callback(owner(userId), { code: 'code', state });
  };
  const stored = async (userId: string) => {
    const [row] = await t.database.db.select().from(linkedinConnections).where(eq(linkedinConnections.userId, userId));
    return row ? box.open(row.accessTokenEnc) : null;
  };
  return { service, revoked, control, callback, stored };
}

describe('connecting again', () => {
  it('keeps a token LinkedIn gives back unchanged, and revokes one that was replaced by another', async () => {
    const me = await t.signUp();
    const stub = stubbedConnection(['AQsame-token', 'AQsame-token', 'AQnew-token']);
    await stub.callback(me.user.id);
    await stub.callback(me.user.id);
    // The same token sealed twice differs (a random IV): it is the token itself that is compared.
    expect(stub.revoked).toEqual([]);
    expect(await stub.stored(me.user.id)).toBe('AQsame-token');
    await stub.callback(me.user.id);
    expect(stub.revoked).toEqual(['AQsame-token']);
    expect(await stub.stored(me.user.id)).toBe('AQnew-token');
  });

  it('two callbacks at once for one person: every token but the one kept is revoked, once', async () => {
    const me = await t.signUp();
    const stub = stubbedConnection(['AQfirst', 'AQleft', 'AQright']);
    await stub.callback(me.user.id);
    let open!: () => void;
    stub.control.gate = new Promise((resolve) => (open = resolve));
    const both = Promise.all([stub.callback(me.user.id), stub.callback(me.user.id)]);
    await new Promise((r) => setTimeout(r, 50));
    open();
    await both;
    const kept = await stub.stored(me.user.id);
    expect(['AQleft', 'AQright']).toContain(kept);
    expect([...stub.revoked].sort()).toEqual(['AQfirst', kept === 'AQleft' ? 'AQright' : 'AQleft'].sort());
  });
});

describe('sign-in states nobody came back with', () => {
  it('are removed by the server’s periodic sweep once past their 10 minutes', async () => {
    const me = await t.signUp();
    const fresh = await t.signUp();
    await connectUrl(me.token);
    const mine = () =>
      t.database.db.select().from(linkedinOauthStates).where(eq(linkedinOauthStates.userId, me.user.id));
    expect(await mine()).toHaveLength(1);
    now = new Date(now.getTime() + 11 * 60_000);
    try {
      await connectUrl(fresh.token); // still in its 10 minutes at the sweep
      // Another server on the same database sweeps when it starts (and every 10 minutes after).
      const other = await createTestApp(
        { ...fake.env(), RATE_LIMIT_PER_IP: '10000' },
        { clock, database: { ...t.database, close: async () => undefined } },
      );
      await other.close();
      expect(await mine()).toEqual([]);
      const theirs = await t.database.db
        .select()
        .from(linkedinOauthStates)
        .where(eq(linkedinOauthStates.userId, fresh.user.id));
      expect(theirs).toHaveLength(1);
    } finally {
      now = new Date();
    }
  });
});

describe('LinkedIn without its app configured', () => {
  it('says so: connect is refused with the setup message, the connection shows configured false', async () => {
    const bare = await createTestApp();
    try {
      const me = await bare.signUp();
      expect((await bare.json('GET', '/api/linkedin/connection', { token: me.token })).body.data).toMatchObject({
        configured: false,
        state: 'none',
      });
      const res = await bare.json('POST', '/api/linkedin/connect', { token: me.token });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('LINKEDIN_NOT_CONFIGURED');
      expect(res.body.message).toContain('LINKEDIN_CLIENT_ID');
    } finally {
      await bare.close();
    }
  });
});
