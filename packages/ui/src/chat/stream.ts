/**
 * Reader of the AI SDK "UI message stream" (server-sent events, one JSON chunk per `data:` event). Written here
 * instead of pulling in the `ai` package: the chat needs a dozen lines of parsing, not the SDK's client runtime.
 */

export type StartMetadata = {
  chatId: string;
  userMessageId: string;
  model: string;
  modelLabel: string;
  keySource: 'own' | 'server' | null;
};

/** The chunks the chat reads; any other type (start-step, text-start, …) is passed through as `other`. */
export type StreamChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: Partial<StartMetadata> }
  | { type: 'source-url'; sourceId: string; url: string; title?: string }
  | { type: 'text-delta'; id?: string; delta: string }
  | { type: 'finish'; messageMetadata?: { citedPages?: number[] } }
  | { type: 'error'; errorText: string }
  | { type: 'abort' }
  | { type: 'other'; original: string };

/** How long the rest of a body is read after `[DONE]` before it is cancelled. */
export const AFTER_DONE_MS = 1000;

/**
 * After `[DONE]`: the rest of the body is read, so that the request ends as a finished one and not as one cut short
 * (the browser reports a body left unread as aborted); the server ends it at once. A body that goes on longer than
 * AFTER_DONE_MS is cancelled.
 */
async function finish(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), AFTER_DONE_MS)));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return void (await reader.cancel());
      if (next.done) return;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The `data` of each server-sent event, in order; ends at `[DONE]` or at the end of the stream. */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // Complete lines only; a line split across reads waits for its end.
      let newline: RegExpExecArray | null;
      const lineEnd = /\r\n|\r(?!$)|\n/g;
      let consumed = 0;
      while ((newline = lineEnd.exec(buffer))) {
        const line = buffer.slice(consumed, newline.index);
        consumed = newline.index + newline[0].length;
        if (line === '') {
          if (data.length) {
            const event = data.join('\n');
            data = [];
            if (event === '[DONE]') return await finish(reader);
            yield event;
          }
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line[5] === ' ' ? 6 : 5));
        }
        // Comments (`:`), `event:`, `id:` and `retry:` lines carry nothing the chat needs.
      }
      buffer = buffer.slice(consumed);
      if (done) {
        if (buffer.startsWith('data:')) data.push(buffer.slice(buffer[5] === ' ' ? 6 : 5));
        if (data.length && data.join('\n') !== '[DONE]') yield data.join('\n');
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** One parsed `data:` event as a chunk the chat reads, or null when it is not one. */
export function toChunk(raw: unknown): StreamChunk | null {
  if (!raw || typeof raw !== 'object') return null;
  const chunk = raw as Record<string, unknown>;
  switch (chunk.type) {
    case 'start':
      return {
        type: 'start',
        ...(typeof chunk.messageId === 'string' ? { messageId: chunk.messageId } : {}),
        ...(chunk.messageMetadata && typeof chunk.messageMetadata === 'object'
          ? { messageMetadata: chunk.messageMetadata as Partial<StartMetadata> }
          : {}),
      };
    case 'source-url':
      return typeof chunk.url === 'string'
        ? {
            type: 'source-url',
            sourceId: String(chunk.sourceId ?? ''),
            url: chunk.url,
            ...(typeof chunk.title === 'string' ? { title: chunk.title } : {}),
          }
        : null;
    case 'text-delta':
      return typeof chunk.delta === 'string' ? { type: 'text-delta', delta: chunk.delta } : null;
    case 'finish': {
      const meta = chunk.messageMetadata as { citedPages?: unknown } | undefined;
      const pages = Array.isArray(meta?.citedPages) ? meta.citedPages.filter((p) => Number.isInteger(p)) : undefined;
      return { type: 'finish', ...(pages ? { messageMetadata: { citedPages: pages as number[] } } : {}) };
    }
    case 'error':
      return { type: 'error', errorText: typeof chunk.errorText === 'string' ? chunk.errorText : '' };
    case 'abort':
      return { type: 'abort' };
    default:
      return typeof chunk.type === 'string' ? { type: 'other', original: chunk.type } : null;
  }
}

/** The chunks of a UI message stream; malformed events are skipped. */
export async function* readUiMessageStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamChunk> {
  for await (const data of readSseData(body)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      continue;
    }
    const chunk = toChunk(parsed);
    if (chunk) yield chunk;
  }
}
