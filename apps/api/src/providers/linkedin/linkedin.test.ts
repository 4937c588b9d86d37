import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLinkedin, type FakeLinkedin } from '../../test/fake-linkedin.js';
import {
  createLinkedinClient,
  defaultApiVersion,
  escapeCommentary,
  LinkedinApiError,
  personUrn,
  type LinkedinClient,
} from './index.js';

const REDIRECT = 'http://parley.test/linkedin-auth-redirect';

describe('the LinkedIn adapter, against the loopback LinkedIn', () => {
  let fake: FakeLinkedin;
  let client: LinkedinClient;
  beforeAll(async () => {
    fake = await startFakeLinkedin();
    client = createLinkedinClient({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      authUrl: fake.url,
      apiUrl: fake.url,
      timeoutMs: 2_000,
    });
  });
  afterAll(() => fake.close());

  const connect = async () => {
    const code = fake.authorize({ redirectUri: REDIRECT });
    return client.exchangeCode({ code, redirectUri: REDIRECT });
  };

  it('builds the authorization URL with the scopes, the state and the redirect', async () => {
    const url = new URL(client.authorizationUrl({ state: 'abc', redirectUri: REDIRECT }));
    expect(url.origin + url.pathname).toBe(`${fake.url}/oauth/v2/authorization`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: fake.clientId,
      redirect_uri: REDIRECT,
      state: 'abc',
      scope: 'openid profile email w_member_social',
    });
    // The member approves on the page; LinkedIn redirects back with a code and the same state.
    const page = await fetch(`${url}&approve=1`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('abc');
    const token = await client.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT });
    expect(token.accessToken).toMatch(/^AQ/);
  });

  it('exchanges a code once, reads the member, posts, reads back and revokes', async () => {
    const now = Date.now();
    const token = await connect();
    expect(token.expiresAt.getTime()).toBeGreaterThan(now + 59 * 24 * 3600_000);
    expect(token.scope).toContain('w_member_social');

    const member = await client.userinfo(token.accessToken);
    expect(member).toEqual({
      sub: fake.member.sub,
      name: 'Robin Example',
      email: 'robin@example.com',
      picture: fake.pictureUrl(),
    });

    const text = 'Hello (world) — #launch @team [1] *bold* _x_ ~y~ <tag> {b} | back\\slash';
    const { id } = await client.createPost(token.accessToken, {
      author: personUrn(member.sub),
      commentary: text,
      visibility: 'PUBLIC',
    });
    expect(id).toMatch(/^urn:li:share:\d+$/);
    const sent = fake.posts.at(-1)!;
    expect(sent.commentary).toBe(escapeCommentary(text));
    expect(sent.commentary).toContain('\\(world\\)');
    expect(sent.version).toMatch(/^\d{6}$/);

    const recent = await client.recentPosts(token.accessToken, personUrn(member.sub));
    expect(recent[0]).toMatchObject({ id, commentary: client.storedCommentary(text) });
    expect(recent[0]!.createdAt!.getTime()).toBeGreaterThanOrEqual(now);

    await client.revoke(token.accessToken);
    expect(fake.revoked).toContain(token.accessToken);
    await expect(client.userinfo(token.accessToken)).rejects.toMatchObject({ failure: 'auth', status: 401 });
  });

  it('takes a member’s picture only from LinkedIn’s picture host (or the configured stand-in)', async () => {
    const pictureOf = async (picture: string) => {
      const member = { ...fake.member, picture };
      const code = fake.authorize({ redirectUri: REDIRECT, member });
      const token = await client.exchangeCode({ code, redirectUri: REDIRECT });
      return (await client.userinfo(token.accessToken)).picture;
    };
    const licdn = 'https://media.licdn.com/dms/image/v2/C4E03AQ/profile-displayphoto-shrink_100_100/0?e=1&t=x';
    expect(await pictureOf(licdn)).toBe(licdn);
    expect(await pictureOf('/media/robin.png')).toBe(`${fake.url}/media/robin.png`);
    for (const elsewhere of [
      'https://tracker.example/pixel.png',
      'http://media.licdn.com/x.jpg',
      'https://media.licdn.com.evil.example/x.jpg',
      'javascript:alert(1)',
    ]) {
      expect(await pictureOf(elsewhere), elsewhere).toBeNull();
    }
  });

  it('refuses a code used twice, or sent with another redirect', async () => {
    const code = fake.authorize({ redirectUri: REDIRECT });
    await client.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(client.exchangeCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({ failure: 'rejected' });
    const other = fake.authorize({ redirectUri: REDIRECT });
    await expect(client.exchangeCode({ code: other, redirectUri: 'http://evil.test/' })).rejects.toMatchObject({
      failure: 'rejected',
    });
  });

  it('says which failures may have created a post (unclear) and which cannot have', async () => {
    const token = await connect();
    const member = await client.userinfo(token.accessToken);
    const post = { author: personUrn(member.sub), commentary: 'x', visibility: 'PUBLIC' as const };

    fake.failNext(500, '/rest/posts');
    await expect(client.createPost(token.accessToken, post)).rejects.toMatchObject({ failure: 'unclear', status: 500 });
    fake.failNext(429, '/rest/posts');
    await expect(client.createPost(token.accessToken, post)).rejects.toMatchObject({ failure: 'unclear' });
    fake.failNext(422, '/rest/posts');
    await expect(client.createPost(token.accessToken, post)).rejects.toMatchObject({ failure: 'rejected' });
    await expect(
      client.createPost(token.accessToken, { ...post, author: 'urn:li:person:someoneElse' }),
    ).rejects.toMatchObject({
      failure: 'rejected',
      status: 403,
    });

    const before = fake.posts.length;
    fake.dropNextAnswer();
    const lost = await client.createPost(token.accessToken, post).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(LinkedinApiError);
    expect((lost as LinkedinApiError).failure).toBe('unclear');
    expect(fake.posts.length).toBe(before + 1); // it was created all the same

    fake.expireTokens(token.accessToken);
    await expect(client.createPost(token.accessToken, post)).rejects.toMatchObject({ failure: 'auth' });
  });

  it('times out a slow LinkedIn as unclear, and a closed port as unreachable', async () => {
    const token = await connect();
    const slow = createLinkedinClient({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      authUrl: fake.url,
      apiUrl: fake.url,
      timeoutMs: 100,
    });
    fake.delayMs = 400;
    try {
      await expect(
        slow.createPost(token.accessToken, { author: 'urn:li:person:x', commentary: 'x', visibility: 'PUBLIC' }),
      ).rejects.toMatchObject({ failure: 'unclear', status: null });
    } finally {
      fake.delayMs = 0;
    }
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const nowhere = createLinkedinClient({
      clientId: 'a',
      clientSecret: 'b',
      authUrl: `http://127.0.0.1:${port}`,
      apiUrl: `http://127.0.0.1:${port}`,
    });
    await expect(nowhere.userinfo('t')).rejects.toMatchObject({ failure: 'unreachable' });
  });

  it('refuses an answer past its size cap without reading it all', async () => {
    const big = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"sub":"${'a'.repeat(400 * 1024)}"}`);
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}`;
    const c = createLinkedinClient({ clientId: 'a', clientSecret: 'b', authUrl: url, apiUrl: url });
    try {
      await expect(c.userinfo('t')).rejects.toMatchObject({ failure: 'unclear' });
    } finally {
      await new Promise((r) => big.close(r));
    }
  });

  it('takes a token’s lifetime within a minute and a year, and refuses one that is not a number', async () => {
    let expiresIn: unknown = 1e300;
    const odd = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'AQodd', expires_in: expiresIn, scope: 'openid' }));
    });
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
    const c = createLinkedinClient({ clientId: 'a', clientSecret: 'b', authUrl: url, apiUrl: url });
    const now = new Date('2026-11-26T10:00:00Z');
    const exchange = () => c.exchangeCode({ code: 'c', redirectUri: REDIRECT, now });
    try {
      expect((await exchange()).expiresAt.toISOString()).toBe('2027-11-26T10:00:00.000Z');
      expiresIn = 1;
      expect((await exchange()).expiresAt.toISOString()).toBe('2026-11-26T10:01:00.000Z');
      expiresIn = 5_184_000;
      expect((await exchange()).expiresAt.toISOString()).toBe('2027-01-25T10:00:00.000Z');
      for (const value of ['5184000', null, 0, -5, 'soon', { s: 1 }]) {
        expiresIn = value;
        await expect(exchange(), JSON.stringify(value)).rejects.toMatchObject({
          failure: 'unclear',
          operation: 'token',
        });
      }
    } finally {
      await new Promise((r) => odd.close(r));
    }
  });

  it('sends a Posts API version LinkedIn still serves: three months back unless configured', () => {
    expect(defaultApiVersion(new Date('2026-11-26T10:00:00Z'))).toBe('202608');
    expect(defaultApiVersion(new Date('2027-02-01T00:00:00Z'))).toBe('202611');
    expect(defaultApiVersion(new Date('2027-03-31T23:00:00Z'))).toBe('202612');
  });

  it('keeps tokens out of its errors', async () => {
    const token = await connect();
    fake.failNext(500, '/v2/userinfo');
    const error = (await client.userinfo(token.accessToken).catch((e: unknown) => e)) as Error;
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(token.accessToken);
  });
});
