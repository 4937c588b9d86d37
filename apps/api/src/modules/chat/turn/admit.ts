import { randomUUID } from 'node:crypto';
import { modelInfo, type chatRequestSchema, type ModelInfo } from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { DomainError, NotFoundError } from '../../../lib/errors.js';
import type { Upload } from '../../../lib/upload.js';
import type { ResolvedModel } from '../../../providers/ai/registry.js';
import type { Account, PendingCaller } from '../../accounts/index.js';
import { NOT_METERED, type BillingService, type Reservation, type SessionReserveWith } from '../../billing/index.js';
import { safeFileName, type DocumentTools } from '../../documents/index.js';
import type { ModelsService } from '../../models/index.js';
import type { FileStore } from '../../storage/index.js';
import * as q from '../chat.queries.js';
import type { Histories } from './histories.js';

export type ChatInput = z.output<typeof chatRequestSchema>;

/** What a turn is made with: the modules below chat, and the outside services. */
export type TurnDeps = {
  db: Db;
  models: ModelsService;
  billing: BillingService;
  files: FileStore;
  tools: DocumentTools;
  log: FastifyBaseLogger;
  timeoutMs: number;
  /** The messages this server last wrote to each conversation (see `createHistories`). */
  histories: Histories;
};

export type CheckedUpload = { file: Upload; kind: { kind: 'image' | 'pdf'; mediaType: string } };

/** The turn may call the provider: the session is the owner's, and the credit is reserved (or not needed). */
export type Admission = { user: Account; reservation: Reservation; unreserved: Promise<void> | null };

export type AdmittedTurn = {
  input: ChatInput;
  info: ModelInfo;
  checked: CheckedUpload[];
  ownerId: string;
  resolved: ResolvedModel;
  conversation: { id: string } | undefined;
  /** This turn's hold on its conversation (see `q.Answering`): taken here for a follow-up, at its creation for a new one. */
  answering: q.Answering;
  earlier: q.MessageRow[];
  /** `earlier` are the messages this server knew (`Histories`), which `admitted` checks against the statement's. */
  known: boolean;
  /** The turn has documents (uploads, a page, a video): its question is written before the provider is called. */
  withDocuments: boolean;
  /** Settles once the session is confirmed and the credit reserved; the provider request is held until then. */
  admitted: Promise<Admission>;
  /** What the turn wrote so far, and how to take it back if the turn does not go ahead. */
  undo: Undo;
};

const noop = () => undefined;

/**
 * A follow-up turn that started from the messages this server knew (`Histories`) found that its statement read
 * others (another server answered in between, a message was deleted): nothing was sent, the turn is undone and starts
 * again from the statement's messages (`admitTurn`'s `useKnown` false).
 */
export class StaleHistory extends Error {
  constructor() {
    super('the conversation was not as this server last left it');
  }
}

/** What a follow-up's statement adds to its row: the messages, or their key when they were known. */
type ClaimAlso = Partial<q.ClaimColumns> & Partial<q.KnownClaimColumns>;

/**
 * How long a turn may hold its conversation: longer than any turn takes (its documents read, at most 20 s each, then
 * the provider's answer, cut at the AI timeout), short enough that a server stopped mid-turn keeps no one waiting long.
 */
const holdSeconds = ({ timeoutMs }: TurnDeps) => Math.ceil(timeoutMs / 1000) + 90;

/**
 * What a turn has written before its provider call: a conversation made for it, documents and their files. If the
 * turn is refused after writing, `undo` takes it all back and gives back the credit (at most once, whoever asks).
 */
export type Undo = {
  written: { conversationId: string | null; documentIds: string[]; storageKeys: string[] };
  undo(error: unknown): Promise<never>;
};

