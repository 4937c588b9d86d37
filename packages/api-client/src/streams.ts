import type { ChatRequest } from '@parley/contract';
import { STREAM_PATHS } from '@parley/contract/values';
import { ApiError, type ApiClient } from './client.js';

// The calls that are not JSON in, JSON out, over the same client (`send`: token, lang-type, envelope, 409 and 401).
// A module of their own (`@parley/api-client/streams`) so that pages which make none of them (the login page) do not
// load them.

/**
 * One chat turn (multipart: the request and its files). Resolves with the streaming response (the AI SDK UI message
 * stream, read with `readUiMessageStream` of @parley/ui/chat-stream); a refusal before the answer starts (no credits,
 * bad file, model unavailable…) throws. Aborting `signal` stops the answer.
 */
export async function chatStream(
  client: ApiClient,
  turn: ChatRequest,
  files: readonly File[] = [],
  signal?: AbortSignal,
): Promise<Response> {
  const form = new FormData();
  form.append('request', JSON.stringify(turn));
  for (const file of files) form.append('files', file, file.name);
  const { response, text, body } = await client.send(STREAM_PATHS.chat, { method: 'POST', body: form, signal });
  // A JSON success is no answer: the turn was not taken.
  if (text !== null || !response.body) {
    throw new ApiError(
      typeof body?.status === 'number' ? body.status : response.status,
      'EMPTY_ANSWER',
      typeof body?.message === 'string' ? body.message : 'Empty answer',
    );
  }
  return response;
}

/** Speech to text on the server (multipart, one `audio` file). */
export async function transcribe(
  client: ApiClient,
  audio: Blob,
  fileName: string,
  signal?: AbortSignal,
): Promise<{ text: string }> {
  const form = new FormData();
  form.append('audio', audio, fileName);
  const { body } = await client.send(STREAM_PATHS.transcribe, { method: 'POST', body: form, signal });
  const data = body?.data as { text?: unknown } | undefined;
  return { text: typeof data?.text === 'string' ? data.text : '' };
}

/** An attachment's bytes (the route needs the bearer header, so an <img src> cannot load it). */
export async function fileBytes(client: ApiClient, id: string, signal?: AbortSignal): Promise<Blob> {
  const { response, text } = await client.send(STREAM_PATHS.file.replace(':id', encodeURIComponent(id)), {
    method: 'GET',
    headers: { accept: '*/*' },
    signal,
  });
  return text === null ? response.blob() : new Blob([text], { type: response.headers.get('content-type') ?? '' });
}
