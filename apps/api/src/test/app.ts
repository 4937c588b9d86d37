import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import type { Mailer, MailMessage } from '../providers/mail/index.js';
import type { Database } from '../db/client.js';
import { openTestDatabase } from './database.js';

export function createCaptureMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer & { sent: MailMessage[]; last: (to: string) => MailMessage | undefined } = {
    sent,
    async send(m) {
      sent.push(m);
    },
    async close() {},
    last: (to) => sent.filter((m) => m.to === to).at(-1),
  };
  return mailer;
}

/**
 * The real app on a private database, with mail captured in memory (or, with `fileMailer`, the default mailer's
 * .eml files under DATA_DIR/mail) and log lines collected in `logs` when it is given.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { logs?: string[]; fileMailer?: boolean; database?: Database; clock?: () => Date } = {},
) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-app-'));
  const database = options.database ?? (await openTestDatabase());
  const mail = createCaptureMailer();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.DBG_LOG ?? (options.logs ? 'info' : 'silent'),
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://parley.test',
    ARGON2_MEMORY_KIB: '1024',
    SERVE_WEB: 'false',
    ...env,
  });
  const app = await buildApp({
    config,
    database,
    ...(options.fileMailer ? {} : { mailer: mail }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logs ? { logStream: { write: (line: string) => void options.logs!.push(line) } } : {}),
  });
  await app.ready();

  const json = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { body?: unknown; token?: string; lang?: string; headers?: Record<string, string> } = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.lang ? { 'lang-type': options.lang } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
    return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
  };

  /** The secret in the last link mailed to `to` (`token=` for verification, `key=` for reset). */
  const linkSecret = (to: string, param: 'token' | 'key') => {
    const link = mail.last(to)?.link;
    if (!link) throw new Error(`no mail to ${to}`);
    return new URL(link).searchParams.get(param)!;
  };

  let counter = 0;
  /** Registers, verifies from the mailed link, and signs in. */
  const signUp = async (overrides: { email?: string; password?: string; name?: string; timezone?: string } = {}) => {
    counter += 1;
    const email = overrides.email ?? `user${counter}-${Date.now()}@example.com`;
    const password = overrides.password ?? 'correct horse battery';
    const reg = await json('POST', '/api/auth/register', {
      body: {
        email,
        password,
        name: overrides.name ?? `User ${counter}`,
        ...(overrides.timezone ? { timezone: overrides.timezone } : {}),
      },
    });
    if (reg.status !== 200) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
    const verified = await json('POST', `/api/auth/verify?token=${linkSecret(email, 'token')}`);
    if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
    const login = await json('POST', '/api/auth/login', { body: { email, password } });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    return { email, password, token: login.body.data.token as string, user: login.body.data.user };
  };

  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { app: app as App, mail, database, config, json, linkSecret, signUp, close };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