function createUndo(
  { db, files, log }: TurnDeps,
  authorized: Promise<{ result: { reservation: Reservation | null } }>,
  ownerId: string,
  held: { conversationId: string; turn: string } | null,
): Undo {
  const written: Undo['written'] = { conversationId: null, documentIds: [], storageKeys: [] };
  return {
    written,
    async undo(error) {
      // The statement that may take the conversation has ended first (a hold given back before it is taken would
      // stay taken).
      const checked = await authorized.then(
        ({ result }) => ({ result, refused: null }),
        (refused: unknown) => ({ result: null, refused }),
      );
      // The conversation this turn held is free again for the next one, whatever else happens here.
      if (held)
        await q
          .releaseConversation(db, held.conversationId, held.turn)
          .catch((e: unknown) => log.error({ err: e }, 'could not give back the conversation of a refused chat turn'));
      // An unauthenticated caller hears that (401 / 409) first: `authorized` rejects with it.
      if (!checked.result) throw checked.refused;
      await checked.result.reservation?.refund();
      await (
        written.conversationId
          ? q.deleteConversations(db, ownerId, written.conversationId)
          : q.deleteDocuments(db, written.documentIds, ownerId)
      ).catch((e: unknown) => log.error({ err: e }, 'could not undo a refused chat turn'));
      await files.removeAll(written.storageKeys);
      throw error;
    },
  };
}

/**
 * The start of a turn: everything that can be refused without writing anything (files, vision, search), then the
 * session check with the credit's reservation in one statement (`billing.reserveForSession`; a follow-up turn's
 * conversation is taken and read in it too), before knowing whose key pays (with the person's own key the credit goes
 * back at once). Every round trip here delays the first token. When the token's owner is known from an earlier
 * request, the model is looked up while that statement runs; nothing found for the hinted owner is used before the
 * statement has confirmed it.
 */
