import { describe, expect, it } from 'vitest';
import { sameSitePath } from './safe-path';

describe('sameSitePath', () => {
  const origin = 'https://app.example';
  it.each([
    ['/home', '/home'],
    ['/profile?tab=1#x', '/profile?tab=1#x'],
    ['//evil.example/x', null],
    ['https://evil.example', null],
    ['/\\evil.example', null],
    ['javascript:alert(1)', null],
    ['', null],
    [null, null],
  ])('%s → %s', (input, expected) => {
    expect(sameSitePath(input, origin)).toBe(expected);
  });
});
