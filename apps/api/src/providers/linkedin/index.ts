/**
 * LinkedIn's official APIs: Sign In with LinkedIn using OpenID Connect (OAuth 2.0 authorization code), the member's
 * userinfo, token revocation, and the Posts API (create a post as the member, list the member's posts to read back
 * one whose answer was lost). Nothing else is done on a member's behalf.
 *
 * Tokens travel only in headers and form bodies to the configured bases, and never into an error or a log line.
 */

/** The scopes asked for: sign-in (openid, profile, email) and posting as the member (w_member_social). */
export const LINKEDIN_SCOPES = ['openid', 'profile', 'email', 'w_member_social'] as const;
/**
 * The Posts API version sent as `LinkedIn-Version` (YYYYMM) when none is configured: the one from three months ago.
 * LinkedIn releases a version every month and serves each for at least a year, so that one is out and still served.
 */
export function defaultApiVersion(now = new Date()) {
  const then = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
  return `${then.getUTCFullYear()}${String(then.getUTCMonth() + 1).padStart(2, '0')}`;
}
const DEFAULT_TIMEOUT_MS = 15_000;
/** Larger answers are refused unread (a token answer, userinfo and a page of posts are a few kilobytes). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** The bounds a token's announced lifetime is taken within (LinkedIn's are 60 days). */
const TOKEN_LIFETIME_MIN_S = 60;
const TOKEN_LIFETIME_MAX_S = 365 * 24 * 3600;

type Fetch = typeof globalThis.fetch;

export type LinkedinClientOptions = {
  clientId: string;
  clientSecret: string;
  /** www.linkedin.com: the authorization page and the token, revoke endpoints. */
  authUrl: string;
  /** api.linkedin.com: userinfo and the Posts API. */
  apiUrl: string;
  apiVersion?: string | undefined;
  timeoutMs?: number | undefined;
  fetch?: Fetch | undefined;
};

/**
 * How a call failed. `rejected`: LinkedIn answered no (nothing was created); `auth`: the token is expired or revoked;
 * `unreachable`: the request never left (nothing can have been created); `unclear`: it may have reached LinkedIn and
 * its answer was lost, slow or a server error (a post may exist: read back, do not call again).
 */
export type LinkedinFailure = 'rejected' | 'auth' | 'unreachable' | 'unclear';

export class LinkedinApiError extends Error {
  constructor(
    readonly failure: LinkedinFailure,
    readonly status: number | null,
    readonly operation: string,
  ) {
    super(`LinkedIn ${operation} failed (${failure}${status ? `, HTTP ${status}` : ''})`);
    this.name = 'LinkedinApiError';
  }
}

/** Where LinkedIn serves members' profile pictures. */
export const LINKEDIN_PICTURE_ORIGIN = 'https://media.licdn.com';

/**
 * The origins a member's picture is taken from (and the pages may load it from): LinkedIn's picture host, and the
 * configured LinkedIn when it is not LinkedIn's (a stand-in on loopback serves its own pictures). Nothing broader.
 */
export function linkedinPictureOrigins(options: { authUrl: string; apiUrl: string }): string[] {
  const origins = new Set([LINKEDIN_PICTURE_ORIGIN]);
  for (const url of [options.apiUrl, options.authUrl]) {
    const { hostname, origin } = new URL(url);
    if (hostname !== 'linkedin.com' && !hostname.endsWith('.linkedin.com')) origins.add(origin);
  }
  return [...origins];
}

const pictureFrom = (origins: string[], value: string | null) => {
  if (!value || value.length > 2000) return null;
  try {
    return origins.includes(new URL(value).origin) ? value : null;
  } catch {
    return null;
  }
};

export type LinkedinToken = { accessToken: string; expiresAt: Date; scope: string };
export type LinkedinMember = { sub: string; name: string | null; email: string | null; picture: string | null };
export type LinkedinPost = { id: string; commentary: string; createdAt: Date | null };
export type NewLinkedinPost = { author: string; commentary: string; visibility: 'PUBLIC' | 'CONNECTIONS' };

/** The member's URN, which their posts are authored as. */
export const personUrn = (memberId: string) => `urn:li:person:${memberId}`;
/** Where a published post can be seen. */
export const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${encodeURIComponent(urn)}/`;

/**
 * The Posts API reads `commentary` as "little text format", where these characters are markup: a lone parenthesis or
 * bracket can cut a post short. They are escaped so the text appears as written.
 */
export function escapeCommentary(text: string) {
  return text.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`);
}

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether a fetch failure happened before the request could reach the server. */
function neverSent(error: unknown) {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return typeof cause?.code === 'string' && NOT_SENT.has(cause.code);
}

