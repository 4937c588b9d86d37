import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';

/**
 * Migrates once, then every test file starts from a copy: a PGlite data-dir snapshot (~1 s instead of ~5 s),
 * or, when PARLEY_TEST_DB=postgres, a database cloned from a migrated template on TEST_DATABASE_URL.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-test-'));
  if (process.env.PARLEY_TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('PARLEY_TEST_DB=postgres needs TEST_DATABASE_URL');
    // One template per project (each runs this setup), named apart.
    const template = `parley_tpl_${process.pid}_${project.name.toLowerCase().replace(/\W+/g, '_')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const templateUrl = withDatabase(url, template);
    const database = await openDatabase({ kind: 'postgres', url: templateUrl, poolSize: 1 });
    await database.close();
    project.provide('pgTemplate', template);
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const client = new PGlite();
  const database = await openDatabase({ kind: 'pglite', pglite: client });
  const snapshot = await client.dumpDataDir('none');
  await database.close();
  const file = path.join(dir, 'snapshot.tar');
  await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rm(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplate: string;
  }
}
