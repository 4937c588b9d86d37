import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { cliFlag, cliPort } from './cli.js';

/**
 * LinkedIn on loopback, speaking the protocol of its official APIs as Parley uses them: the OAuth 2.0 authorization
 * page (an "Allow" button, or approval at once), the token exchange and revocation (form-encoded, client id and
 * secret checked), OpenID Connect userinfo, and the Posts API (create with its version headers, the id in
 * `x-restli-id`; list a member's posts). Knobs let tests make the next call fail, accept a post and drop the
 * answer, or answer slowly. Control calls under /__fake/ serve browser tests. Members' profile pictures are served
 * from its own origin (`/media/…png`), as LinkedIn serves them from its picture host.
 */

/** `picture`: an address, or a path on the fake itself (where it serves a real PNG). */
export type FakeLinkedinMember = { sub: string; name: string; email: string; picture?: string };
export type FakeLinkedinPost = {
  id: string;
  author: string;
  commentary: string;
  visibility: string;
  createdAt: number;
  /** The request's headers, as sent. */
  version: string | undefined;
};
export type FakeLinkedinOptions = {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The member who approves (each authorization can name another). */
  member?: FakeLinkedinMember;
  /** Seconds a token lives. */
  tokenTtlSeconds?: number;
  /** Approve at once: the authorization page redirects straight back, as for a member who approved before. */
  autoApprove?: boolean;
  /** The fake's clock (posts' createdAt, token expiry); tests that move Parley's clock move this one too. */
  clock?: () => Date;
};

export const DEFAULT_FAKE_MEMBER: FakeLinkedinMember = {
  sub: 'fAk3MeMbEr01',
  name: 'Robin Example',
  email: 'robin@example.com',
  picture: '/media/robin.png',
};

type Grant = { member: FakeLinkedinMember; redirectUri: string; scope: string; expiresAt: number };
type Token = { member: FakeLinkedinMember; scope: string; expiresAt: number; revoked: boolean };
type Knob = { status?: number; drop?: boolean; path?: string };

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function readBody(req: IncomingMessage, max = 1024 * 1024) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A member's profile picture: a small PNG (a head and shoulders on a blue ground), drawn once. */
let picture: Promise<Buffer> | null = null;
const profilePicture = () =>
  (picture ??= sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">' +
        '<rect width="96" height="96" fill="#0a66c2"/><circle cx="48" cy="38" r="18" fill="#e8f1fb"/>' +
        '<ellipse cx="48" cy="92" rx="32" ry="28" fill="#e8f1fb"/></svg>',
    ),
  )
    .png()
    .toBuffer());

