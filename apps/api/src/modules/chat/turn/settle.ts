import type { Source } from '@parley/contract';
import type { MessageMeta } from '../../../db/schema/index.js';
import { insertOnce } from '../../../db/unavailable.js';
import type { ResolvedModel } from '../../../providers/ai/registry.js';
import { completeText, describeError } from '../../../providers/ai/stream.js';
import * as q from '../chat.queries.js';
import type { Admission, AdmittedTurn, TurnDeps } from './admit.js';
import { TITLE_MAX, type PreparedTurn } from './prepare.js';

export type TurnStatus = 'complete' | 'stopped' | 'failed';

/** What the answer came to, as the stream goes: read by the settlement at the end. */
export type TurnOutcome = {
  text: string;
  usage: MessageMeta['usage'];
  /** The question could not be stored: the turn fails and is refunded. */
  persistFailed: boolean;
};

/**
 * The end of a turn, exactly once (a later call waits for the same settlement): charged if any text came out,
 * refunded otherwise, whether it finished, failed, timed out or the client went away; the answer, even partial, is
 * stored with its status. Only then does the response end. A database out of reach for a moment is waited for
 * (each write is safe to retry). A new conversation that completes gets a generated title afterwards.
 */
export function createSettlement(
  deps: TurnDeps,
  turn: AdmittedTurn,
  prepared: PreparedTurn,
  run: {
    outcome: TurnOutcome;
    admission: Admission;
    persisted: Promise<void>;
    assistantId: string;
    sources: Source[];
    timer: NodeJS.Timeout;
  },
) {
  const { db, log } = deps;
  const { outcome, admission, persisted, assistantId, sources, timer } = run;
  let settling: Promise<void> | null = null;

  async function settle(status: TurnStatus) {
    clearTimeout(timer);
    try {
      await Promise.all([persisted, admission.unreserved]);
      if (outcome.persistFailed) {
        await admission.reservation.refund();
        if (prepared.isNew)
          await q.deleteConversations(db, admission.user.id, prepared.conversationId).catch(() => undefined);
        return;
      }
      const { text, usage } = outcome;
      // Independent writes, so they run together.
      await Promise.all([
        text.length > 0 ? admission.reservation.charge() : admission.reservation.refund(),
        insertOnce(() =>
          q.finishTurn(
            db,
            prepared.conversationId,
            turn.input.model,
            text.length > 0 || status === 'complete'
              ? {
                  id: assistantId,
                  parts: [{ type: 'text', text }],
                  meta: {
                    model: turn.input.model,
                    sources,
                    citedPages: prepared.context.citedPages,
                    status,
                    ...(usage ? { usage } : {}),
                  },
                }
              : null,
          ),
        ),
      ]);
      if (prepared.isNew && status === 'complete') void nameConversation(deps, prepared, text, turn.resolved);
    } catch (error) {
      log.error({ err: error }, 'could not settle a chat turn');
    }
  }

  return { finalize: (status: TurnStatus) => (settling ??= settle(status)) };
}

/**
 * A short generated title for a new conversation; on any failure the question's opening stays the title, and a
 * conversation renamed while the title was being written keeps the name its owner gave it.
 */
async function nameConversation(
  { db, log }: TurnDeps,
  { conversationId: id, question, title: provisional }: PreparedTurn,
  answer: string,
  resolved: ResolvedModel,
) {
  try {
    const text = await completeText(resolved.model, {
      system:
        'Write a short conversation title (at most 6 words) for this exchange, in the language of the question. Answer with the title only, no quotes.',
      prompt: `Question: ${question.slice(0, 2000)}\n\nAnswer: ${answer.slice(0, 2000)}`,
      abortSignal: AbortSignal.timeout(15_000),
    });
    const title = text
      .replace(/^["'«\s]+|["'»\s]+$/g, '')
      .split('\n')[0]!
      .slice(0, TITLE_MAX);
    if (title) await q.nameConversation(db, id, title, provisional);
  } catch (error) {
    log.info({ provider: describeError(error) }, 'could not generate a conversation title');
  }
}
