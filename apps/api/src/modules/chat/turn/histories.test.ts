import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../chat.queries.js';
import { createHistories } from './histories.js';

const message = (position: number, text: string): MessageRow => ({
  id: `m${position}`,
  conversationId: 'c',
  position,
  role: position % 2 ? 'assistant' : 'user',
  parts: [{ type: 'text', text }],
  meta: {},
  createdAt: new Date(0),
});

describe('the messages this server last wrote to each conversation', () => {
  it('are given only to their owner, and once', () => {
    const histories = createHistories();
    const messages = [message(0, 'Hi'), message(1, 'Hello')];
    histories.keep('a', { ownerId: 'owner', messages });
    expect(histories.take('a', 'someone else')).toBeUndefined();
    expect(histories.take('a', 'owner')).toBe(messages);
    expect(histories.take('a', 'owner')).toBeUndefined();
    expect(histories.size).toBe(0);
  });

  it('keep the latest of a conversation, and drop what is forgotten', () => {
    const histories = createHistories();
    histories.keep('a', { ownerId: 'owner', messages: [message(0, 'one')] });
    histories.keep('a', { ownerId: 'owner', messages: [message(0, 'one'), message(1, 'two')] });
    histories.keep('b', { ownerId: 'owner', messages: [message(0, 'three')] });
    histories.drop('b');
    expect(histories.size).toBe(1);
    expect(histories.take('a', 'owner')?.map((m) => m.id)).toEqual(['m0', 'm1']);
    expect(histories.take('b', 'owner')).toBeUndefined();
  });

  it('hold at most so many conversations and bytes, the least recently kept dropped first', () => {
    const histories = createHistories({ maxConversations: 3 });
    for (const id of ['a', 'b', 'c', 'd']) histories.keep(id, { ownerId: 'o', messages: [message(0, 'x'.repeat(10))] });
    expect(histories.size).toBe(3);
    expect(histories.take('a', 'o')).toBeUndefined();
    histories.close();
    // Each message counts as 1 KiB and two bytes a character: 1,204 bytes here, so 16 fit in 20,000 and a 17th
    // drops the oldest.
    const big = createHistories({ maxBytes: 20_000 });
    for (let i = 0; i < 17; i++) big.keep(`c${i}`, { ownerId: 'o', messages: [message(0, 'y'.repeat(90))] });
    expect(big.size).toBe(16);
    expect(big.take('c0', 'o')).toBeUndefined();
    expect(big.take('c16', 'o')).toBeDefined();
    // A history over a tenth of the bound is not kept at all: long text, or many messages with none.
    big.keep('long', { ownerId: 'o', messages: [message(0, 'z'.repeat(500))] });
    expect(big.take('long', 'o')).toBeUndefined();
    big.keep('many', { ownerId: 'o', messages: [message(0, ''), message(1, '')] });
    expect(big.take('many', 'o')).toBeUndefined();
    big.close();
  });

  it('are kept for a while only, and forgotten with their owner’s conversations', () => {
    let clock = 0;
    const histories = createHistories({ maxAgeMs: 1_000, now: () => clock });
    histories.keep('a', { ownerId: 'o', messages: [message(0, 'old')] });
    clock = 1_001;
    histories.keep('b', { ownerId: 'o', messages: [message(0, 'new')] });
    expect(histories.size).toBe(1); // 'a' was swept when 'b' was kept
    clock = 2_002;
    expect(histories.take('b', 'o')).toBeUndefined();
    clock = 0;
    for (const id of ['c', 'd']) histories.keep(id, { ownerId: 'o', messages: [message(0, id)] });
    histories.keep('e', { ownerId: 'someone else', messages: [message(0, 'e')] });
    histories.dropOwner('o');
    expect(histories.size).toBe(1);
    expect(histories.take('e', 'someone else')).toBeDefined();
    histories.close();
  });
});
