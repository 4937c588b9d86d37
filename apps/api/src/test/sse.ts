import type { TestApp } from './app.js';

/** Chunks of an AI SDK UI message stream (server-sent events), in order. */
export function parseUiStream(body: string): Record<string, any>[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
}

export const streamedText = (chunks: Record<string, any>[]) =>
  chunks
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');

/** A multipart body for `POST /api/ai/chat`: the JSON `request` field and files. */
export function chatForm(
  request: object,
  files: { name: string; type: string; bytes: Uint8Array }[] = [],
  fileField = 'files',
) {
  const form = new FormData();
  form.append('request', JSON.stringify(request));
  for (const f of files) form.append(fileField, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

/** app.inject wants a payload and headers; a Request builds the multipart encoding for us. */
export async function encodeForm(form: FormData) {
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/**
 * `POST /api/ai/chat` through `app.inject`, as a client sends it: the streamed chunks and their text when the answer
 * streams, the JSON body when it is refused, and the conversation's id from the `start` chunk.
 */
export async function sendChat(
  app: { inject: TestApp['app']['inject'] },
  token: string,
  request: object,
  { files = [], lang = 'en' }: { files?: Parameters<typeof chatForm>[1]; lang?: string } = {},
) {
  const { payload, contentType } = await encodeForm(chatForm(request, files));
  const res = await app.inject({
    method: 'POST',
    url: '/api/ai/chat',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'lang-type': lang },
    payload,
  });
  const isStream = (res.headers['content-type'] ?? '').toString().includes('text/event-stream');
  const chunks = isStream ? parseUiStream(res.body) : [];
  return {
    status: res.statusCode,
    chunks,
    text: streamedText(chunks),
    json: isStream ? null : res.json(),
    chatId: chunks[0]?.messageMetadata?.chatId as string | undefined,
  };
}
