import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, users } from '../../db/schema/index.js';
import { buildPdf, buildPng } from '../documents/test-fixtures.js';
import { buildPhotoJpeg, buildPngImage, CAMERA_MAKE } from '../documents/image-fixtures.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { walletOf } from '../../test/wallets.js';
import { startFakeOpenAI } from '../../test/fake-openai.js';
import { chatForm, encodeForm, parseUiStream } from '../../test/sse.js';

// Files belong to their conversations: they go when the conversation goes, they are never left by a refused turn,
// and what a crash leaves behind is swept.

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    OPENAI_COMPATIBLE_MODEL: 'fake-model',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '10000',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const MODEL = 'CUSTOM_OPENAI_COMPATIBLE';
const png = { name: 'photo.png', type: 'image/png', bytes: buildPng() };
const pdf = { name: 'report.pdf', type: 'application/pdf', bytes: buildPdf([['Page one.']]) };

async function chat(token: string, request: object, files: Parameters<typeof chatForm>[1] = []) {
  const { payload, contentType } = await encodeForm(chatForm(request, files));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/chat',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  const chunks = res.headers['content-type']?.toString().includes('event-stream') ? parseUiStream(res.body) : [];
  return { status: res.statusCode, chatId: chunks[0]?.messageMetadata?.chatId as string | undefined, res };
}

/** Every file in storage under this person's folder. */
async function storedFiles(userId: string) {
  try {
    return await readdir(path.join(t.config.dataDir, 'files', userId));
  } catch {
    return [];
  }
}

const userIdOf = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email)))[0]!.id;

