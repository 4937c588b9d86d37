import type { StreamChunk } from '@parley/ui/chat-stream';
import { browser, type Browser } from 'wxt/browser';
import {
  CHAT_PORT,
  type ChatPortEvent,
  type ChatPortFile,
  type ChatPortRequest,
} from '../../platform/messaging/protocol';

export type ChatTurnHandlers = {
  onChunk: (chunk: StreamChunk) => void;
  onDone: () => void;
  onError: (error: { status: number; code: string; message: string }) => void;
};

/**
 * The page's end of CHAT_PORT: one port for the page's life (reopened when the background worker restarted), turns
 * told apart by id. Returns the function that stops a turn.
 */
export function createChatPortClient(
  connect: () => Browser.runtime.Port = () => browser.runtime.connect({ name: CHAT_PORT }),
) {
  let port: Browser.runtime.Port | null = null;
  const turns = new Map<string, ChatTurnHandlers>();

  const open = () => {
    if (port) return port;
    const p = connect();
    p.onMessage.addListener((event: ChatPortEvent) => {
      const turn = turns.get(event?.id);
      if (!turn) return;
      if (event.type === 'chunk') turn.onChunk(event.chunk);
      else {
        turns.delete(event.id);
        if (event.type === 'done') turn.onDone();
        else turn.onError(event.error);
      }
    });
    p.onDisconnect.addListener(() => {
      if (port === p) port = null;
      // The worker went away mid-answer: what arrived stays, marked as cut short.
      for (const turn of turns.values()) turn.onDone();
      turns.clear();
    });
    port = p;
    return p;
  };

  return {
    start(id: string, request: Record<string, unknown>, handlers: ChatTurnHandlers, files: ChatPortFile[] = []) {
      turns.set(id, handlers);
      open().postMessage({
        type: 'start',
        id,
        request,
        ...(files.length > 0 ? { files } : {}),
      } satisfies ChatPortRequest);
    },
    abort(id: string) {
      if (!turns.has(id)) return;
      port?.postMessage({ type: 'abort', id } satisfies ChatPortRequest);
    },
    close() {
      turns.clear();
      port?.disconnect();
      port = null;
    },
  };
}

export type ChatPortClient = ReturnType<typeof createChatPortClient>;
