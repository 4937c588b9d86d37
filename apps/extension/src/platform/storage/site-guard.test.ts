import { describe, expect, it } from 'vitest';
import { isDisabled, normalizeHost } from './site-guard';

describe('site guard', () => {
  const settings = { disabledSites: ['example.com', 'www.mail.test', 'Docs.Corp.TEST'] };

  it('covers the host and its subdomains', () => {
    expect(isDisabled('example.com', settings)).toBe(true);
    expect(isDisabled('www.example.com', settings)).toBe(true);
    expect(isDisabled('deep.sub.example.com', settings)).toBe(true);
    expect(isDisabled('EXAMPLE.COM.', settings)).toBe(true);
  });

  it('does not cover look-alikes or parents', () => {
    expect(isDisabled('notexample.com', settings)).toBe(false);
    expect(isDisabled('example.com.evil.test', settings)).toBe(false);
    expect(isDisabled('corp.test', settings)).toBe(false);
    expect(isDisabled('docs.corp.test', settings)).toBe(true);
  });

  it('reads www. entries as the bare site', () => {
    expect(isDisabled('mail.test', settings)).toBe(true);
    expect(normalizeHost(' WWW.Example.com. ')).toBe('example.com');
  });

  it('disables nothing without settings or entries', () => {
    expect(isDisabled('example.com', null)).toBe(false);
    expect(isDisabled('example.com', { disabledSites: [] })).toBe(false);
    expect(isDisabled('', settings)).toBe(false);
  });
});