describe('files and their conversations', () => {
  it('deleting a conversation deletes its files; deleting all leaves none of the person’s files', async () => {
    const u = await t.signUp();
    const id = await userIdOf(u.email);
    const a = await chat(u.token, { model: MODEL, text: 'Look at these' }, [png, pdf]);
    const b = await chat(u.token, { model: MODEL, text: 'And this' }, [png]);
    const c = await chat(u.token, { model: MODEL, text: 'One more' }, [pdf]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(await storedFiles(id)).toHaveLength(4);

    const one = await t.json('DELETE', `/api/mongo/users/chat/delete?chatHistoryId=${a.chatId}`, { token: u.token });
    expect(one.status).toBe(200);
    expect(await storedFiles(id)).toHaveLength(2);

    const all = await t.json('DELETE', '/api/mongo/users/chat/histories/delete', { token: u.token });
    expect(all.body.data).toEqual({ deleted: 2 });
    expect(await storedFiles(id)).toEqual([]);
    expect(await t.database.db.select().from(documents).where(eq(documents.userId, id))).toEqual([]);
  });

  it('a turn refused after its files were checked writes no file and no row, and keeps its credit', async () => {
    const u = await t.signUp();
    const id = await userIdOf(u.email);
    // The page cannot be read (a private address): refused once the upload had been checked.
    const refused = await chat(u.token, { model: MODEL, text: 'Compare', url: 'http://127.0.0.1:9/x' }, [png, pdf]);
    expect(refused.status).toBe(400);
    expect(refused.res.json().code).toBe('URL_NOT_ALLOWED');
    expect(await storedFiles(id)).toEqual([]);
    expect(await t.database.db.select().from(documents).where(eq(documents.userId, id))).toEqual([]);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3, basicCredit: 30 });

    // The same in a conversation that already exists: nothing is added to it.
    const first = await chat(u.token, { model: MODEL, text: 'Hello' });
    const again = await chat(u.token, { model: MODEL, chatId: first.chatId, text: 'x', url: 'http://10.0.0.1/' }, [
      png,
    ]);
    expect(again.status).toBe(400);
    expect(await storedFiles(id)).toEqual([]);
    expect(await t.database.db.select().from(documents).where(eq(documents.userId, id))).toEqual([]);
  });

  it('the sweep removes files no document refers to and documents no message refers to, once they are old', async () => {
    const u = await t.signUp();
    const id = await userIdOf(u.email);
    const kept = await chat(u.token, { model: MODEL, text: 'Keep this' }, [png]);
    expect(kept.status).toBe(200);
    const folder = path.join(t.config.dataDir, 'files', id);
    await mkdir(folder, { recursive: true });
    // A crash between writing a file and its row; and a fresh one that a running turn is still writing.
    const old = path.join(folder, '00000000-0000-4000-8000-000000000001');
    const fresh = path.join(folder, '00000000-0000-4000-8000-000000000002');
    await writeFile(old, 'left behind');
    await writeFile(fresh, 'being written');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(old, hourAgo, hourAgo);
    // A document whose question was never stored (its turn stopped in between), with its file.
    const [conversation] = (await t.json('GET', '/api/mongo/users/chat/histories', { token: u.token })).body.data.map(
      (c: { chatHistoryId: string }) => c.chatHistoryId,
    );
    const strayKey = `${id}/00000000-0000-4000-8000-000000000003`;
    await writeFile(path.join(t.config.dataDir, 'files', strayKey), 'stray');
    await utimes(path.join(t.config.dataDir, 'files', strayKey), hourAgo, hourAgo);
    await t.database.db.insert(documents).values({
      userId: id,
      conversationId: conversation,
      kind: 'image',
      name: 'stray.png',
      mediaType: 'image/png',
      size: 5,
      storageKey: strayKey,
      createdAt: hourAgo,
    });
    expect(await storedFiles(id)).toHaveLength(4);

    expect(await t.app.services.chat.sweepOrphans(3600)).toBe(2);
    const left = await storedFiles(id);
    expect(left).toHaveLength(2);
    expect(left).toContain(path.basename(fresh));
    const rows = await t.database.db.select().from(documents).where(eq(documents.userId, id));
    expect(rows.map((r) => r.name)).toEqual(['photo.png']);
    // The conversation's own file is still served.
    const history = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${kept.chatId}`, {
      token: u.token,
    });
    const fileId = history.body.data.messages[0].attachments[0].id;
    const file = await t.app.inject({ url: `/api/files/${fileId}`, headers: { authorization: `Bearer ${u.token}` } });
    expect(file.statusCode).toBe(200);
  });
});

describe('serving a file', () => {
  it('an id that is not a uuid is not found, like an unknown one, never a server error', async () => {
    const u = await t.signUp();
    const get = (id: string) =>
      t.app.inject({ url: `/api/files/${id}`, headers: { authorization: `Bearer ${u.token}` } });
    const unknown = await get('6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(unknown.statusCode).toBe(404);
    for (const id of ['-'.repeat(36), '0'.repeat(36), 'g'.repeat(36)]) {
      const res = await get(id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: unknown.json().code, message: unknown.json().message });
    }
  });
});

describe('images', () => {
  it('an image claiming a huge canvas is refused with the limit, before anything is stored or charged', async () => {
    const u = await t.signUp();
    const id = await userIdOf(u.email);
    const bomb = { name: 'bomb.png', type: 'image/png', bytes: buildPngImage({ width: 50_000, height: 50_000 }) };
    const refused = await chat(u.token, { model: MODEL, text: 'Look' }, [bomb]);
    expect(refused.status).toBe(400);
    expect(refused.res.json()).toMatchObject({
      code: 'IMAGE_TOO_LARGE',
      message:
        'This image is too large (50000 × 50000 pixels): images may be at most 16384 pixels on a side and 64 megapixels.',
    });
    expect(await storedFiles(id)).toEqual([]);
    expect(await walletOf(t.database.db, u.email)).toMatchObject({ dailyCredit: 3, basicCredit: 30 });
  });

  it('a photo’s location and camera data are neither stored nor sent to the model; its orientation stays', async () => {
    const u = await t.signUp();
    const id = await userIdOf(u.email);
    const photo = buildPhotoJpeg({ orientation: 6 });
    expect(Buffer.from(photo).includes(CAMERA_MAKE)).toBe(true);
    const res = await chat(u.token, { model: MODEL, text: 'Where was this?' }, [
      { name: 'IMG_0001.jpg', type: 'image/jpeg', bytes: photo },
    ]);
    expect(res.status).toBe(200);
    const [file] = await storedFiles(id);
    const { readFile } = await import('node:fs/promises');
    const stored = await readFile(path.join(t.config.dataDir, 'files', id, file!));
    const sent = fake.requests
      .flatMap((r) => r.body.messages as { content: unknown }[])
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; image_url?: { url: string } }[]) : []))
      .findLast((p) => p.type === 'image_url')!;
    expect(sent.image_url!.url).toMatch(/^data:image\/jpeg;base64,/);
    const sentBytes = Buffer.from(sent.image_url!.url.split(',')[1]!, 'base64');
    for (const bytes of [stored, sentBytes]) {
      expect(bytes.includes(CAMERA_MAKE)).toBe(false);
      expect(bytes.includes('GPS')).toBe(false);
      expect(bytes.includes('Keizersgracht')).toBe(false);
      expect(bytes.includes('Exif')).toBe(true); // the orientation alone
    }
    expect(stored.equals(sentBytes)).toBe(true);
  });

  it('a file name loses control and bidirectional characters, in storage and in Content-Disposition', async () => {
    const u = await t.signUp();
    const res = await chat(u.token, { model: MODEL, text: 'Name' }, [
      { name: 'invoice\u202Egnp.exe\u0007.png', type: 'image/png', bytes: buildPng() },
    ]);
    expect(res.status).toBe(200);
    const history = await t.json('GET', `/api/mongo/users/chat/history?chatHistoryId=${res.chatId}`, {
      token: u.token,
    });
    const attachment = history.body.data.messages[0].attachments[0];
    expect(attachment.name).toBe('invoicegnp.exe.png');
    const file = await t.app.inject({
      url: `/api/files/${attachment.id}`,
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="invoicegnp.exe.png"; filename*=UTF-8''invoicegnp.exe.png`,
    );
  });
});
