import { createHash, randomBytes } from 'node:crypto';
import { LINKEDIN_STATE_TTL_MS, type LinkedinConnection } from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { LinkedinApiError, type LinkedinClient } from '../../providers/linkedin/index.js';
import * as q from './linkedin.connection.queries.js';

/** Who is asking: the connection is theirs alone. */
export type Owner = { user: { id: string } };

const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest('hex');

/** What the scheduler needs to post for a person: their token (decrypted only here) and member id. */
export type PostingToken =
  | { ok: true; accessToken: string; memberId: string }
  | { ok: false; code: 'LINKEDIN_NOT_CONNECTED' | 'LINKEDIN_LOGIN_NEEDED' };

/**
 * The LinkedIn connection (OAuth 2.0 authorization code with OpenID Connect). The `state` handed out is random,
 * stored hashed, bound to the person who asked, single-use and good for 10 minutes; the access token is kept
 * encrypted (AES-256-GCM) with its expiry, and is revoked at LinkedIn on disconnect.
 */
export function createLinkedinConnection(deps: {
  db: Db;
  /** Null when this server has no LinkedIn app configured. */
  client: LinkedinClient | null;
  box: SecretBox;
  /** Where LinkedIn sends the browser back (the web app's /linkedin-auth-redirect). */
  redirectUri: string;
  log: FastifyBaseLogger;
  clock?: () => Date;
}) {
  const { db, client, box, redirectUri, log } = deps;
  const clock = deps.clock ?? (() => new Date());

  const view = (row: q.ConnectionRow | undefined): LinkedinConnection => ({
    configured: client !== null,
    state: !row ? 'none' : row.expiresAt.getTime() > clock().getTime() ? 'connected' : 'loginNeeded',
    name: row?.name ?? null,
    email: row?.email ?? null,
    picture: row?.picture ?? null,
    expiresAt: row ? row.expiresAt.toISOString() : null,
    canPost: row ? row.scope.split(/[\s,]+/).includes('w_member_social') : false,
  });

  /** Revokes a stored token at LinkedIn when it answers; nothing here depends on it. */
  const revokeQuietly = async (linkedin: LinkedinClient, sealed: string) => {
    try {
      await linkedin.revoke(box.open(sealed));
    } catch (error) {
      log.warn(
        { linkedin: error instanceof LinkedinApiError ? error.message : 'unreadable token' },
        'LinkedIn token not revoked',
      );
    }
  };

  /** A stored token in the clear, or null when it cannot be opened (sealed with another server secret). */
  const openedOrNull = (sealed: string) => {
    try {
      return box.open(sealed);
    } catch {
      return null;
    }
  };

  const requireClient = () => {
    if (!client) throw new DomainError('LINKEDIN_NOT_CONFIGURED');
    return client;
  };

  return {
    async connection(owner: Owner) {
      return view(await q.findConnection(db, owner.user.id));
    },

    /** The URL to send the browser to. */
    async connect(owner: Owner) {
      const linkedin = requireClient();
      const state = randomBytes(32).toString('base64url');
      const now = clock();
      await q.insertState(db, {
        stateHash: hashState(state),
        userId: owner.user.id,
        expiresAt: new Date(now.getTime() + LINKEDIN_STATE_TTL_MS),
        now,
      });
      return { url: linkedin.authorizationUrl({ state, redirectUri }) };
    },

    /**
     * LinkedIn sent the browser back with `code` and `state`. A state that was never handed out, was used already,
     * is past its 10 minutes or was handed to someone else is refused the same way, and LinkedIn is not called.
     */
    async callback(owner: Owner, input: { code: string; state: string }) {
      const linkedin = requireClient();
      const taken = await q.takeState(db, hashState(input.state));
      if (!taken || taken.userId !== owner.user.id || taken.expiresAt.getTime() <= clock().getTime()) {
        throw new DomainError('LINKEDIN_STATE_INVALID');
      }
      let token;
      let member;
      try {
        token = await linkedin.exchangeCode({ code: input.code, redirectUri, now: clock() });
        member = await linkedin.userinfo(token.accessToken);
      } catch (error) {
        if (!(error instanceof LinkedinApiError)) throw error;
        log.warn({ linkedin: error.message }, 'LinkedIn sign-in failed');
        // A code LinkedIn refuses (used, expired, for another redirect): start again.
        throw new DomainError(error.failure === 'rejected' ? 'LINKEDIN_STATE_INVALID' : 'LINKEDIN_ERROR');
      }
      const { row, previous } = await q.replaceConnection(db, {
        userId: owner.user.id,
        memberId: member.sub,
        name: member.name,
        email: member.email,
        picture: member.picture,
        accessTokenEnc: box.seal(token.accessToken),
        scope: token.scope,
        expiresAt: token.expiresAt,
        now: clock(),
      });
      // Connected again (another account, or the same after "login needed"): the token it replaces is ended, unless
      // LinkedIn gave the same token back. Sealing uses a random IV, so the tokens are compared opened. The call to
      // LinkedIn is made after the transaction.
      if (previous && openedOrNull(previous.accessTokenEnc) !== token.accessToken)
        await revokeQuietly(linkedin, previous.accessTokenEnc);
      return view(row);
    },

    /** Disconnects: the token is revoked at LinkedIn when it answers (best effort), and deleted here in any case. */
    async logout(owner: Owner) {
      const row = await q.deleteConnection(db, owner.user.id);
      if (row && client) await revokeQuietly(client, row.accessTokenEnc);
      return view(undefined);
    },

    /** The token to post with, or why there is none. */
    async postingToken(userId: string): Promise<PostingToken> {
      const row = await q.findConnection(db, userId);
      if (!row) return { ok: false, code: 'LINKEDIN_NOT_CONNECTED' };
      if (row.expiresAt.getTime() <= clock().getTime()) return { ok: false, code: 'LINKEDIN_LOGIN_NEEDED' };
      try {
        return { ok: true, accessToken: box.open(row.accessTokenEnc), memberId: row.memberId };
      } catch {
        // Sealed with another server secret: only connecting again helps.
        return { ok: false, code: 'LINKEDIN_LOGIN_NEEDED' };
      }
    },

    /** LinkedIn refused the token (revoked by the member, or expired early): the pages ask to connect again. */
    async markLoginNeeded(userId: string) {
      await q.expireConnection(db, userId, clock());
    },

    sweepStates: () => q.deleteExpiredStates(db, clock()),
  };
}

export type LinkedinConnectionService = ReturnType<typeof createLinkedinConnection>;
