import { lookup } from 'node:dns/promises';
import type { ApiKeyInfo, Provider } from '@parley/contract';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import { maskKey, type SecretBox } from '../../lib/secret-box.js';
import type { OwnKey } from '../../providers/ai/registry.js';
import { isBlockedAddress } from '../../providers/web/safe-fetch.js';
import * as q from './chat.queries.js';

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

const toInfo = (row: q.ApiKeyRow): ApiKeyInfo => ({
  provider: row.provider as Provider,
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
  return {
    async add(
      userId: string,
      input: { provider: Provider; apiKey: string; baseUrl?: string | undefined; modelName?: string | undefined },
    ) {
      if (input.baseUrl) await assertPublicBaseUrl(input.baseUrl, allowPrivateBaseUrls);
      const row = await q.upsertApiKey(db, {
        userId,
        provider: input.provider,
        keyCiphertext: box.seal(input.apiKey),
        keyHint: maskKey(input.apiKey),
        baseUrl: input.baseUrl ?? null,
        modelName: input.modelName ?? null,
      });
      return toInfo(row);
    },
    async list(userId: string) {
      return (await q.listApiKeys(db, userId)).map(toInfo);
    },
    async remove(userId: string, provider: Provider) {
      await q.deleteApiKey(db, userId, provider);
    },
    /** Decrypted for one request; a base URL is checked again at use, in case its DNS changed since it was saved. */
    async ownKeys(userId: string): Promise<OwnKey[]> {
      const rows = await q.listApiKeys(db, userId);
      return rows.map((row) => ({
        provider: row.provider as Provider,
        apiKey: box.open(row.keyCiphertext),
        baseUrl: row.baseUrl,
        modelName: row.modelName,
      }));
    },
    async checkBaseUrl(key: OwnKey) {
      if (key.baseUrl) await assertPublicBaseUrl(key.baseUrl, allowPrivateBaseUrls);
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
