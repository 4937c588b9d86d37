import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateLocale, fillFromPage, firstName, senderName } from './fill';

const now = new Date('2026-11-26T10:00:00Z');

describe('filling a template from the page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('fills every variable the contract knows (fillTemplate), from the message, the profile, the date and the selection', () => {
    const body = 'Hi {{first_name}} ({{ sender_name }}),\n{{selection}} is fine.\n{{date}}\n{{my_name}}';
    expect(
      fillFromPage(body, {
        author: 'Morgan Lee <morgan.lee@example.org>',
        myName: 'Alex Rivera',
        selection: '  Lakeside Lodge ',
        language: 'ENGLISH',
        now,
      }),
    ).toBe('Hi Morgan (Morgan Lee),\nLakeside Lodge is fine.\nNovember 26, 2026\nAlex Rivera');
  });

  it('writes the date in the template’s language, else the browser’s', () => {
    expect(fillFromPage('{{date}}', { language: 'SPANISH', now })).toBe('26 de noviembre de 2026');
    expect(fillFromPage('{{date}}', { language: 'FRENCH', now })).toBe('26 novembre 2026');
    vi.stubGlobal('navigator', { language: 'en-GB' });
    expect(dateLocale(null)).toBe('en-GB');
    expect(fillFromPage('{{date}}', { now })).toBe('26 November 2026');
  });

  it('leaves out what the page does not know, and keeps unknown braces as written', () => {
    expect(fillFromPage('Hi {{first_name}},{{selection}} {{unknown}}', {})).toBe('Hi , {{unknown}}');
  });

  it('reads names as pages show them', () => {
    expect(senderName('"Morgan Lee" <morgan@example.org>')).toBe('Morgan Lee');
    expect(senderName('morgan@example.org')).toBe('');
    expect(firstName('Lee, Morgan')).toBe('Morgan');
    expect(firstName('Ravi Menon')).toBe('Ravi');
    expect(firstName('')).toBe('');
  });
});
