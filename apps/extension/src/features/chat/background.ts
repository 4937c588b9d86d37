import type { ApiClient } from '@parley/api-client';
import { chatStream, transcribe } from '@parley/api-client/streams';
import type { ChatRequest } from '@parley/contract';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import { readUiMessageStream } from '@parley/ui/chat-stream';
import type { Browser } from 'wxt/browser';
import { dataUrlToBlob } from '../../platform/messaging/data-url';
import { extensionSenderContext } from '../../platform/messaging/messaging';
import {
  CHAT_PORT,
  type ChatPortEvent,
  type ChatPortFile,
  type ChatPortRequest,
} from '../../platform/messaging/protocol';
import { MessageError, type Handler } from '../../platform/messaging/router';
import { classifySender, type SenderContext } from '../../platform/messaging/senders';

export type ChatPortDeps = {
  /** Resolves when the stored session has been read. */
  ready: Promise<unknown>;
  hasToken: () => boolean;
  /** The background's API client: the token, lang-type and the 409 / 401 rules are its business. */
  client: ApiClient;
  senderContext?: () => SenderContext;
};

type Port = Pick<Browser.runtime.Port, 'name' | 'sender' | 'postMessage' | 'disconnect' | 'onMessage' | 'onDisconnect'>;

function isRequest(value: unknown): value is ChatPortRequest {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  if (typeof m.id !== 'string' || m.id.length === 0 || m.id.length > 100) return false;
  if (m.type === 'abort') return true;
  if (m.files !== undefined && !isFileList(m.files)) return false;
  return m.type === 'start' && typeof m.request === 'object' && m.request !== null && !Array.isArray(m.request);
}

/** At most the API's number of files, each a named data: URL (the API checks the bytes themselves). */
function isFileList(value: unknown): value is ChatPortFile[] {
  return (
    Array.isArray(value) &&
    value.length <= ATTACHMENT_LIMITS.maxFiles &&
    value.every(
      (f) =>
        f &&
        typeof f === 'object' &&
        typeof f.name === 'string' &&
        f.name.length <= 255 &&
        typeof f.mediaType === 'string' &&
        typeof f.dataUrl === 'string' &&
        f.dataUrl.startsWith('data:'),
    )
  );
}

/**
 * CHAT_PORT: our own pages stream a chat turn through the background (the only holder of the token). Each `start`
 * POSTs the multipart request to /api/ai/chat and forwards every parsed chunk of the answer; `abort` or the page
 * going away (the port disconnects) aborts the fetch, and the server keeps what was written, marked stopped.
 * Content scripts and anything else are refused: the port is closed at once.
 */
export function createChatPortHandler(deps: ChatPortDeps): (port: Port) => void {
  const senderContext = deps.senderContext ?? extensionSenderContext;

  return (port) => {
    if (port.name !== CHAT_PORT) return;
    if (classifySender(port.sender, senderContext()) !== 'extension') {
      port.disconnect();
      return;
    }
    const turns = new Map<string, AbortController>();
    let connected = true;
    const post = (event: ChatPortEvent) => {
      if (!connected) return;
      try {
        port.postMessage(event);
      } catch {
        connected = false;
      }
    };

    async function run(id: string, request: ChatRequest, files: ChatPortFile[], abort: AbortController) {
      try {
        await deps.ready;
        if (!deps.hasToken()) {
          post({ type: 'error', id, error: { status: 401, code: 'UNAUTHENTICATED', message: 'Kindly login...' } });
          return;
        }
        const parts = files.map((file) => new File([dataUrlToBlob(file.dataUrl)], file.name, { type: file.mediaType }));
        const response = await chatStream(deps.client, request, parts, abort.signal);
        // The chunks as the shared parser reads them (the panel reduces them with the shared reducer); the parts the
        // panel has no use for (steps, reasoning, text boundaries) are not sent across.
        for await (const chunk of readUiMessageStream(response.body!)) {
          if (chunk.type !== 'other') post({ type: 'chunk', id, chunk });
        }
        post({ type: 'done', id });
      } catch (error) {
        if ((error as Error)?.name === 'AbortError' || abort.signal.aborted) post({ type: 'done', id });
        else {
          const e = error as { status?: unknown; code?: unknown; message?: unknown } | null;
          post({
            type: 'error',
            id,
            error: {
              status: typeof e?.status === 'number' ? e.status : 0,
              code: typeof e?.code === 'string' ? e.code : 'STREAM_ERROR',
              message: (typeof e?.message === 'string' && e.message) || 'Stream error',
            },
          });
        }
      } finally {
        if (turns.get(id) === abort) turns.delete(id);
      }
    }

    port.onMessage.addListener((message: unknown) => {
      if (!isRequest(message)) return;
      if (message.type === 'abort') {
        turns.get(message.id)?.abort();
        return;
      }
      turns.get(message.id)?.abort();
      const abort = new AbortController();
      turns.set(message.id, abort);
      void run(message.id, message.request as ChatRequest, message.files ?? [], abort);
    });
    port.onDisconnect.addListener(() => {
      connected = false;
      for (const abort of turns.values()) abort.abort();
      turns.clear();
    });
  };
}

/** The API's limit on a recording is checked there; this only keeps absurd payloads from being decoded at all. */
const MAX_RECORDING_CHARS = 40 * 1024 * 1024;

/**
 * TRANSCRIBE: voice input of our pages, for browsers whose own speech recognition cannot work. The recording comes
 * as a data: URL and goes to POST /api/ai/transcribe with the token, like every call.
 */
export function createTranscribeHandler(deps: Omit<ChatPortDeps, 'senderContext'>): Handler<'TRANSCRIBE'> {
  return async (data) => {
    const audio = data?.audio;
    const name = data?.name;
    if (
      typeof audio !== 'string' ||
      !/^data:audio\/[\w.+-]+(;[\w=.+-]+)*;base64,/.test(audio) ||
      audio.length > MAX_RECORDING_CHARS ||
      typeof name !== 'string' ||
      !/^[\w.-]{1,64}$/.test(name)
    ) {
      throw new MessageError('BAD_REQUEST', 'audio must be a data: URL of a recording');
    }
    await deps.ready;
    if (!deps.hasToken()) throw new MessageError('UNAUTHENTICATED', 'Kindly login...', 401);
    return transcribe(deps.client, dataUrlToBlob(audio), name);
  };
}
