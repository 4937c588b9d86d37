import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { startFakeImages } from '../apps/api/src/test/fake-images.js';
import { startFakeLinkedin } from '../apps/api/src/test/fake-linkedin.js';
import { startFakeOpenAI } from '../apps/api/src/test/fake-openai.js';
import { seedParleyCatalogue, startFakeStripe } from '../apps/api/src/test/fake-stripe.js';
import { startGoogleFixture } from '../apps/api/src/test/google-fixture.js';

/** The loopback servers the browser tests run against, shared by e2e/ and e2e/extension/. */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GOOGLE_CLIENT_ID = 'parley-e2e.apps.googleusercontent.com';
/** The site admin of the browser tests, made the way an operator makes one (`npm run admin -- create-admin`). */
export const SITE_ADMIN = { email: 'site-admin@example.com', password: 'site admin password', name: 'Site Admin' };

type Mail = { to: string[]; raw: string; receivedAt: number };

export async function listen(server: Server | SMTPServer, port = 0): Promise<number> {
  const s = server instanceof SMTPServer ? server.server : server;
  await new Promise<void>((resolve) => (server as Server).listen(port, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

export async function freePort() {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((r) => probe.close(r));
  return port;
}

/** Whether nothing listens on 127.0.0.1:port. */
export async function isPortFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function waitForHealth(url: string, api: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (api.exitCode !== null) throw new Error(`the API exited with code ${api.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the API did not answer /api/health in time');
}

export type LoopbackServers = {
  baseUrl: string;
  controlUrl: string;
  aiBaseUrl: string;
  /** The loopback Stripe (its hosted checkout pages are at <stripeUrl>/pay/<session id>). */
  stripeUrl: string;
  /** The loopback LinkedIn: its "Allow" page, and the posts it received at <linkedinUrl>/__fake/posts. */
  linkedinUrl: string;
  close: () => Promise<void>;
};

/**
 * Starts, on loopback only: a real SMTP server that keeps what it receives, a JWKS standing in for Google's,
 * a small control server the tests ask for mails and signed ID tokens, and the production API serving the
 * built web app on its embedded database.
 */
export async function startLoopbackServers(
  options: { apiPort?: number; env?: Record<string, string> } = {},
): Promise<LoopbackServers> {
  const mails: Mail[] = [];
  const licenceCodes: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw, receivedAt: Date.now() });
        callback();
      });
    },
  });
  const smtpPort = await listen(smtp);
  const google = await startGoogleFixture(GOOGLE_CLIENT_ID);
  const ai = await startFakeOpenAI({ tokenDelayMs: 15 });
  // Image providers on loopback. Not OpenAI's: its base URL would also send chat models to a server that only draws.
  const images = await startFakeImages();
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, ...imageEnv } = images.env();
  // LinkedIn's OAuth pages, userinfo and Posts API on loopback.
  const linkedin = await startFakeLinkedin();

  const control = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/mails') {
      const to = (url.searchParams.get('to') ?? '').toLowerCase();
      res.end(JSON.stringify(mails.filter((m) => !to || m.to.includes(to))));
      return;
    }
    if (url.pathname === '/licence-code' && req.method === 'POST') {
      const code = licenceCodes.shift();
      res.statusCode = code ? 200 : 410;
      res.end(JSON.stringify({ code: code ?? null }));
      return;
    }
    if (url.pathname === '/google/sign' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const claims = JSON.parse(body || '{}');
      const token = claims.foreign ? await google.signForeign(claims) : await google.sign(claims);
      res.end(JSON.stringify({ token }));
      return;
    }
    res.statusCode = 404;
    res.end('{}');
  });
  const controlPort = await listen(control);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-e2e-'));
  const apiPort = options.apiPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  // Stripe on loopback, with Parley's prices and codes; its signed events go to the API's webhook.
  const stripe = await startFakeStripe({ webhookUrl: `${baseUrl}/api/payment/webhook` });
  seedParleyCatalogue(stripe);
  const apiEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    GOOGLE_CLIENT_ID,
    GOOGLE_JWKS_URL: google.jwksUrl,
    RATE_LIMIT_PER_IP: '10000',
    AI_RATE_PER_USER: '10000',
    AI_RATE_PER_IP: '100000',
    RATE_LIMIT_PER_EMAIL: '1000',
    LOG_LEVEL: 'warn',
    OPENAI_COMPATIBLE_BASE_URL: ai.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'parley-test-model',
    ...imageEnv,
    ...linkedin.env(),
    APP_SECRET: 'e2e-secret-'.padEnd(48, 'x'),
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
    STRIPE_TRIAL_DAYS: '7',
    STUDENT_EMAIL_DOMAINS: 'uni.example.edu',
    ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
    ...options.env,
  };
  // Licence codes for the app-deal tests, made the way an operator makes them, before the API opens the database.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/cli.ts', 'create-codes', '--count', '50'],
    { cwd: root, env: apiEnv },
  );
  licenceCodes.push(...stdout.split('\n').filter((line) => /^PARLEY-/.test(line)));
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/api/src/cli.ts',
      'create-admin',
      '--email',
      SITE_ADMIN.email,
      '--password',
      SITE_ADMIN.password,
      '--name',
      SITE_ADMIN.name,
    ],
    { cwd: root, env: apiEnv },
  );
  const api = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: apiEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(baseUrl, api);

  return {
    baseUrl,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    aiBaseUrl: ai.baseUrl,
    stripeUrl: stripe.url,
    linkedinUrl: linkedin.url,
    async close() {
      api.kill('SIGTERM');
      await new Promise((r) => api.once('exit', r));
      await new Promise((r) => control.close(r));
      await new Promise<void>((r) => smtp.close(() => r()));
      await google.close();
      await ai.close();
      await images.close();
      await linkedin.close();
      await stripe.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