export async function startFakeLinkedin(options: FakeLinkedinOptions = {}) {
  const clientId = options.clientId ?? 'parley-fake-client';
  const clientSecret = options.clientSecret ?? 'parley-fake-secret';
  const tokenTtl = options.tokenTtlSeconds ?? 60 * 24 * 3600;
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, Token>();
  const sockets = new Set<Socket>();
  const knobs: Knob[] = [];
  let postCounter = 7_100_000_000_000_000_000n;
  let origin = '';
  const now = () => (options.clock ? options.clock().getTime() : Date.now());

  const fake = {
    clientId,
    clientSecret,
    autoApprove: options.autoApprove ?? false,
    member: options.member ?? DEFAULT_FAKE_MEMBER,
    /** Every post created, oldest first. */
    posts: [] as FakeLinkedinPost[],
    /** How many times each endpoint was called (`POST /rest/posts`, `POST /oauth/v2/revoke`…). */
    calls: new Map<string, number>(),
    /** Tokens revoked through the API. */
    revoked: [] as string[],
    /** Delay before answering any API call, in milliseconds. */
    delayMs: 0,
    url: '',
    /** The address userinfo gives as the member's picture (a path is on the fake itself). */
    pictureUrl(member?: FakeLinkedinMember): string | null {
      const picture = (member ?? fake.member).picture;
      return picture ? new URL(picture, origin).href : null;
    },
    /** The next call (to `path` when given) answers `status` with a LinkedIn-style error body. */
    failNext(status: number, path?: string) {
      knobs.push({ status, ...(path ? { path } : {}) });
    },
    /** The next post is created, then the connection is closed before any answer (the answer is lost). */
    dropNextAnswer(path = '/rest/posts') {
      knobs.push({ drop: true, path });
    },
    /** Approves an authorization as `member`, without a browser: the code LinkedIn would send back. */
    authorize({ redirectUri, scope, member }: { redirectUri: string; scope?: string; member?: FakeLinkedinMember }) {
      const code = randomBytes(18).toString('base64url');
      grants.set(code, {
        member: member ?? fake.member,
        redirectUri,
        scope: scope ?? 'openid profile email w_member_social',
        expiresAt: now() + 10 * 60_000,
      });
      return code;
    },
    /** Makes every token (or one) expire now, as after 60 days. */
    expireTokens(token?: string) {
      for (const [key, t] of tokens) if (!token || key === token) t.expiresAt = 0;
    },
    tokenCount: () => [...tokens.values()].filter((t) => !t.revoked && t.expiresAt > now()).length,
    /** Every access token handed out, to look for where it must not be. */
    issuedTokens: () => [...tokens.keys()],
    count: (key: string) => fake.calls.get(key) ?? 0,
    /** What to start Parley with. */
    env: (): Record<string, string> => ({
      LINKEDIN_CLIENT_ID: clientId,
      LINKEDIN_CLIENT_SECRET: clientSecret,
      LINKEDIN_AUTH_URL: origin,
      LINKEDIN_API_URL: origin,
    }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };
  const apiError = (res: ServerResponse, status: number, message: string) =>
    send(res, status, { status, serviceErrorCode: status === 401 ? 65600 : 100, code: 'ERROR', message });
  const oauthError = (res: ServerResponse, status: number, error: string) =>
    send(res, status, { error, error_description: error.replace(/_/g, ' ') });

  const bearer = (req: IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer (\S+)$/.exec(header)?.[1];
    const found = token ? tokens.get(token) : undefined;
    return found && !found.revoked && found.expiresAt > now() ? found : null;
  };

  const takeKnob = (path: string) => {
    const i = knobs.findIndex((k) => !k.path || k.path === path);
    return i === -1 ? null : knobs.splice(i, 1)[0]!;
  };

  const approve = (params: URLSearchParams, member: FakeLinkedinMember) => {
    const redirectUri = params.get('redirect_uri') ?? '';
    const code = fake.authorize({ redirectUri, scope: params.get('scope') ?? '', member });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', params.get('state') ?? '');
    return back.toString();
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const key = `${req.method} ${url.pathname}`;
    fake.calls.set(key, (fake.calls.get(key) ?? 0) + 1);
    try {
      // The authorization page: what the member sees at LinkedIn.
      if (req.method === 'GET' && url.pathname === '/oauth/v2/authorization') {
        const p = url.searchParams;
        const redirect = p.get('redirect_uri');
        if (
          p.get('response_type') !== 'code' ||
          p.get('client_id') !== clientId ||
          !redirect ||
          !/^https?:\/\//.test(redirect)
        ) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            '<!doctype html><title>LinkedIn</title><p>The application is not set up correctly (client id or redirect).</p>',
          );
          return;
        }
        if (p.get('format') === 'json') return send(res, 200, { redirect: approve(p, fake.member) });
        if (fake.autoApprove || p.get('approve') === '1') {
          res.writeHead(302, { location: approve(p, fake.member) });
          res.end();
          return;
        }
        const denied = new URL(redirect);
        denied.searchParams.set('error', 'user_cancelled_authorize');
        denied.searchParams.set('state', p.get('state') ?? '');
        const allow = new URL(url.toString());
        allow.searchParams.set('approve', '1');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LinkedIn (test server)</title></head>` +
            `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">` +
            `<h1>LinkedIn</h1><p>Parley would like to: use your name, photo and e-mail address (${esc(p.get('scope') ?? '')}), and create posts for you.</p>` +
            `<p>Signed in as <strong>${esc(fake.member.name)}</strong></p>` +
            `<p><a role="button" href="${esc(allow.pathname + allow.search)}" style="padding:.5rem 1rem;background:#0a66c2;color:#fff;border-radius:1rem;text-decoration:none">Allow</a> ` +
            `<a role="button" href="${esc(denied.toString())}">Cancel</a></p></body></html>`,
        );
        return;
      }

      if (req.method === 'GET' && url.pathname === '/__fake/posts') return send(res, 200, { posts: fake.posts });
      if (req.method === 'POST' && url.pathname === '/__fake/fail-next') {
        const status = Number(url.searchParams.get('status') ?? 500);
        fake.failNext(status, url.searchParams.get('path') ?? undefined);
        return send(res, 200, { ok: true });
      }
      if (req.method === 'POST' && url.pathname === '/__fake/drop-next') {
        fake.dropNextAnswer();
        return send(res, 200, { ok: true });
      }
      if (req.method === 'POST' && url.pathname === '/__fake/expire-tokens') {
        fake.expireTokens();
        return send(res, 200, { ok: true });
      }

      if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
      const knob = takeKnob(url.pathname);
      if (knob?.status) return apiError(res, knob.status, 'Injected failure');

      if (req.method === 'POST' && url.pathname === '/oauth/v2/accessToken') {
        const form = new URLSearchParams(await readBody(req));
        if (!/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
          return oauthError(res, 400, 'invalid_request');
        }
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
          return oauthError(res, 401, 'invalid_client');
        }
        if (form.get('grant_type') !== 'authorization_code') return oauthError(res, 400, 'unsupported_grant_type');
        const code = form.get('code') ?? '';
        const grant = grants.get(code);
        grants.delete(code);
        if (!grant || grant.expiresAt < now() || grant.redirectUri !== form.get('redirect_uri')) {
          return oauthError(res, 400, 'invalid_grant');
        }
        const accessToken = `AQ${randomBytes(24).toString('base64url')}`;
        tokens.set(accessToken, {
          member: grant.member,
          scope: grant.scope,
          expiresAt: now() + tokenTtl * 1000,
          revoked: false,
        });
        return send(res, 200, {
          access_token: accessToken,
          expires_in: tokenTtl,
          scope: grant.scope.split(/\s+/).join(','),
          token_type: 'Bearer',
          id_token: 'eyJ.fake.token',
        });
      }

      if (req.method === 'POST' && url.pathname === '/oauth/v2/revoke') {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
          return oauthError(res, 401, 'invalid_client');
        }
        const token = form.get('token') ?? '';
        const found = tokens.get(token);
        if (found) {
          found.revoked = true;
          fake.revoked.push(token);
        }
        res.writeHead(200, { 'content-length': 0 });
        res.end();
        return;
      }

      if (req.method === 'GET' && url.pathname === '/v2/userinfo') {
        const token = bearer(req);
        if (!token) return apiError(res, 401, 'Invalid access token');
        const m = token.member;
        const [given = '', ...family] = m.name.split(' ');
        return send(res, 200, {
          sub: m.sub,
          email_verified: true,
          name: m.name,
          locale: { country: 'US', language: 'en' },
          given_name: given,
          family_name: family.join(' '),
          email: m.email,
          ...(m.picture ? { picture: fake.pictureUrl(m) } : {}),
        });
      }

      if (req.method === 'GET' && /^\/media\/[\w-]{1,60}\.png$/.test(url.pathname)) {
        const png = await profilePicture();
        res.writeHead(200, {
          'content-type': 'image/png',
          'content-length': png.length,
          'cache-control': 'public, max-age=3600',
        });
        res.end(png);
        return;
      }

      if (url.pathname === '/rest/posts') {
        const token = bearer(req);
        if (!token) return apiError(res, 401, 'Invalid access token');
        const version = req.headers['linkedin-version'];
        if (typeof version !== 'string' || !/^\d{6}(\.\d{2})?$/.test(version)) {
          return apiError(
            res,
            400,
            'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
          );
        }
        if (req.headers['x-restli-protocol-version'] !== '2.0.0') return apiError(res, 400, 'Rest.li 2.0.0 required');
        const author = `urn:li:person:${token.member.sub}`;
        if (req.method === 'POST') {
          if (!token.scope.split(/[\s,]+/).includes('w_member_social'))
            return apiError(res, 403, 'Not enough permissions');
          let body: Record<string, any>;
          try {
            body = JSON.parse(await readBody(req));
          } catch {
            return apiError(res, 400, 'Malformed JSON');
          }
          if (body.author !== author) return apiError(res, 403, 'author does not match the token');
          if (
            typeof body.commentary !== 'string' ||
            body.commentary.length === 0 ||
            body.commentary.length > 3000 * 2
          ) {
            return apiError(res, 422, 'commentary is invalid');
          }
          if (!['PUBLIC', 'CONNECTIONS'].includes(body.visibility) || body.lifecycleState !== 'PUBLISHED') {
            return apiError(res, 422, 'visibility or lifecycleState is invalid');
          }
          if (body.distribution?.feedDistribution !== 'MAIN_FEED') return apiError(res, 422, 'distribution is invalid');
          postCounter += 1n;
          const id = `urn:li:share:${postCounter}`;
          fake.posts.push({
            id,
            author,
            commentary: body.commentary,
            visibility: body.visibility,
            createdAt: now(),
            version,
          });
          if (knob?.drop) {
            // Created, and the answer never comes: the connection is cut.
            req.socket.destroy();
            return;
          }
          res.writeHead(201, { 'x-restli-id': id, 'x-linkedin-id': id, 'content-length': 0 });
          res.end();
          return;
        }
        if (req.method === 'GET') {
          if (url.searchParams.get('q') !== 'author' || url.searchParams.get('author') !== author) {
            return apiError(res, 403, 'Not allowed to read these posts');
          }
          const count = Math.min(Math.max(Number(url.searchParams.get('count') ?? 10) || 10, 1), 100);
          const elements = fake.posts
            .filter((p) => p.author === author)
            .slice()
            .reverse()
            .slice(0, count)
            .map((p) => ({
              id: p.id,
              author: p.author,
              commentary: p.commentary,
              visibility: p.visibility,
              lifecycleState: 'PUBLISHED',
              createdAt: p.createdAt,
              publishedAt: p.createdAt,
              lastModifiedAt: p.createdAt,
            }));
          return send(res, 200, { paging: { start: 0, count, links: [] }, elements });
        }
      }
      apiError(res, 404, 'Not found');
    } catch {
      if (!res.headersSent) apiError(res, 400, 'Bad request');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = origin;
  return fake;
}

export type FakeLinkedin = Awaited<ReturnType<typeof startFakeLinkedin>>;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startFakeLinkedin({
    port: cliPort(4030),
    autoApprove: cliFlag('--auto-approve'),
  });
  const env = Object.entries(fake.env())
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  process.stdout.write(`fake LinkedIn on ${fake.url} (posts it received: ${fake.url}/__fake/posts)\n`);
  console.warn(`Start Parley with: ${env} npm start`);
}
