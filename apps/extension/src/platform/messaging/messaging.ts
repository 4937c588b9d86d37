import { browser } from 'wxt/browser';
import type { EndpointName } from '@parley/contract';
import { createMessageListener, type Handlers } from './router';
import type {
  ApiCallInput,
  ApiCallResult,
  DataOfMessage,
  Envelope,
  MessageType,
  ResponseOf,
  WireError,
  WireResponse,
} from './protocol';

/** A refused or failed message, with the code and localized message the background answered. */
export class ExtensionMessageError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(error: WireError) {
    super(error.message);
    this.name = 'ExtensionMessageError';
    this.status = error.status;
    this.code = error.code;
  }
}

type Args<T extends MessageType> = DataOfMessage<T> extends undefined ? [data?: undefined] : [data: DataOfMessage<T>];

const envelope = <T extends MessageType>(type: T, data: DataOfMessage<T>): Envelope<T> => ({ parley: 1, type, data });

function unwrap<T extends MessageType>(response: WireResponse<T> | undefined, type: T): ResponseOf<T> {
  if (!response)
    throw new ExtensionMessageError({ status: 0, code: 'NO_RECEIVER', message: `Nobody answered ${type}` });
  if (!response.ok) throw new ExtensionMessageError(response.error);
  return response.data;
}

/** To the background (and our other pages). */
export async function sendMessage<T extends MessageType>(type: T, ...[data]: Args<T>): Promise<ResponseOf<T>> {
  const response = (await browser.runtime.sendMessage(envelope(type, data as DataOfMessage<T>))) as
    WireResponse<T> | undefined;
  return unwrap(response, type);
}

/** To the content scripts of one tab (top frame). */
export async function sendTabMessage<T extends MessageType>(
  tabId: number,
  type: T,
  ...[data]: Args<T>
): Promise<ResponseOf<T>> {
  const response = (await browser.tabs.sendMessage(tabId, envelope(type, data as DataOfMessage<T>), {
    frameId: 0,
  })) as WireResponse<T> | undefined;
  return unwrap(response, type);
}

/** To the content script of one frame of a tab (the one that asked for something the background now answers). */
export async function sendFrameMessage<T extends MessageType>(
  tabId: number,
  frameId: number,
  type: T,
  ...[data]: Args<T>
): Promise<ResponseOf<T>> {
  const response = (await browser.tabs.sendMessage(tabId, envelope(type, data as DataOfMessage<T>), {
    frameId,
  })) as WireResponse<T> | undefined;
  return unwrap(response, type);
}

/** An API call made by the background with the stored token. */
export async function apiCall<N extends EndpointName>(name: N, input?: ApiCallInput<N>): Promise<ApiCallResult<N>> {
  return (await sendMessage('API_CALL', { name, input: input as ApiCallInput })) as ApiCallResult<N>;
}

export function extensionSenderContext() {
  const url = browser.runtime.getURL('/');
  return {
    extensionId: browser.runtime.id,
    extensionOrigin: url.replace(/\/$/, ''),
    webOrigin: import.meta.env.PARLEY_WEB_URL,
  };
}

/** Registers handlers (sender policy enforced); returns the function that removes them. */
export function onMessages(handlers: Handlers): () => void {
  const listener = createMessageListener(handlers, extensionSenderContext);
  browser.runtime.onMessage.addListener(listener as never);
  return () => browser.runtime.onMessage.removeListener(listener as never);
}
