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
  /**
   * Something reached the person: text, reasoning or a file. That is what is paid for, even when no text followed
   * (a model that only reasoned, a client that read the reasoning and left).
   */
  output: boolean;
  usage: MessageMeta['usage'];
  /** The question could not be stored: the turn fails and is refunded. */
  persistFailed: boolean;
  /** The answer could not be stored: it is refunded, and the person is told it was not saved. */
  saveFailed: boolean;
};

/** The conversation's messages once `answer` is stored after the question, as the database holds them. */
function storedAfter(prepared: PreparedTurn, answer: q.Answer): q.MessageRow[] {
  const { conversationId, history } = prepared;
  const position = (history.at(-1)?.position ?? -1) + 1;
  const createdAt = new Date();
  return [
    ...history,
    {
      id: prepared.userMessageId,
      conversationId,
      position,
      role: 'user',
      parts: q.storableParts(prepared.userParts),
      meta: {},
      createdAt,
    },
    {
      id: answer.id,
      conversationId,
      position: position + 1,
      role: 'assistant',
      parts: q.storableParts(answer.parts),
      meta: q.storableMeta(answer.meta),
      createdAt,
    },
  ];
}

/**
 * The end of a turn, exactly once (a later call waits for the same settlement): the answer, even partial, is stored
 * with its status, then charged if any output came out (text, reasoning, a file), refunded otherwise, whether it
 * finished, failed, timed out or the client went away. An answer that could not be stored is refunded: what is paid
 * for is always in the history. Only then does the response end, and the conversation is free for its next turn. A
 * database out of reach for a moment is waited for (each write is safe to retry). A new conversation that completes
 * gets a generated title afterwards.
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
  const { db, log, histories } = deps;
  const { outcome, admission, persisted, assistantId, sources, timer } = run;
  let settling: Promise<void> | null = null;

  const release = () =>
    q
      .releaseConversation(db, prepared.conversationId, turn.answering.turn)
      .catch((e: unknown) => log.error({ err: e }, 'could not give back the conversation of a chat turn'));

  async function settle(status: TurnStatus) {
    clearTimeout(timer);
    try {
      await Promise.all([persisted, admission.unreserved]);
      if (outcome.persistFailed) {
        await admission.reservation.refund();
        if (prepared.isNew)
          await q.deleteConversations(db, admission.user.id, prepared.conversationId).catch(() => undefined);
        else await release();
        return;
      }
      const { text, output, usage } = outcome;
      const answer: q.Answer | null =
        output || status === 'complete'
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
          : null;
      try {
        // Stored first, and gives the conversation back: the credit is taken only for an answer that was kept.
        await insertOnce(() =>
          q.finishTurn(db, prepared.conversationId, turn.input.model, answer, turn.answering.turn),
        );
      } catch (error) {
        histories.drop(prepared.conversationId);
        outcome.saveFailed = true;
        log.error({ err: error }, 'could not store the answer of a chat turn');
        await admission.reservation.refund();
        await release();
        return;
      }
      await (output ? admission.reservation.charge() : admission.reservation.refund());
      // The next turn starts from these messages (checked by its statement); a turn that did not finish leaves the
      // next one to read them.
      if (answer && status === 'complete')
        histories.keep(prepared.conversationId, {
          ownerId: admission.user.id,
          messages: storedAfter(prepared, answer),
        });
      else histories.drop(prepared.conversationId);
      if (prepared.isNew && status === 'complete') void nameConversation(deps, prepared, text, turn.resolved);
    } catch (error) {
      log.error({ err: error }, 'could not settle a chat turn');
      await release();
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
