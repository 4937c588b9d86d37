import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { errorLogs, users } from '../db/schema/index.js';
import { registerErrorHandler } from '../plugins/error-handler.js';
import { registerRequestContext } from '../plugins/request-context.js';
import { openTestDatabase } from '../test/database.js';
import { logSerializers, redactUrl, safeError } from './redact.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('URLs in logs', () => {
  it('keep their path and parameter names; only harmless identifiers keep their values', () => {
    expect(redactUrl('/api/auth/verify?token=abcdefghijklmnopqrstuvwxyz')).toBe('/api/auth/verify?token=[redacted]');
    expect(redactUrl('/reset-password?key=s3cr3t&lang=fr')).toBe('/reset-password?key=[redacted]&lang=[redacted]');
    expect(redactUrl('/api/auth/social-signin?idToken=a.b.c&forceLogin=true')).toBe(
      '/api/auth/social-signin?idToken=[redacted]&forceLogin=true',
    );
    expect(redactUrl('/api/mongo/users/chat/history?chatHistoryId=0b7c')).toBe(
      '/api/mongo/users/chat/history?chatHistoryId=0b7c',
    );
    expect(redactUrl('/api/ai/transcript?url=https%3A%2F%2Fx.test%2F%3Fkey%3Dk')).toBe(
      '/api/ai/transcript?url=[redacted]',
    );
    expect(redactUrl('/x?%E0%A4%A=1&flag')).toBe('/x?%E0%A4%A=[redacted]&flag');
    // An invitation's key, in the mailed link and carried through sign-in.
    expect(redactUrl('/join-organization?key=Zm9vYmFyYmF6cXV4')).toBe('/join-organization?key=[redacted]');
    expect(redactUrl('/login?next=%2Fjoin-organization%3Fkey%3DZm9v')).toBe('/login?next=[redacted]');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});

describe('errors in logs', () => {
  it('a failed statement keeps its SQL, never its parameters or the value the database quoted', async () => {
    const secret = 'my private words\u0000';
    let failure: unknown;
    try {
      await database.db.insert(users).values({
        email: 'x@example.com',
        name: secret,
      });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeDefined();
    const raw = JSON.stringify({
      message: (failure as Error).message,
      params: (failure as { params?: unknown }).params,
    });
    expect(raw).toContain('my private words'); // what the driver's error carries
    const safe = JSON.stringify(safeError(failure));
    expect(safe).toContain('insert into \\"users\\"');
    expect(safe).not.toContain('my private words');
    expect(safe).not.toContain('x@example.com');

    let typed: unknown;
    try {
      await database.db.execute(sql`select ${'not-a-uuid-but-a-secret'}::uuid`);
    } catch (error) {
      typed = error;
    }
    expect(JSON.stringify(safeError(typed))).not.toContain('not-a-uuid-but-a-secret');
  });

  it('the error handler stores and logs an unexpected failure without the request’s words or secrets', async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'info', serializers: logSerializers, stream: { write: (l: string) => lines.push(l) } },
    });
    registerRequestContext(app);
    registerErrorHandler(app, database.db);
    app.post('/boom', async (request) => {
      const { words } = request.body as { words: string };
      await database.db.execute(sql`select ${words}::int`);
      return 'never';
    });
    const res = await app.inject({
      method: 'POST',
      url: '/boom?token=link-secret',
      payload: { words: 'the person wrote this' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('INTERNAL');
    const [stored] = await database.db
      .select()
      .from(errorLogs)
      .orderBy(sql`created_at desc`)
      .limit(1);
    const everything = JSON.stringify(stored) + lines.join('');
    expect(stored!.url).toBe('/boom?token=[redacted]');
    expect(stored!.message).toContain('Failed query: select $1::int');
    expect(everything).not.toContain('the person wrote this');
    expect(everything).not.toContain('link-secret');
    await app.close();
  });
});
