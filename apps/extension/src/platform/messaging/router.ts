import { classifySender, type SenderContext, type SenderLike } from './senders';
import {
  isEnvelope,
  MESSAGE_POLICY,
  type DataOfMessage,
  type MessageType,
  type ResponseOf,
  type SenderKind,
  type WireError,
  type WireResponse,
} from './protocol';

export type HandlerContext = { sender: SenderLike; kind: SenderKind };
export type Handler<T extends MessageType> = (
  data: DataOfMessage<T>,
  context: HandlerContext,
) => ResponseOf<T> | Promise<ResponseOf<T>>;
export type Handlers = { [T in MessageType]?: Handler<T> };

/** A failure with a stable code, answered to the sender as { ok: false, error }. */
export class MessageError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'MessageError';
  }
}

export function toWireError(error: unknown): WireError {
  if (error && typeof error === 'object') {
    const e = error as { status?: unknown; code?: unknown; message?: unknown };
    return {
      status: typeof e.status === 'number' ? e.status : 500,
      code: typeof e.code === 'string' ? e.code : 'INTERNAL',
      message: typeof e.message === 'string' ? e.message : 'Unexpected error',
    };
  }
  return { status: 500, code: 'INTERNAL', message: String(error) };
}

/**
 * A runtime.onMessage listener for `handlers`. It answers only our envelopes, only the types it has a handler for
 * (other extension pages may handle the rest), and only senders that MESSAGE_POLICY allows for that type. A refused
 * sender gets FORBIDDEN and the handler never runs.
 */
export function createMessageListener(handlers: Handlers, getContext: () => SenderContext) {
  return (message: unknown, sender: SenderLike, sendResponse: (response: WireResponse) => void): boolean => {
    if (!isEnvelope(message)) return false;
    const handler = handlers[message.type] as Handler<MessageType> | undefined;
    if (!handler) return false;
    const kind = classifySender(sender, getContext());
    if (kind === 'foreign') return false;
    if (!MESSAGE_POLICY[message.type].includes(kind)) {
      sendResponse({ ok: false, error: { status: 403, code: 'FORBIDDEN', message: 'Not allowed from this sender' } });
      return false;
    }
    // The handler starts in this same turn: a user gesture that came with the message (needed by sidePanel.open)
    // lasts only until the first await.
    let result: unknown;
    try {
      result = handler(message.data as never, { sender, kind });
    } catch (error) {
      result = Promise.reject(error);
    }
    Promise.resolve(result).then(
      (data) => sendResponse({ ok: true, data: data as never }),
      (error: unknown) => sendResponse({ ok: false, error: toWireError(error) }),
    );
    return true; // answers asynchronously
  };
}
