import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { createFileMailer, createSmtpMailer } from './index.js';
import { renderMail } from './templates.js';

/** Undoes quoted-printable soft breaks and escapes so the test reads the text as sent. */
const decodeQp = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('mail', () => {
  it('renders localized mails with an escaped link', () => {
    const fr = renderMail('fr', 'reset', 'a@b.co', {
      name: '<Zoé>',
      link: 'http://x.test/reset-password?key=abc&x=1',
      minutes: 60,
    });
    expect(fr.subject).toBe('Réinitialisez votre mot de passe Parley');
    expect(fr.text).toContain('Bonjour <Zoé>,');
    expect(fr.text).toContain('valable 60 minutes');
    expect(fr.html).toContain('Bonjour &lt;Zoé&gt;,');
    expect(fr.html).toContain('href="http://x.test/reset-password?key=abc&amp;x=1"');
  });

  it('delivers over SMTP to a real server', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Parley <no-reply@parley.test>');
    await mailer.send(
      renderMail('es', 'verify', 'ana@example.com', {
        name: 'Ana',
        link: 'http://x.test/verify-email?token=abc',
        hours: 24,
      }),
    );
    await mailer.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('To: ana@example.com');
    expect(received[0]).toMatch(/Subject: =\?UTF-8\?|Subject: Verifica/);
    expect(decodeQp(received[0]!)).toContain('verify-email?token=abc');
  });

  it('writes an .eml file by default and, in development, logs its link', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-mail-'));
    const lines: string[] = [];
    const log = pino({}, { write: (line: string) => lines.push(line) });
    const mailer = createFileMailer(dir, 'Parley <no-reply@parley.test>', log, { printLinks: true });
    await mailer.send(
      renderMail('en', 'verify', 'bo@example.com', {
        name: 'Bo',
        link: 'http://x.test/verify-email?token=xyz',
        hours: 24,
      }),
    );
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/bo@example\.com\.eml$/);
    const eml = await readFile(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain('Subject: Verify your email address for Parley');
    expect(decodeQp(eml)).toContain('verify-email?token=xyz');
    expect(lines.join('')).toContain('http://x.test/verify-email?token=xyz');
    await rm(dir, { recursive: true, force: true });
  });

  it('in production keeps the link, the address and the contents out of the log', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-mail-'));
    const lines: string[] = [];
    const log = pino({}, { write: (line: string) => lines.push(line) });
    const mailer = createFileMailer(dir, 'Parley <no-reply@parley.test>', log, { printLinks: false });
    await mailer.send(
      renderMail('en', 'reset', 'cy@example.com', {
        name: 'Cy',
        link: 'http://x.test/reset-password?key=s3cr3t',
        minutes: 60,
      }),
    );
    const logged = lines.join('');
    expect(logged).toContain('mail written to');
    expect(logged).not.toContain('s3cr3t');
    expect(logged).not.toContain('Reset your');
    expect(decodeQp(await readFile(path.join(dir, (await readdir(dir))[0]!), 'utf8'))).toContain('key=s3cr3t');
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every mail sent to one address at the same moment', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-mail-'));
    const mailer = createFileMailer(dir, 'Parley <no-reply@parley.test>', pino({ level: 'silent' }), {
      printLinks: false,
    });
    const mails = Array.from({ length: 20 }, (_, i) =>
      renderMail('en', 'verify', 'dee@example.com', { name: 'Dee', link: `http://x.test/v?token=t${i}`, hours: 24 }),
    );
    await Promise.all(mails.map((m) => mailer.send(m)));
    const files = await readdir(dir);
    expect(files).toHaveLength(20);
    const bodies = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
    expect(new Set(bodies.map((b) => /token=(t\d+)/.exec(decodeQp(b))?.[1])).size).toBe(20);
    await rm(dir, { recursive: true, force: true });
  });
});
