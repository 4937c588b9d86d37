import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { withDatabase } from './global-setup.js';

/** A PostgreSQL database cloned from the migrated template, for one test file (or a group of server processes). */
export async function createPostgresTestDatabase() {
  const url = process.env.TEST_DATABASE_URL!;
  const name = `parley_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  return {
    url: withDatabase(url, name),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A private, migrated database for one test file: PGlite from the snapshot, or a PostgreSQL clone of the template. */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.PARLEY_TEST_DB === 'postgres') {
    const created = await createPostgresTestDatabase();
    const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 20 });
    return {
      ...database,
      close: async () => {
        await database.close();
        await created.drop();
      },
    };
  }
  const snapshot = await readFile(inject('pgliteSnapshot'));
  const client = new PGlite({ loadDataDir: new Blob([snapshot]) });
  return openDatabase({ kind: 'pglite', pglite: client });
}