export async function admitTurn(
  deps: TurnDeps,
  caller: PendingCaller,
  input: ChatInput,
  files: Upload[],
  useKnown = true,
): Promise<AdmittedTurn> {
  const { db, models, billing, tools, histories } = deps;
  const info = modelInfo(input.model);
  let checked: CheckedUpload[];
  try {
    tools.checkAttachmentCount(files.length);
    checked = files.map((f) => {
      const { bytes, ...kind } = tools.checkAttachment({
        bytes: f.bytes,
        declaredName: f.name,
        declaredType: f.declaredType,
      });
      const fallback = kind.kind === 'pdf' ? 'document.pdf' : 'image';
      return { file: { ...f, bytes, name: safeFileName(f.name, fallback) }, kind };
    });
    if (checked.some((c) => c.kind.kind === 'image') && !info.capabilities.vision) {
      throw new DomainError('MODEL_NO_VISION', { model: models.label(input.model) });
    }
    if (input.webSearch && !tools.search) throw new DomainError('SEARCH_UNAVAILABLE');
  } catch (error) {
    await caller.user(); // an unauthenticated caller hears 401 / 409, not what was wrong with the request
    throw error;
  }

  const withDocuments = checked.length > 0 || Boolean(input.url) || Boolean(input.page);
  // Only a turn that writes before calling the provider (documents, a web search) waits for the statement first.
  const writesFirst = withDocuments || Boolean(input.webSearch);
  const hint = caller.ownerHint;
  // A follow-up in a conversation this server answered last, of a caller seen before, knows its messages: it builds
  // its provider request while the statement runs, and the statement checks them (`q.CLAIM_KNOWN_WITH_RESERVATION`).
  // They are the hinted owner's: nothing goes out before the statement has confirmed the session and the messages.
  const known = useKnown && input.chatId && hint && !writesFirst ? histories.take(input.chatId, hint) : undefined;

  // A conversation answers one turn at a time (see `q.Answering`): a follow-up turn takes its conversation in the
  // statement that checks the session and reserves the credit, which reserves nothing unless it took it, so that a
  // turn sent while another is being answered is refused having reserved, written and streamed nothing. A new
  // conversation is held from its creation.
  const answering: q.Answering = { turn: randomUUID(), seconds: holdSeconds(deps) };
  // What this turn may hold, to give back if it goes no further: the statement may have taken the conversation and
  // still fail after (the session ended meanwhile, a daily renewal failed), so it is given back whatever is known of
  // the claim. Only this turn's hold is let go: another turn's is left as it is.
  const holds = input.chatId ? { conversationId: input.chatId, turn: answering.turn } : null;
  const claimStatements = (
    known ? q.CLAIM_KNOWN_WITH_RESERVATION : q.CLAIM_WITH_RESERVATION
  ) as SessionReserveWith<ClaimAlso>;
  const authorized = caller.userWith((tokenHash, now) =>
    billing.reserveForSession<ClaimAlso>(
      tokenHash,
      info.tier,
      'chat',
      now,
      input.chatId ? { statements: claimStatements, values: q.claimValues(input.chatId, answering) } : undefined,
    ),
  );
  authorized.catch(noop); // awaited below, on every path
  // Why the statement took nothing: another turn holds the conversation, or it is not theirs (the database's clock
  // said so, it alone decides).
  const refusedClaim = async (userId: string): Promise<never> => {
    if (await q.conversationHeld(db, input.chatId!, userId)) throw new DomainError('CONVERSATION_BUSY');
    throw new NotFoundError('conversation');
  };
  // The conversation and its messages, as the statement took them, or as they were known.
  const claim = async (): Promise<{ conversation: { id: string }; messages: q.MessageRow[] }> => {
    if (known) return { conversation: { id: input.chatId! }, messages: known };
    const { user, result } = await authorized;
    return q.readClaimed(result.also as q.ClaimColumns | undefined) ?? refusedClaim(user.id);
  };
  // node-postgres's pool sends a query on the next tick: let it go out before the work below, which it overlaps.
  await new Promise((resolve) => process.nextTick(resolve));
  const lookups = (userId: string) =>
    Promise.allSettled([models.resolve(userId, input.model), input.chatId ? claim() : Promise.resolve(undefined)]);
  let ownerId: string;
  let found: ReturnType<typeof lookups>;
  if (hint && !writesFirst) {
    ownerId = hint;
    found = lookups(hint);
  } else {
    const early = hint ? lookups(hint) : null;
    try {
      ownerId = (await authorized).user.id;
    } catch (error) {
      if (holds) await q.releaseConversation(db, holds.conversationId, holds.turn).catch(noop);
      throw error;
    }
    found = early && hint === ownerId ? early : lookups(ownerId);
  }
  const undo = createUndo(deps, authorized, ownerId, holds);

  let resolved: ResolvedModel;
  let conversation: { id: string } | undefined;
  let earlier: q.MessageRow[];
  try {
    const [model, existing] = await found;
    if (model.status === 'rejected') throw model.reason;
    if (existing.status === 'rejected') throw existing.reason;
    if (input.chatId && !existing.value) throw new NotFoundError('conversation');
    resolved = model.value;
    conversation = existing.value?.conversation;
    earlier = existing.value?.messages ?? [];
  } catch (error) {
    return undo.undo(error);
  }

  const admitted = authorized.then(async ({ user, result }): Promise<Admission> => {
    if (user.id !== ownerId) throw new DomainError('UNAUTHENTICATED'); // a token never changes owner
    if (known) {
      // The statement alone decides whether the conversation was taken, and what it held when it was.
      if (!result.also?.taken) return refusedClaim(user.id);
      if (result.also.historyKey !== q.historyKey(known)) throw new StaleHistory();
    }
    const reserved = result.reservation;
    if (resolved.keySource === 'own') {
      // Not metered: the credit goes back while the turn goes on; the turn settles only once it is back.
      return { user, reservation: NOT_METERED, unreserved: reserved ? reserved.refund() : null };
    }
    if (!reserved) throw new DomainError('OUT_OF_CREDITS');
    return { user, reservation: reserved, unreserved: null };
  });
  admitted.catch(noop); // awaited by the caller, on every path
  if (writesFirst) {
    try {
      await admitted;
    } catch (error) {
      return undo.undo(error);
    }
  }
  // The default model may have been answered for by another (see ModelsService.resolve): the turn records that one.
  const served = resolved.info.id === input.model ? input : { ...input, model: resolved.info.id as ChatInput['model'] };
  return {
    input: served,
    info: resolved.info,
    checked,
    ownerId,
    resolved,
    conversation,
    answering,
    earlier,
    known: Boolean(known),
    withDocuments,
    admitted,
    undo,
  };
}
