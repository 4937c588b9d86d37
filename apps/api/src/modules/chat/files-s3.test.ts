import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, users } from '../../db/schema/index.js';
import { buildPhotoJpeg, CAMERA_MAKE } from '../documents/image-fixtures.js';
import { buildPdf } from '../documents/test-fixtures.js';
import { createS3Storage } from '../../providers/storage/s3.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { startFakeS3 } from '../../test/fake-s3.js';
import { chatForm, encodeForm, parseUiStream } from '../../test/sse.js';

// With S3_* set, chat attachments live in the S3-compatible store (s3rver on loopback), not under DATA_DIR.

let fakeAi: Awaited<ReturnType<typeof startFakeOpenAI>>;
let fakeS3: Awaited<ReturnType<typeof startFakeS3>>;
let s3Dir: string;
let bucket: ReturnType<typeof createS3Storage>;
let t: TestApp;
const logs: string[] = [];

beforeAll(async () => {
  s3Dir = await mkdtemp(path.join(os.tmpdir(), 'parley-chat-s3-'));
  fakeAi = await startFakeOpenAI();
  fakeS3 = await startFakeS3({ directory: s3Dir });
  bucket = createS3Storage(fakeS3.options);
  t = await createTestApp(
    {
      ...fakeS3.env,
      OPENAI_COMPATIBLE_BASE_URL: fakeAi.baseUrl,
      OPENAI_COMPATIBLE_MODEL: 'fake-model',
      AI_RATE_PER_USER: '1000',
      AI_RATE_PER_IP: '10000',
    },
    { logs },
  );
});
afterAll(async () => {
  await t.close();
  bucket.close();
  await fakeS3.close();
  await fakeAi.close();
  await rm(s3Dir, { recursive: true, force: true });
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';

async function chat(token: string, request: object, files: Parameters<typeof chatForm>[1] = []) {
  const { payload, contentType } = await encodeForm(chatForm(request, files));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/chat',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  const chunks = res.headers['content-type']?.toString().includes('event-stream') ? parseUiStream(res.body) : [];
  return { status: res.statusCode, chatId: chunks[0]?.messageMetadata?.chatId as string | undefined };
}

async function keysInBucket(prefix: string) {
  const keys: string[] = [];
  for await (const { key } of bucket.list()) if (key.startsWith(prefix)) keys.push(key);
  return keys;
}

describe('chat attachments on S3 storage', () => {
  it('are stored in the bucket, served back through the file route, and removed with their conversation', async () => {
    const u = await t.signUp();
    const userId = (await t.database.db.select().from(users).where(eq(users.email, u.email)))[0]!.id;
    const photo = buildPhotoJpeg({ orientation: 1 });
    const pdf = buildPdf([['On S3.']]);
    const sent = await chat(u.token, { model: MODEL, text: 'Look' }, [
      { name: 'photo.jpg', type: 'image/jpeg', bytes: photo },
      { name: 'notes.pdf', type: 'application/pdf', bytes: pdf },
    ]);
    expect(sent.status).toBe(200);

    const rows = await t.database.db.select().from(documents).where(eq(documents.userId, userId));
    expect(rows).toHaveLength(2);
    expect((await keysInBucket(`${userId}/`)).sort()).toEqual(rows.map((r) => r.storageKey).sort());
    // Nothing on the local disk.
    await expect(readdir(path.join(t.config.dataDir, 'files'))).rejects.toMatchObject({ code: 'ENOENT' });

    const history = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${sent.chatId}`, {
      token: u.token,
    });
    const attachments = history.body.data.messages[0].attachments as { id: string; name: string }[];
    for (const attachment of attachments) {
      const row = rows.find((r) => r.id === attachment.id)!;
      const file = await t.app.inject({
        url: `/api/files/${attachment.id}`,
        headers: { authorization: `Bearer ${u.token}` },
      });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe(row.mediaType);
      expect(file.rawPayload.equals(await bucket.get(row.storageKey!))).toBe(true);
    }
    const image = await t.app.inject({
      url: `/api/files/${attachments.find((a) => a.name === 'photo.jpg')!.id}`,
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(image.rawPayload.includes(CAMERA_MAKE)).toBe(false); // stored without its camera data
    const pdfBack = await t.app.inject({
      url: `/api/files/${attachments.find((a) => a.name === 'notes.pdf')!.id}`,
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(pdfBack.rawPayload.equals(Buffer.from(pdf))).toBe(true);

    // Someone else asking for the file: 404, as on the local disk.
    const other = await t.signUp();
    const theirs = await t.app.inject({
      url: `/api/files/${attachments[0]!.id}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(theirs.statusCode).toBe(404);

    const removed = await t.json('DELETE', `/api/mongo/users/chat/delete?chatHistoryId=${sent.chatId}`, {
      token: u.token,
    });
    expect(removed.status).toBe(200);
    expect(await keysInBucket(`${userId}/`)).toEqual([]);
  });

  it('an object gone from the bucket fails the request without its key in the logs', async () => {
    const u = await t.signUp();
    const userId = (await t.database.db.select().from(users).where(eq(users.email, u.email)))[0]!.id;
    const sent = await chat(u.token, { model: MODEL, text: 'Keep' }, [
      { name: 'notes.pdf', type: 'application/pdf', bytes: buildPdf([['Gone soon.']]) },
    ]);
    expect(sent.status).toBe(200);
    const [row] = await t.database.db.select().from(documents).where(eq(documents.userId, userId));
    await bucket.remove(row!.storageKey!);
    logs.length = 0;
    const file = await t.app.inject({ url: `/api/files/${row!.id}`, headers: { authorization: `Bearer ${u.token}` } });
    expect(file.statusCode).toBe(500);
    expect(file.json()).toMatchObject({ code: 'INTERNAL' });
    expect(logs.join('\n')).toContain('no stored file under this key');
    // (The document's id is in the logged URL; the key, with its owner, is not.)
    expect(logs.join('\n')).not.toContain(row!.storageKey!);
  });
});
