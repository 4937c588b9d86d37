import type { MessageRow } from '../chat.queries.js';

/** A conversation's messages as this server last wrote them, and whose they are. */
export type KnownHistory = { ownerId: string; messages: MessageRow[] };

/** What a message is counted as holding: its text (two bytes a character at most) and the rest of it. */
const sizeOf = (messages: MessageRow[]) => {
  let size = 0;
  for (const m of messages) {
    size += 1024;
    for (const p of m.parts) if (p.type === 'text') size += 2 * p.text.length;
  }
  return size;
};

/**
 * The messages of each conversation as this server left them after its last answered turn, so that the next turn
 * builds its provider request while the statement that takes the conversation runs, instead of after it reads them.
 * Only a guess: the statement returns the conversation's messages by id and position (`q.historyKey`), and a turn
 * whose guess differs (another server answered, a message was deleted) starts again from the statement's messages.
 * Messages are never changed once written (an edit or a regeneration deletes from a position and appends), so the
 * same ids at the same positions are the same messages.
 *
 * Bounded: at most `maxConversations` conversations and `maxBytes` in all (each message counted as 1 KiB and two
 * bytes a character of its text), the least recently kept dropped first; a history over a tenth of that is not kept.
 * A history is kept for `maxAgeMs` at most: a conversation deleted in a way this module does not hear of (an account
 * deleted) leaves nothing behind for longer. A conversation deleted by its owner is forgotten at once (`drop`,
 * `dropOwner`).
 */
export function createHistories({
  maxConversations = 2_000,
  maxBytes = 32 * 1024 * 1024,
  maxAgeMs = 30 * 60_000,
  now = () => Date.now(),
} = {}) {
  const known = new Map<string, KnownHistory & { size: number; until: number }>();
  let bytes = 0;

  const drop = (conversationId: string) => {
    const entry = known.get(conversationId);
    if (!entry) return;
    known.delete(conversationId);
    bytes -= entry.size;
  };
  // Kept in the order they were kept: the oldest first.
  const sweep = () => {
    const at = now();
    for (const [id, entry] of known) {
      if (entry.until > at && known.size <= maxConversations && bytes <= maxBytes) break;
      drop(id);
    }
  };
  const sweeper = setInterval(sweep, Math.max(1000, Math.floor(maxAgeMs / 4)));
  sweeper.unref();

  return {
    /** The messages last written to `conversationId`, if they are `ownerId`'s; taken out (a turn uses them once). */
    take(conversationId: string, ownerId: string): MessageRow[] | undefined {
      const entry = known.get(conversationId);
      if (!entry || entry.ownerId !== ownerId) return undefined;
      drop(conversationId);
      return entry.until > now() ? entry.messages : undefined;
    },

    /** What a turn left in `conversationId` once its answer was stored. */
    keep(conversationId: string, history: KnownHistory) {
      drop(conversationId);
      const size = sizeOf(history.messages);
      if (size > maxBytes / 10) return;
      known.set(conversationId, { ...history, size, until: now() + maxAgeMs });
      bytes += size;
      sweep();
    },

    /** Forgets a conversation (deleted, or a turn that did not end as expected). */
    drop,

    /** Forgets every conversation of `ownerId` (all of them deleted). */
    dropOwner(ownerId: string) {
      for (const [id, entry] of known) if (entry.ownerId === ownerId) drop(id);
    },

    get size() {
      return known.size;
    },

    /** Stops the periodic sweep (the server is closing). */
    close() {
      clearInterval(sweeper);
    },
  };
}

export type Histories = ReturnType<typeof createHistories>;
