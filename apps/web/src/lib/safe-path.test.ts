import { describe, expect, it } from 'vitest';
import { returnPath, sameSitePath, withReturnPath } from './safe-path';

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

describe('returnPath', () => {
  const origin = 'https://app.example';
  it.each([
    ['/chat/abc', '/chat/abc'],
    ['/setting/general?x=1', '/setting/general?x=1'],
    ['/profile#redeem', '/profile#redeem'],
    ['/', null],
    ['/login', null],
    ['/login?next=/chat', null],
    ['/signup/', null],
    ['/signout', null],
    ['/appsumo/signup', null],
    ['/not-found?page=/x', null],
    ['/loginx', '/loginx'],
    ['//evil.example/chat', null],
    ['https://evil.example/chat', null],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/\\\\evil.example', null],
    ['\t/chat', null],
  ])('%s → %s', (input, expected) => {
    expect(returnPath(input, origin)).toBe(expected);
  });

  it('builds the login address that comes back', () => {
    expect(withReturnPath('/login', '/chat/abc?x=1', origin)).toBe('/login?next=%2Fchat%2Fabc%3Fx%3D1');
    expect(withReturnPath('/login', '/', origin)).toBe('/login');
    expect(withReturnPath('/login', 'https://evil.example', origin)).toBe('/login');
  });
});
