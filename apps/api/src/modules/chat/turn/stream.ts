import { randomUUID } from 'node:crypto';
import type { UiLanguage } from '@parley/contract';
import { translate } from '@parley/i18n/server';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { UIMessageChunk } from 'ai';
import { insertOnce } from '../../../db/unavailable.js';
import { describeError, openProviderStream, toProviderPrompt } from '../../../providers/ai/stream.js';
import type { Admission, AdmittedTurn, TurnDeps } from './admit.js';
import type { PreparedTurn } from './prepare.js';
import { createSettlement, type TurnOutcome } from './settle.js';

export type TurnStream = {
  chunks: AsyncGenerator<UIMessageChunk, void, undefined>;
  chatId: string;
  /** Settles when the provider has answered (or failed to). */
  opened: Promise<void>;
  /** The client left: stop the provider and keep what was said so far. */
  abort: () => void;
};

const noop = () => undefined;

/**
 * The provider call and the answer as UI message chunks (the AI SDK UI message stream protocol). The provider
 * request is made at once and held until the turn is admitted (`turn.admitted`: session confirmed, credit reserved);
 * the question is written alongside it. The chunks never throw: a failure becomes a localized error chunk after the
 * turn is settled. The caller writes the chunks to the client and calls `abort` if the client goes away.
 */
export async function streamTurn(
  deps: TurnDeps,
  turn: AdmittedTurn,
  prepared: PreparedTurn,
  lang: UiLanguage,
  left: AbortSignal,
): Promise<TurnStream> {
  const { models, log, timeoutMs } = deps;
  const { input, resolved } = turn;
  const publicSources = prepared.sources.map(({ n, title, url }) => ({ n, title, url }));
  const assistantId = randomUUID();

  const clientAbort = new AbortController();
  const providerAbort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    providerAbort.abort(new Error('provider timeout'));
  }, timeoutMs);
  clientAbort.signal.addEventListener('abort', () => providerAbort.abort(clientAbort.signal.reason));
  // A client gone before the stream starts: the held request is dropped, never sent.
  const leftEarly = () => providerAbort.abort(left.reason);
  left.addEventListener('abort', leftEarly, { once: true });
  if (left.aborted) leftEarly();

  const prompt = toProviderPrompt(prepared.context.system, prepared.modelMessages);
  // The provider request is made now; it goes out once the turn is admitted.
  models.holdRequests(providerAbort.signal, turn.admitted);
  const opening = openProviderStream(resolved.model, { prompt, abortSignal: providerAbort.signal, maxRetries: 1 });
  // Settles when the provider has answered or failed; a failure itself is handled where `opening` is awaited.
  const answered = opening.then(noop, noop);
  let admission: Admission;
  try {
    admission = await turn.admitted;
    left.throwIfAborted();
  } catch (error) {
    clearTimeout(timer);
    providerAbort.abort(error);
    return turn.undo.undo(error);
  } finally {
    left.removeEventListener('abort', leftEarly);
  }

  // The question's write, when it runs alongside the provider call. It starts once the provider has answered (or
  // after 50 ms), so that it delays neither the request nor the first words; the turn settles only after it. If it
  // fails, the turn stops and fails.
  const outcome: TurnOutcome = { text: '', output: false, usage: undefined, persistFailed: false, saveFailed: false };
  const persist = prepared.persist;
  const persisted: Promise<void> = persist
    ? Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 50))])
        .then(() => insertOnce(persist))
        .catch((error: unknown) => {
          outcome.persistFailed = true;
          log.error({ err: error }, 'could not store the question of a chat turn');
          providerAbort.abort(new Error('could not store the question'));
        })
    : Promise.resolve();

  const { finalize } = createSettlement(deps, turn, prepared, {
    outcome,
    admission,
    persisted,
    assistantId,
    sources: publicSources,
    timer,
  });
  const errorText = translate(lang, 'api', 'errors.PROVIDER_ERROR');
  // Our own failure to store the question or the answer is told as such, not as the provider's.
  const notSavedText = translate(lang, 'api', 'errors.CHAT_NOT_SAVED');
  const notSaved = () => outcome.persistFailed || outcome.saveFailed;
  const timeoutText = translate(lang, 'api', 'errors.FETCH_TIMEOUT');
  const finishMetadata = { citedPages: prepared.context.citedPages };

  async function* chunks(): AsyncGenerator<UIMessageChunk, void, undefined> {
    let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
    let failed = false;
    try {
      // The provider request goes out first; the client hears `start` right after, not before it.
      await new Promise((resolve) => setImmediate(resolve));
      yield {
        type: 'start',
        messageId: assistantId,
        messageMetadata: {
          chatId: prepared.conversationId,
          userMessageId: prepared.userMessageId,
          model: input.model,
          modelLabel: resolved.label,
          keySource: resolved.keySource,
        },
      };
      for (const s of publicSources)
        yield { type: 'source-url', sourceId: `source-${s.n}`, url: s.url, title: s.title };
      reader = await opening;
      yield { type: 'start-step' };
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case 'text-delta':
            outcome.text += part.delta;
            if (part.delta) outcome.output = true;
            yield { type: 'text-delta', id: part.id, delta: part.delta };
            break;
          case 'reasoning-delta':
            if (part.delta) outcome.output = true;
            yield { type: 'reasoning-delta', id: part.id, delta: part.delta };
            break;
          case 'text-start':
          case 'text-end':
          case 'reasoning-start':
          case 'reasoning-end':
            yield { type: part.type, id: part.id };
            break;
          case 'file':
            outcome.output = true;
            yield {
              type: 'file',
              mediaType: part.mediaType,
              url: `data:${part.mediaType};base64,${typeof part.data === 'string' ? part.data : Buffer.from(part.data).toString('base64')}`,
            };
            break;
          case 'finish':
            outcome.usage = { inputTokens: part.usage.inputTokens.total, outputTokens: part.usage.outputTokens.total };
            yield { type: 'finish-step' };
            yield { type: 'finish', finishReason: part.finishReason.unified, messageMetadata: finishMetadata };
            break;
          case 'error':
            failed = true;
            log.warn({ provider: describeError(part.error) }, 'provider failed during a chat turn');
            yield { type: 'error', errorText };
            break;
          default:
            // Stream metadata, raw chunks, sources and tool parts: a chat turn has no use for them.
            break;
        }
      }
      await finalize(failed || outcome.persistFailed ? 'failed' : 'complete');
      if (notSaved() && !failed) yield { type: 'error', errorText: notSavedText };
    } catch (error) {
      const stopped = clientAbort.signal.aborted;
      if (timedOut) {
        await finalize('failed');
        yield { type: 'error', errorText: timeoutText };
        return;
      }
      if (!stopped && !outcome.persistFailed)
        log.warn({ provider: describeError(error) }, 'chat stream ended with an error');
      await finalize(stopped ? 'stopped' : 'failed');
      if (!stopped) yield { type: 'error', errorText: notSaved() ? notSavedText : errorText };
    } finally {
      reader?.releaseLock();
    }
  }

  const abort = () => {
    if (clientAbort.signal.aborted) return;
    clientAbort.abort(new Error('client went away'));
    void finalize('stopped');
  };
  // From here a client that leaves stops the turn as it would mid-stream, even before its first chunk is written.
  left.addEventListener('abort', abort, { once: true });
  return { chunks: chunks(), chatId: prepared.conversationId, opened: answered, abort };
}
