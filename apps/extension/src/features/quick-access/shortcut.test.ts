import { describe, expect, it } from 'vitest';
import { matchesShortcut } from './shortcut';

const key = (init: Partial<KeyboardEvent>) =>
  ({ ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, key: '', code: '', ...init }) as KeyboardEvent;

describe('matchesShortcut', () => {
  it('matches exactly the modifiers and the key', () => {
    expect(matchesShortcut('Ctrl+Shift+K', key({ ctrlKey: true, shiftKey: true, key: 'K', code: 'KeyK' }))).toBe(true);
    expect(matchesShortcut('Ctrl+Shift+K', key({ ctrlKey: true, key: 'k', code: 'KeyK' }))).toBe(false);
    expect(matchesShortcut('Ctrl+Shift+K', key({ ctrlKey: true, shiftKey: true, altKey: true, key: 'K' }))).toBe(false);
    expect(matchesShortcut('Alt+1', key({ altKey: true, key: '¡', code: 'Digit1' }))).toBe(true);
    expect(matchesShortcut('Cmd+J', key({ metaKey: true, key: 'j', code: 'KeyJ' }))).toBe(true);
  });
});
