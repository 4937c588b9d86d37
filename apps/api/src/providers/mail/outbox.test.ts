import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';

// A mail server that is down or silent at sign-up: the person gets their answer at once, the account is kept, and
// the mail goes out once the server is back.

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

async function freePort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function smtpServer(port: number) {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push(data.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
        callback();
      });
    },
  });
  const listening = new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, listening, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function appWithSmtp(port: number): Promise<TestApp> {
  const t = await createTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${port}`, RATE_LIMIT_PER_IP: '1000', APP_SECRET: 'o'.repeat(40) },
    { fileMailer: true },
  );
  cleanup.push(() => t.close());
  return t;
}

const register = (t: TestApp, email: string) =>
  t.json('POST', '/api/auth/register', { body: { email, password: 'long enough pw', name: 'Sam' } });

describe('the mail outbox', () => {
  it('a mail server that refuses connections: sign-up answers at once, and the mail goes out once it is back', async () => {
    const port = await freePort();
    const t = await appWithSmtp(port);
    const started = performance.now();
    const res = await register(t, 'down@example.com');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Account created. Check your inbox to verify your email address.');
    expect(performance.now() - started).toBeLessThan(2500);

    const [stored] = await t.database.db.select().from(mailOutbox);
    expect(stored!.lastError).toMatch(/ECONNREFUSED/);
    expect(stored!.sealed).not.toContain('verify-email'); // sealed: the link signs its holder in
    // Nothing is due yet (the next attempt is in 30 s): the worker leaves it.
    expect(await t.app.services.mail.deliverDue()).toBe(0);

    const smtp = smtpServer(port);
    await smtp.listening;
    cleanup.push(smtp.close);
    await t.database.db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now()`);
    expect(await t.app.services.mail.deliverDue()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toContain('To: down@example.com');
    expect(smtp.received[0]).toMatch(/verify-email\?token=[A-Za-z0-9_-]{40,}/);
    expect(await t.database.db.select().from(mailOutbox)).toEqual([]);
    // The link works: the account was kept.
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(smtp.received[0]!)![1];
    expect((await t.json('POST', `/api/auth/verify?token=${token}`)).status).toBe(200);
  });

  it('a mail server that accepts and never answers: sign-up still answers within seconds', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const t = await appWithSmtp((silent.address() as AddressInfo).port);
    const started = performance.now();
    const res = await register(t, 'silent@example.com');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(4000);
    const rows = await t.database.db.select().from(mailOutbox);
    expect(rows).toHaveLength(1);
    // Still held by the first attempt (its lease): no other worker sends it twice meanwhile.
    expect(await t.app.services.mail.deliverDue()).toBe(0);
  });
});
