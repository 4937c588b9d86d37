import type { MessageRow } from '../chat.queries.js';

/** A conversation's messages as this server last wrote them, and whose they are. */
export type KnownHistory = { ownerId: string; messages: MessageRow[] };

/**
 * The messages of each conversation as this server left them after its last answered turn, so that the next turn
 * builds its provider request while the statement that takes the conversation runs, instead of after it reads them.
 * Only a guess: the statement returns the conversation's messages by id and position (`q.historyKey`), and a turn
 * whose guess differs (another server answered, a message was deleted) starts again from the statement's messages.
 * Messages are never changed once written (an edit or a regeneration deletes from a position and appends), so the
 * same ids at the same positions are the same messages.
 *
 * Bounded: at most `maxConversations` conversations and `maxChars` characters of text in all, the least recently
 * used dropped first; a history longer than a tenth of that is not kept.
 */
export function createHistories({ maxConversations = 2_000, maxChars = 8_000_000 } = {}) {
  const known = new Map<string, KnownHistory & { chars: number }>();
  let chars = 0;

  const drop = (conversationId: string) => {
    const entry = known.get(conversationId);
    if (!entry) return;
    known.delete(conversationId);
    chars -= entry.chars;
  };

  return {
    /** The messages last written to `conversationId`, if they are `ownerId`'s; taken out (a turn uses them once). */
    take(conversationId: string, ownerId: string): MessageRow[] | undefined {
      const entry = known.get(conversationId);
      if (!entry || entry.ownerId !== ownerId) return undefined;
      drop(conversationId);
      return entry.messages;
    },

    /** What a turn left in `conversationId` once its answer was stored. */
    keep(conversationId: string, history: KnownHistory) {
      drop(conversationId);
      let size = 0;
      for (const m of history.messages) for (const p of m.parts) if (p.type === 'text') size += p.text.length;
      if (size > maxChars / 10) return;
      known.set(conversationId, { ...history, chars: size });
      chars += size;
      for (const [id] of known) {
        if (known.size <= maxConversations && chars <= maxChars) break;
        drop(id);
      }
    },

    /** Forgets a conversation (a turn that did not end as expected). */
    drop,

    get size() {
      return known.size;
    },
  };
}

export type Histories = ReturnType<typeof createHistories>;
