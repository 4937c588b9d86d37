import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3Message,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';

/**
 * Streaming a chat answer straight through the provider package's model (`doStream`, the AI SDK's provider
 * specification) rather than through `streamText`. A chat turn uses no tools, no structured output and no multi-step
 * loop, so what `streamText` adds on top is a chain of web streams that every token passes through (event processing,
 * step bookkeeping, callbacks): measured in bench/chat-stream.ts as about a third of the CPU per token. The provider
 * package still does the wire protocol, the request body, the SSE parsing and the validation of every chunk.
 */

/** The prompt as the provider specification expects it, from the messages the chat context builds. */
export function toProviderPrompt(system: string, messages: ModelMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) prompt.push(toProviderMessage(message));
  return prompt;
}

function toProviderMessage(message: ModelMessage): LanguageModelV3Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'assistant': {
      if (typeof message.content === 'string')
        return { role: 'assistant', content: [{ type: 'text', text: message.content }] };
      const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      return { role: 'assistant', content: [{ type: 'text', text }] };
    }
    case 'user': {
      if (typeof message.content === 'string')
        return { role: 'user', content: [{ type: 'text', text: message.content }] };
      return {
        role: 'user',
        content: message.content.map((part) => {
          switch (part.type) {
            case 'text':
              return { type: 'text', text: part.text };
            case 'image':
              if (!(part.image instanceof Uint8Array) || !part.mediaType)
                throw new TypeError('images are sent as bytes');
              return { type: 'file', data: part.image, mediaType: part.mediaType };
            case 'file':
              if (!(part.data instanceof Uint8Array)) throw new TypeError('files are sent as bytes');
              return { type: 'file', data: part.data, mediaType: part.mediaType };
          }
        }),
      };
    }
    case 'tool':
      throw new TypeError('chat turns use no tools');
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Starts the provider's stream. A provider that refuses with a retryable error (429, 5xx, a dropped connection)
 * before anything was streamed is asked again, `maxRetries` times with a growing pause; nothing has reached the
 * person by then, so a retry cannot duplicate output.
 */
export async function openProviderStream(
  model: LanguageModelV3,
  options: { prompt: LanguageModelV3Prompt; abortSignal: AbortSignal; maxRetries: number; retryDelayMs?: number },
): Promise<ReadableStreamDefaultReader<LanguageModelV3StreamPart>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { stream } = await model.doStream({ prompt: options.prompt, abortSignal: options.abortSignal });
      return stream.getReader();
    } catch (error) {
      if (options.abortSignal.aborted) throw options.abortSignal.reason ?? error;
      const retryable = APICallError.isInstance(error) && error.isRetryable;
      if (!retryable || attempt >= options.maxRetries) throw error;
      await sleep((options.retryDelayMs ?? 500) * 2 ** attempt, options.abortSignal);
    }
  }
}

/**
 * A short answer in one piece, straight through the provider package's model (`doGenerate`), for the small requests
 * Parley makes itself (a conversation's title). Like `openProviderStream`, it skips what `generateText` adds for
 * tools and multi-step calls, which cost more CPU than the request itself.
 */
export async function completeText(
  model: LanguageModelV3,
  options: { system: string; prompt: string; abortSignal: AbortSignal },
): Promise<string> {
  const { content } = await model.doGenerate({
    prompt: [
      { role: 'system', content: options.system },
      { role: 'user', content: [{ type: 'text', text: options.prompt }] },
    ],
    abortSignal: options.abortSignal,
  });
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/** What a log line may say about a provider failure: never the request body (it holds the person's words). */
export function describeError(error: unknown) {
  const e = error as {
    name?: string;
    message?: string;
    statusCode?: number;
    lastError?: { statusCode?: number; message?: string };
  };
  return {
    name: e?.name,
    message: e?.lastError?.message ?? e?.message,
    status: e?.lastError?.statusCode ?? e?.statusCode,
  };
}
