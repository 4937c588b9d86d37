import { describe, expect, it } from 'vitest';
import { parseEmails } from './parse-emails';

describe('parseEmails', () => {
  it('splits on commas, semicolons, spaces and new lines, lower-cases and drops repeats', () => {
    expect(parseEmails(' Ada@Example.com,grace@example.com;\n\nalan@example.com  ada@example.com,, ')).toEqual({
      valid: ['ada@example.com', 'grace@example.com', 'alan@example.com'],
      invalid: [],
      tooMany: false,
    });
  });

  it('keeps what is not an address as typed', () => {
    expect(parseEmails('ada@example.com, grace@, @example.com, grace@')).toEqual({
      valid: ['ada@example.com'],
      invalid: ['grace@', '@example.com'],
      tooMany: false,
    });
  });

  it('says when there are more than one call may name', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `p${i}@example.com`);
    expect(parseEmails(twenty.join(' ')).tooMany).toBe(false);
    expect(parseEmails([...twenty, 'one@example.com'].join(' ')).tooMany).toBe(true);
  });

  it('finds nothing in blank text', () => {
    expect(parseEmails(' \n ,')).toEqual({ valid: [], invalid: [], tooMany: false });
  });
});
