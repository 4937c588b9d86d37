import type { UiLanguage } from '@parley/contract';
import { createLimiter } from '../../../lib/limiter.js';
import type { Upload } from '../../../lib/upload.js';
import type { PendingCaller } from '../../accounts/index.js';
import { admitTurn, StaleHistory, type ChatInput, type TurnDeps } from './admit.js';
import { prepareTurn } from './prepare.js';
import { streamTurn } from './stream.js';

export type { ChatInput, TurnDeps } from './admit.js';
export type { TurnStream } from './stream.js';

/**
 * A chat turn, in four steps: admit (what can be refused, the session with the credit's reservation, the
 * lookups), prepare (documents, sources, context, the question's write), stream (the provider's answer as UI
 * message chunks), settle (charge or refund, the answer stored, once). See docs/decisions/009, 012 and 013.
 */
export function createTurns(deps: TurnDeps) {
  const starting = createLimiter(16);

  return {
    /**
     * A place among the few turns prepared at a time, taken once the caller is known and the body is in, so that
     * a burst of new chats waits its turn for a few milliseconds rather than starving the answers already
     * streaming. Resolves with the function that gives the place back.
     */
    admit: (signal: AbortSignal) => starting.acquireUnless(signal),

    /**
     * One turn, and the stream of its answer. Nothing is charged if the provider fails before any output.
     * `release` is the place taken with `admit`: it is given back once the provider has answered, or after 100 ms of
     * waiting for it (a slow provider costs no work here), or at once if the turn is refused.
     * `left` says the client went away: a turn not yet streaming is then undone, one streaming is stopped.
     */
    async start(
      caller: PendingCaller,
      input: ChatInput,
      files: Upload[],
      lang: UiLanguage,
      release: () => void,
      left: AbortSignal,
    ) {
      const once = async (useKnown: boolean) => {
        const turn = await admitTurn(deps, caller, input, files, useKnown);
        let prepared;
        try {
          prepared = await prepareTurn(deps, turn, left);
        } catch (error) {
          // Nothing found in messages the statement has not confirmed is told before what the statement said: the
          // turn was refused (busy, no credits, not theirs), or starts again from the statement's messages.
          const refused = turn.known
            ? await turn.admitted.then(
                () => null,
                (reason: unknown) => reason,
              )
            : null;
          return await turn.undo.undo(refused ?? error);
        }
        return streamTurn(deps, turn, prepared, lang, left);
      };
      try {
        // A follow-up that started from messages its statement did not find starts again from the statement's.
        const stream = await once(true).catch((error: unknown) => {
          if (!(error instanceof StaleHistory)) throw error;
          left.throwIfAborted(); // a client gone meanwhile is not answered
          return once(false);
        });
        const waited = setTimeout(release, 100);
        void stream.opened.then(() => {
          clearTimeout(waited);
          release();
        });
        return stream;
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

export type Turns = ReturnType<typeof createTurns>;
