// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { hostName, isParleyHost, randomHostName, registerHost } from './hosts';

describe('on-site hosts', () => {
  it('have one made-up tag per page, a valid custom element name that does not say Parley', () => {
    const names = new Set(Array.from({ length: 200 }, randomHostName));
    expect(names.size).toBeGreaterThan(190);
    for (const name of names) {
      expect(name).toMatch(/^[a-z]{4,7}-[a-z]{4,7}$/);
      expect(() => document.createElement(name).attachShadow({ mode: 'closed' })).not.toThrow();
    }
    expect(hostName()).toBe(hostName());
    expect(hostName()).not.toContain('parley');
  });

  it('are known by the elements themselves, not by their tag (a page can make elements with any tag)', () => {
    const ours = document.createElement(hostName());
    registerHost(ours);
    expect(isParleyHost(ours)).toBe(true);
    expect(isParleyHost(document.createElement(hostName()))).toBe(false);
    expect(isParleyHost(null)).toBe(false);
  });
});
