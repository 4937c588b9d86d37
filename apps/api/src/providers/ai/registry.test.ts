import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createModelRegistry, MAX_CHAT_RESPONSE_BYTES } from './registry.js';

// A model server (the server's configured one, or a base URL a person gave with their own key) that streams without
// end is cut off: its answer is never read into memory past MAX_CHAT_RESPONSE_BYTES.

let server: Server;
let sent = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = `data: ${JSON.stringify({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'x'.repeat(60_000) }, finish_reason: null }],
    })}\n\n`;
    const write = () => {
      while (sent < 4 * MAX_CHAT_RESPONSE_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      res.end('data: [DONE]\n\n');
    };
    req.resume();
    res.on('close', () => undefined);
    write();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('chat answers', () => {
  it('an answer streaming past the cap fails, and far less than it streams is read', async () => {
    const { port } = server.address() as AddressInfo;
    const config = loadConfig({
      NODE_ENV: 'test',
      OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_COMPATIBLE_MODEL: 'm',
    });
    const { model } = createModelRegistry(config.ai).resolve('CUSTOM_OPENAI_COMPATIBLE', []);
    let text = 0;
    let failed: unknown = null;
    const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: ({ error }) => void (failed = error) });
    try {
      for await (const part of result.textStream) text += part.length;
    } catch (error) {
      failed = error;
    }
    expect(failed).not.toBeNull();
    expect(text).toBeLessThanOrEqual(MAX_CHAT_RESPONSE_BYTES);
    expect(sent).toBeLessThan(4 * MAX_CHAT_RESPONSE_BYTES);
  }, 60_000);
});
