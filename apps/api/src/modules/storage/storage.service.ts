import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../../providers/storage/index.js';

/**
 * Files (attachments today; generated images later), in the configured storage: the local folder or an
 * S3-compatible store. Keys are `<owner>/<id>`. Modules keep the keys of their files in their own rows.
 */
export function createFileStore({ storage, log }: { storage: Storage; log: FastifyBaseLogger }) {
  /** Files whose rows are gone; one that cannot be removed now is left to the sweep of orphaned files. */
  async function removeAll(keys: string[]) {
    const results = await Promise.allSettled(keys.map((key) => storage.remove(key)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed) log.warn({ failed }, 'could not remove some files; the sweep of orphaned files will');
    return keys.length - failed;
  }

  /** Each module that keeps files answers, for a batch of keys, the ones its rows still refer to. */
  const claimants: ((keys: string[]) => Promise<Set<string>>)[] = [];
  const known = async (keys: string[]) => {
    const sets = await Promise.all(claimants.map((claimant) => claimant(keys)));
    return new Set(sets.flatMap((set) => [...set]));
  };

  return {
    put: (key: string, bytes: Uint8Array) => storage.put(key, bytes),
    get: (key: string) => storage.get(key),
    removeAll,

    /** A module that keeps files in this store: `known` answers which of a batch of keys its rows refer to. */
    claim(known: (keys: string[]) => Promise<Set<string>>) {
      claimants.push(known);
    },

    /**
     * Removes the files written before `before` that no module claims: what a crash left between writing a file and
     * its row, or between deleting a row and its file. Returns how many went.
     */
    async sweep(before: Date) {
      if (claimants.length === 0) return 0;
      let removed = 0;
      let batch: string[] = [];
      const flush = async () => {
        const kept = await known(batch);
        removed += await removeAll(batch.filter((key) => !kept.has(key)));
        batch = [];
      };
      for await (const file of storage.list()) {
        if (file.modifiedAt.getTime() >= before.getTime()) continue;
        batch.push(file.key);
        if (batch.length >= 500) await flush();
      }
      if (batch.length) await flush();
      return removed;
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
