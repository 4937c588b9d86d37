// Shared by the benchmarks: sign a user up through the real flow, and make a throwaway PostgreSQL database.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { LOOPBACK, onCleanup, sleep, type ServerProcess } from './lib.js';

export type BenchUser = { email: string; password: string; name: string };

export async function call(server: ServerProcess, method: string, urlPath: string, body?: unknown, token?: string) {
  const response = await fetch(`${server.baseUrl}${urlPath}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as { status: number; message: string; data: unknown };
}

/** Quoted-printable soft breaks and `=3D` would split or hide the token. */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function verificationToken(mailDir: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = await readdir(mailDir).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
      const raw = decodeQuotedPrintable(await readFile(path.join(mailDir, file), 'utf8'));
      const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(raw);
      if (match) return match[1]!;
    }
    await sleep(100);
  }
  throw new Error(`no verification mail with a verify-email link under ${mailDir}`);
}

/** register → verify (link from the .eml) → login; returns the bearer token. */
export async function signIn(server: ServerProcess, dataDir: string, USER: BenchUser): Promise<string> {
  await call(server, 'POST', '/api/auth/register', USER);
  const token = await verificationToken(path.join(dataDir, 'mail'));
  await call(server, 'POST', `/api/auth/verify?token=${encodeURIComponent(token)}`);
  const login = await call(server, 'POST', '/api/auth/login', { email: USER.email, password: USER.password });
  const bearer = (login.data as { token?: unknown } | null)?.token;
  if (typeof bearer !== 'string')
    throw new Error(`login answered no data.token: ${JSON.stringify(login).slice(0, 300)}`);
  const profile = await call(server, 'GET', '/api/user/profile', undefined, bearer);
  if ((profile.data as { email?: string } | null)?.email !== USER.email)
    throw new Error('profile did not return the signed-in user');
  return bearer;
}

/** Finds an admin connection to the local PostgreSQL (trust auth), creates a fresh database, returns its URL. */
export async function createBenchDatabase(
  label: string,
): Promise<{ url: string; drop: () => Promise<void> } | { error: string }> {
  const candidates = process.env.BENCH_PG_ADMIN_URL
    ? [process.env.BENCH_PG_ADMIN_URL]
    : [`postgres://postgres@${LOOPBACK}:5432/test`, `postgres://root@${LOOPBACK}:5432/test`];
  const problems: string[] = [];
  for (const adminUrl of candidates) {
    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch (error) {
      problems.push(`${adminUrl.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`);
      continue;
    }
    const name = `parley_bench_${label}_${process.pid}`;
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    let dropped = false;
    const drop = async () => {
      if (dropped) return;
      dropped = true;
      unregister();
      const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    };
    const unregister = onCleanup(drop);
    return { url: url.toString(), drop };
  }
  return { error: problems.join('; ') };
}
