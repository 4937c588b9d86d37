import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { STREAM_PATHS } from '@parley/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app.js';

// Every route that takes files keeps no more of a body than its own limit of files: past it, the answer comes at
// once and the rest is dropped as it arrives, where the multipart cap (5 files of 25 MB) would have held it.

let t: TestApp;
let port: number;
let token: string;
const open: net.Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_PER_IP: '1000',
    AI_RATE_PER_USER: '1000',
    AI_RATE_PER_IP: '1000',
    REQUEST_TIMEOUT_SECONDS: '30',
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  token = (await t.signUp()).token;
});
afterAll(async () => {
  for (const s of open) s.destroy();
  await t.close();
});

/**
 * Sends a multipart body declared 30 MB long: a small file part in each of `fields`, then the headers of one more in
 * the last field, then nothing. Resolves with the answer's head and body as far as they came.
 */
function stalledFiles(path: string, fields: string[]) {
  const socket = net.connect(port, '127.0.0.1');
  open.push(socket);
  socket.on('error', () => undefined);
  const part = (field: string) =>
    `--xyz\r\nContent-Disposition: form-data; name="${field}"; filename="${field}.png"\r\n` +
    `Content-Type: image/png\r\n\r\n`;
  const body =
    fields.map((field) => `${part(field)}${'x'.repeat(1024)}\r\n`).join('') + part(fields.at(-1)!) + 'x'.repeat(1024);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${30 * 1024 * 1024}\r\n\r\n${body}`,
  );
  return new Promise<string>((resolve, reject) => {
    let received = '';
    const timer = setTimeout(() => reject(new Error(`${path}: no answer within 5 s`)), 5_000);
    socket.on('data', (d) => {
      received += d.toString('latin1');
      const head = received.indexOf('\r\n\r\n');
      if (head >= 0 && received.slice(head).includes('}')) {
        clearTimeout(timer);
        resolve(received);
      }
    });
  });
}

describe('a body with more files than its route takes', () => {
  it.each([
    ['an image upload', STREAM_PATHS.imageUpload, ['image'], 1],
    ['an image generation', STREAM_PATHS.imageGeneration, ['reference'], 1],
    ['an image edit', STREAM_PATHS.imageEdit, ['image', 'background', 'mask'], 3],
    ['a voice input', STREAM_PATHS.transcribe, ['audio'], 1],
    ['a chat turn', STREAM_PATHS.chat, ['files', 'files', 'files', 'files', 'files'], 5],
  ])('%s is answered at the first file too many, its limit said', async (_, path, fields, limit) => {
    const answer = await stalledFiles(path, fields);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const body = JSON.parse(answer.slice(answer.indexOf('{'))) as { code: string; message: string };
    expect(body.code).toBe('TOO_MANY_FILES');
    expect(body.message).toContain(String(limit));
  });
});
