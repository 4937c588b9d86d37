import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link; the file mailer prints it in development only. */ link?: string;
};

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Real SMTP through nodemailer (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export function createSmtpMailer(url: string, from: string): Mailer {
  // A mail server that does not answer gives up within a minute; the outbox tries again later.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * Default with no mail server: each mail becomes an .eml file under `dir` (readable by the server's user only). The
 * log says where; in development (`printLinks`) it also prints the mail's link, so an account can be verified
 * without a mail server. In production a link is a secret (a reset key signs its holder in) and stays out of logs.
 */
export function createFileMailer(
  dir: string,
  from: string,
  log: FastifyBaseLogger,
  { printLinks }: { printLinks: boolean },
): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const safeTo = m.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      // Two mails to one address in the same millisecond get two files.
      const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      const file = path.join(dir, `${stamp}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600, flag: 'wx' });
      if (printLinks && m.link) log.info({ mail: { file } }, `mail written to ${file} — link: ${m.link}`);
      else log.info({ mail: { file } }, `mail written to ${file}`);
    },
    async close() {
      transport.close();
    },
  };
}
