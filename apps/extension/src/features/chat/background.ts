import { STREAM_PATHS } from '@parley/contract/values';
import { readSseData } from '@parley/ui/chat-stream';
import type { Browser } from 'wxt/browser';
import { API_ORIGIN } from '../../config';
import { extensionSenderContext } from '../../messaging/messaging';
import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import {
  CHAT_PORT,
  type ChatPortEvent,
  type ChatPortFile,
  type ChatPortRequest,
  type WireError,
} from '../../messaging/protocol';
import { classifySender, type SenderContext } from '../../messaging/senders';
import type { SessionService } from '../auth/session-service';
import { dataUrlToBlob } from '../capture/files';

/** The status a JSON answer carries when the session was replaced elsewhere (as in @parley/api-client). */
const FORCED_LOGOUT_STATUS = 409;

export type ChatPortDeps = {
  /** Resolves when the stored session has been read. */
  ready: Promise<unknown>;
  getToken: () => string | null;
  getLanguage: () => string;
  /** A 409: the session ended elsewhere ('You have been logged out'). */
  onForcedLogout: () => void;
  /** A 401 with a token: the token was refused. */
  onUnauthorized: () => void;
  fetch?: typeof fetch;
  senderContext?: () => SenderContext;
  apiOrigin?: string;
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

/** The error of a JSON answer (before any streaming: no credits, bad request, logged out…). */
async function errorOf(response: Response): Promise<WireError> {
  const text = await response.text().catch(() => '');
  type ErrorBody = { status?: unknown; code?: unknown; message?: unknown };
  let body: ErrorBody | null = null;
  try {
    body = text ? (JSON.parse(text) as ErrorBody) : null;
  } catch {
    body = null;
  }
  return {
    status: typeof body?.status === 'number' ? body.status : response.status,
    code: typeof body?.code === 'string' ? body.code : 'HTTP_ERROR',
    message: typeof body?.message === 'string' ? body.message : response.statusText || `HTTP ${response.status}`,
  };
}

/**
 * CHAT_PORT: our own pages stream a chat turn through the background (the only holder of the token). Each `start`
 * POSTs the multipart request to /api/ai/chat and forwards every parsed chunk of the answer; `abort` or the page
 * going away (the port disconnects) aborts the fetch, and the server keeps what was written, marked stopped.
 * Content scripts and anything else are refused: the port is closed at once.
 */
export function createChatPortHandler(deps: ChatPortDeps): (port: Port) => void {
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const senderContext = deps.senderContext ?? extensionSenderContext;
  const apiOrigin = deps.apiOrigin ?? API_ORIGIN;

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

    async function run(id: string, request: Record<string, unknown>, files: ChatPortFile[], abort: AbortController) {
      try {
        await deps.ready;
        const token = deps.getToken();
        if (!token) {
          post({ type: 'error', id, error: { status: 401, code: 'UNAUTHENTICATED', message: 'Kindly login...' } });
          return;
        }
        const form = new FormData();
        form.append('request', JSON.stringify(request));
        for (const file of files) form.append('files', dataUrlToBlob(file.dataUrl), file.name);
        let response: Response;
        try {
          response = await doFetch(apiOrigin + STREAM_PATHS.chat, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'lang-type': deps.getLanguage() || 'en' },
            body: form,
            signal: abort.signal,
          });
        } catch (cause) {
          if ((cause as Error)?.name === 'AbortError') throw cause;
          post({
            type: 'error',
            id,
            error: { status: 0, code: 'NETWORK_ERROR', message: (cause as Error)?.message || 'Network error' },
          });
          return;
        }
        // JSON answers carry their status in the body too (a 200 with body status 409 is still a forced logout).
        const json = (response.headers.get('content-type') ?? '').includes('json');
        if (!response.ok || json || !response.body) {
          const error = await errorOf(response);
          if (error.status === FORCED_LOGOUT_STATUS || response.status === FORCED_LOGOUT_STATUS) deps.onForcedLogout();
          else if (response.status === 401 || error.status === 401) deps.onUnauthorized();
          post({ type: 'error', id, error: error.status < 400 ? { ...error, code: 'EMPTY_ANSWER' } : error });
          return;
        }
        for await (const data of readSseData(response.body)) {
          let chunk: unknown;
          try {
            chunk = JSON.parse(data);
          } catch {
            continue;
          }
          post({ type: 'chunk', id, chunk });
        }
        post({ type: 'done', id });
      } catch (error) {
        if ((error as Error)?.name === 'AbortError' || abort.signal.aborted) post({ type: 'done', id });
        else
          post({
            type: 'error',
            id,
            error: { status: 0, code: 'STREAM_ERROR', message: (error as Error)?.message || 'Stream error' },
          });
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
      void run(message.id, message.request, message.files ?? [], abort);
    });
    port.onDisconnect.addListener(() => {
      connected = false;
      for (const abort of turns.values()) abort.abort();
      turns.clear();
    });
  };
}

/** The handler wired to the background's session: one line in entrypoints/background.ts. */
export function chatPortHandlerFor(
  session: Pick<SessionService, 'ready' | 'token' | 'end'>,
  getLanguage: () => string,
): (port: Port) => void {
  return createChatPortHandler({
    ready: session.ready,
    getToken: session.token,
    getLanguage,
    onForcedLogout: () => void session.end('forced'),
    onUnauthorized: () => void session.end('invalid'),
  });
}
