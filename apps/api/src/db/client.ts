import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** One type for both drivers: queries are written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database: queries that may run inside a transaction take either. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export type Database = {
  db: Db;
  /**
   * The same database for the credit ledger's statements (reserve, charge, refund), on PostgreSQL through
   * connections whose commits do not wait for the disk (`synchronous_commit = off`). They are on the path of every
   * AI request, and losing the last few of them in a crash of the database server costs no one a credit: a lost
   * reservation or charge leaves the credit with its owner, a lost refund is redone by the sweep of stale
   * reservations. How many credits can be spent is decided under the row's lock either way. See decision 009.
   */
  ledger: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
};

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; onIdleError?: (error: Error) => void }
  | { kind: 'pglite'; dataDir?: string; pglite?: PGlite };

/** Opens the database and applies the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection dropped by the server (restart, failover) must not crash the process; the pool reconnects.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    const ledgerPool = new pg.Pool({
      connectionString: options.url,
      max: Math.max(2, Math.ceil((options.poolSize ?? 10) / 2)),
      options: '-c synchronous_commit=off',
    });
    ledgerPool.on('error', (error) => options.onIdleError?.(error));
    return {
      db: db as unknown as Db,
      ledger: drizzlePg(ledgerPool, { schema }) as unknown as Db,
      kind: 'postgres',
      close: async () => {
        await Promise.all([pool.end(), ledgerPool.end()]);
      },
    };
  }
  let client = options.pglite;
  let release = () => {};
  if (!client) {
    if (options.dataDir) {
      mkdirSync(options.dataDir, { recursive: true });
      release = lockDataDir(options.dataDir);
    }
    client = new PGlite(options.dataDir);
  }
  const db = drizzlePglite(client, { schema });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    release();
    throw error;
  }
  const owned = client;
  return {
    db: db as unknown as Db,
    ledger: db as unknown as Db,
    kind: 'pglite',
    close: async () => {
      if (!owned.closed) await owned.close();
      release();
    },
  };
}

export class DatabaseInUseError extends Error {
  constructor(readonly pid: number) {
    super(
      `The embedded database is open in another Parley process (pid ${pid}). It can be used by one process at a ` +
        'time: stop the server first (or run Parley on PostgreSQL with DATABASE_URL, where this is not needed).',
    );
    this.name = 'DatabaseInUseError';
  }
}

/**
 * The embedded database lives in one process's memory and is written back to its folder: a second process on the
 * same folder (the admin command while the server runs) would lose one side's writes. A lock file beside the folder
 * holds the owner's pid; one left by a process that is gone is taken over.
 */
function lockDataDir(dataDir: string) {
  const file = `${dataDir.replace(/[\\/]+$/, '')}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DatabaseInUseError(pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
