import { lookup } from 'node:dns/promises';
import {
  IMAGE_PROVIDERS,
  PROVIDERS,
  type ApiKeyInfo,
  type ImageProvider,
  type KeyProvider,
  type Provider,
} from '@parley/contract';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import { maskKey, type SecretBox } from '../../lib/secret-box.js';
import type { OwnKey } from '../../providers/ai/registry.js';
import type { OwnImageKey } from '../../providers/images/types.js';
import { isBlockedAddress } from '../../providers/web/safe-fetch.js';
import * as q from './models.queries.js';

/** A user's base URL may not reach private, loopback or link-local addresses unless the server allows it. */
export async function assertPublicBaseUrl(baseUrl: string, allowPrivate: boolean, resolve = lookup) {
  if (allowPrivate) return;
  const url = new URL(baseUrl);
  if (url.username || url.password) throw new DomainError('UNSAFE_BASE_URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host, { all: true });
  } catch {
    throw new DomainError('BASE_URL_NOT_FOUND');
  }
  if (!addresses.length || addresses.some((a) => isBlockedAddress(a.address))) throw new DomainError('UNSAFE_BASE_URL');
}

const isChatProvider = (provider: string): provider is Provider => (PROVIDERS as readonly string[]).includes(provider);
const isImageProvider = (provider: string): provider is ImageProvider =>
  (IMAGE_PROVIDERS as readonly string[]).includes(provider);

const toInfo = (row: q.ApiKeyRow): ApiKeyInfo => ({
  provider: row.provider as KeyProvider,
  maskedKey: row.keyHint,
  baseUrl: row.baseUrl,
  modelName: row.modelName,
  updatedAt: row.updatedAt.toISOString(),
});

export function createKeysService({
  db,
  box,
  allowPrivateBaseUrls,
}: {
  db: Db;
  box: SecretBox;
  allowPrivateBaseUrls: boolean;
}) {
  /**
   * People known to have no key of their own, and since when. Most use the server's keys, and then a chat turn skips a
   * lookup. Adding a key here forgets the entry at once; on another instance of the server the entry lasts at most
   * KEYLESS_TTL_MS, during which that person is still served (and metered) on the server's keys: never with someone
   * else's key, and never a deleted one (only the absence of keys is remembered).
   */
  const keyless = new Map<string, number>();
  const changes = new Map<string, number>(); // userId → number of key changes here, so a lookup racing one is not kept
  const KEYLESS_TTL_MS = 30_000;

  /** The person's stored keys (chat and image), or none without a query when they are known to have none. */
  async function rows(userId: string) {
    const since = keyless.get(userId);
    if (since !== undefined && Date.now() - since < KEYLESS_TTL_MS) return [];
    const before = changes.get(userId);
    const found = await q.listApiKeys(db, userId);
    if (found.length === 0 && changes.get(userId) === before) {
      keyless.delete(userId); // re-inserted, so the oldest entries are the first ones
      keyless.set(userId, Date.now());
      if (keyless.size > 50_000) keyless.delete(keyless.keys().next().value!);
    }
    return found;
  }

  return {
    async add(
      userId: string,
      input: { provider: KeyProvider; apiKey: string; baseUrl?: string | undefined; modelName?: string | undefined },
    ) {
      if (input.baseUrl) await assertPublicBaseUrl(input.baseUrl, allowPrivateBaseUrls);
      changes.set(userId, (changes.get(userId) ?? 0) + 1);
      keyless.delete(userId);
      const row = await q.upsertApiKey(db, {
        userId,
        provider: input.provider,
        keyCiphertext: box.seal(input.apiKey),
        keyHint: maskKey(input.apiKey),
        baseUrl: input.baseUrl ?? null,
        modelName: input.modelName ?? null,
      });
      // Again once stored: a lookup that started in between may have read no key.
      changes.set(userId, (changes.get(userId) ?? 0) + 1);
      keyless.delete(userId);
      return toInfo(row);
    },
    async list(userId: string) {
      return (await q.listApiKeys(db, userId)).map(toInfo);
    },
    async remove(userId: string, provider: KeyProvider) {
      await q.deleteApiKey(db, userId, provider);
    },
    /** Decrypted for one request; a base URL is checked again at use, in case its DNS changed since it was saved. */
    async ownKeys(userId: string): Promise<OwnKey[]> {
      return (await rows(userId))
        .filter((row) => isChatProvider(row.provider))
        .map((row) => ({
          provider: row.provider as Provider,
          apiKey: box.open(row.keyCiphertext),
          baseUrl: row.baseUrl,
          modelName: row.modelName,
        }));
    },
    /** The keys for image providers (an OpenAI key serves images too), decrypted for one request. */
    async imageKeys(userId: string): Promise<OwnImageKey[]> {
      return (await rows(userId))
        .filter((row) => isImageProvider(row.provider))
        .map((row) => ({
          provider: row.provider as ImageProvider,
          apiKey: box.open(row.keyCiphertext),
          baseUrl: row.baseUrl ?? undefined,
          modelName: row.modelName ?? undefined,
        }));
    },
    /** Again at use (chat or image key): the base URL's DNS may have changed since it was saved. */
    async checkBaseUrl(key: { baseUrl?: string | null | undefined }) {
      if (key.baseUrl) await assertPublicBaseUrl(key.baseUrl, allowPrivateBaseUrls);
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