/** The body, refused past `MAX_ANSWER_BYTES`. */
async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error('answer too large');
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error('answer too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);

export function createLinkedinClient(options: LinkedinClientOptions) {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const apiVersion = options.apiVersion ?? defaultApiVersion();

  /** One call: a bounded wait, a bounded answer, failures classified (see `LinkedinFailure`). */
  async function call(operation: string, url: string, init: RequestInit) {
    let response: Response;
    try {
      response = await fetchFn(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new LinkedinApiError(neverSent(error) ? 'unreachable' : 'unclear', null, operation);
    }
    let body: string;
    try {
      body = await readCapped(response);
    } catch {
      throw new LinkedinApiError(response.ok ? 'unclear' : failureOf(response.status), response.status, operation);
    }
    if (!response.ok) throw new LinkedinApiError(failureOf(response.status), response.status, operation);
    return { response, body };
  }

  const failureOf = (status: number): LinkedinFailure =>
    status === 401 ? 'auth' : status === 429 || status >= 500 ? 'unclear' : 'rejected';

  const json = (operation: string, status: number, body: string): Record<string, unknown> => {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new LinkedinApiError('unclear', status, operation);
  };

  const restHeaders = (accessToken: string) => ({
    authorization: `Bearer ${accessToken}`,
    'linkedin-version': apiVersion,
    'x-restli-protocol-version': '2.0.0',
  });

  return {
    /** The page the person's browser is sent to; LinkedIn sends it back to `redirectUri` with `code` and `state`. */
    authorizationUrl({ state, redirectUri }: { state: string; redirectUri: string }) {
      const url = new URL(joinUrl(options.authUrl, '/oauth/v2/authorization'));
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('scope', LINKEDIN_SCOPES.join(' '));
      return url.toString();
    },

    /** Trades the authorization code for an access token (a form POST, as OAuth 2.0 says). */
    async exchangeCode({ code, redirectUri, now = new Date() }: { code: string; redirectUri: string; now?: Date }) {
      const { response, body } = await call('token', joinUrl(options.authUrl, '/oauth/v2/accessToken'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }).toString(),
      });
      const answer = json('token', response.status, body);
      const accessToken = str(answer.access_token);
      if (!accessToken) throw new LinkedinApiError('rejected', response.status, 'token');
      // A lifetime that is not a positive number is an answer we cannot use (LinkedIn's fault, not the code's); one
      // outside a minute to a year is taken as the nearest bound, so the expiry is always a date.
      const expiresIn = answer.expires_in;
      if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
        throw new LinkedinApiError('unclear', response.status, 'token');
      }
      const lifetimeSeconds = Math.min(Math.max(expiresIn, TOKEN_LIFETIME_MIN_S), TOKEN_LIFETIME_MAX_S);
      return {
        accessToken,
        expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
        scope: str(answer.scope) ?? '',
      } satisfies LinkedinToken;
    },

    /** Who the token belongs to (OpenID Connect userinfo). */
    async userinfo(accessToken: string): Promise<LinkedinMember> {
      const { response, body } = await call('userinfo', joinUrl(options.apiUrl, '/v2/userinfo'), {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      const answer = json('userinfo', response.status, body);
      const sub = str(answer.sub);
      if (!sub || !/^[A-Za-z0-9_-]{1,100}$/.test(sub))
        throw new LinkedinApiError('rejected', response.status, 'userinfo');
      const picture = str(answer.picture);
      return {
        sub,
        name: str(answer.name)?.slice(0, 200) ?? null,
        email: str(answer.email)?.slice(0, 320) ?? null,
        // Only from where the pages may show it (the content security policy's img-src).
        picture: pictureFrom(linkedinPictureOrigins(options), picture),
      };
    },

    /** Ends the token at LinkedIn. */
    async revoke(accessToken: string) {
      await call('revoke', joinUrl(options.authUrl, '/oauth/v2/revoke'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: options.clientId,
          client_secret: options.clientSecret,
          token: accessToken,
        }).toString(),
      });
    },

    /** Publishes a post as the member; its URN comes back in `x-restli-id`. */
    async createPost(accessToken: string, post: NewLinkedinPost) {
      const { response } = await call('post', joinUrl(options.apiUrl, '/rest/posts'), {
        method: 'POST',
        headers: { ...restHeaders(accessToken), 'content-type': 'application/json' },
        body: JSON.stringify({
          author: post.author,
          commentary: escapeCommentary(post.commentary),
          visibility: post.visibility,
          distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: 'PUBLISHED',
          isReshareDisabledByAuthor: false,
        }),
      });
      const id = response.headers.get('x-restli-id');
      // Created, but without its id: the post exists; the caller reads it back.
      if (!id || !/^urn:li:[A-Za-z]+:[A-Za-z0-9:_-]{1,100}$/.test(id)) {
        throw new LinkedinApiError('unclear', response.status, 'post');
      }
      return { id };
    },

    /** The member's most recent posts (newest first), to find one whose creation was not answered. */
    async recentPosts(accessToken: string, author: string, count = 20): Promise<LinkedinPost[]> {
      const url = new URL(joinUrl(options.apiUrl, '/rest/posts'));
      url.searchParams.set('author', author);
      url.searchParams.set('q', 'author');
      url.searchParams.set('count', String(Math.min(Math.max(count, 1), 100)));
      url.searchParams.set('sortBy', 'CREATED');
      const { response, body } = await call('posts', url.toString(), {
        headers: { ...restHeaders(accessToken), accept: 'application/json' },
      });
      const elements = json('posts', response.status, body).elements;
      if (!Array.isArray(elements)) throw new LinkedinApiError('unclear', response.status, 'posts');
      return elements.flatMap((e: unknown) => {
        const row = (e && typeof e === 'object' ? e : {}) as Record<string, unknown>;
        const id = str(row.id);
        if (!id) return [];
        const created = Number(row.createdAt ?? row.publishedAt);
        return [
          {
            id,
            commentary: typeof row.commentary === 'string' ? row.commentary : '',
            createdAt: Number.isFinite(created) && created > 0 ? new Date(created) : null,
          },
        ];
      });
    },

    /** The commentary as LinkedIn stores it, to compare with what `recentPosts` returns. */
    storedCommentary: escapeCommentary,
  };
}

export type LinkedinClient = ReturnType<typeof createLinkedinClient>;
