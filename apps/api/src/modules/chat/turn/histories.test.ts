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

  it('hold at most so many conversations and characters, the least recently kept dropped first', () => {
    const histories = createHistories({ maxConversations: 3, maxChars: 1_000 });
    for (const id of ['a', 'b', 'c', 'd']) histories.keep(id, { ownerId: 'o', messages: [message(0, 'x'.repeat(10))] });
    expect(histories.size).toBe(3);
    expect(histories.take('a', 'o')).toBeUndefined();
    // 3 × 90 characters: one more of 90 would pass the 1,000 characters' bound with the one kept before it.
    const big = createHistories({ maxConversations: 100, maxChars: 1_000 });
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'])
      big.keep(id, { ownerId: 'o', messages: [message(0, 'y'.repeat(90))] });
    expect(big.size).toBe(11);
    expect(big.take('a', 'o')).toBeUndefined();
    expect(big.take('l', 'o')).toBeDefined();
    // A history longer than a tenth of the bound is not kept at all.
    big.keep('long', { ownerId: 'o', messages: [message(0, 'z'.repeat(101))] });
    expect(big.take('long', 'o')).toBeUndefined();
  });
});
