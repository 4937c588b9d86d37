import { describe, expect, it } from 'vitest';
import { servedModel } from './model-choice.js';
import { siteHostFromInput } from './settings-sites.js';

const list = (available: string[]) =>
  [
    { id: 'GPT_4O_MINI', tier: 'basic' as const },
    { id: 'GPT_4O', tier: 'advance' as const },
    { id: 'CLAUDE_SONNET_4', tier: 'extraAdvance' as const },
    { id: 'GEMINI_2_0_FLASH', tier: 'basic' as const },
    { id: 'CUSTOM_OPENAI_COMPATIBLE', tier: 'basic' as const },
  ].map((m) => ({ ...m, available: available.includes(m.id) }));

describe('servedModel', () => {
  it('keeps the preferred model when the server can run it', () => {
    expect(servedModel(list(['GPT_4O_MINI', 'GPT_4O']), 'GPT_4O')).toMatchObject({
      model: { id: 'GPT_4O' },
      fellBack: false,
    });
  });

  it('falls back to a served model of the same tier first, and says so', () => {
    const choice = servedModel(list(['GPT_4O', 'CLAUDE_SONNET_4', 'CUSTOM_OPENAI_COMPATIBLE']), 'GPT_4O_MINI');
    expect(choice).toMatchObject({ model: { id: 'CUSTOM_OPENAI_COMPATIBLE' }, fellBack: true });
  });

  it('takes any served model when none of the tier is served', () => {
    expect(servedModel(list(['CLAUDE_SONNET_4']), 'GPT_4O_MINI')).toMatchObject({
      model: { id: 'CLAUDE_SONNET_4' },
      fellBack: true,
    });
  });

  it('has nothing to offer when nothing is served, without claiming a fallback', () => {
    expect(servedModel(list([]), 'GPT_4O_MINI')).toEqual({ model: null, fellBack: false });
  });

  it('without a preference, the first served model is no fallback', () => {
    expect(servedModel(list(['GEMINI_2_0_FLASH']), null)).toMatchObject({
      model: { id: 'GEMINI_2_0_FLASH' },
      fellBack: false,
    });
  });
});

describe('siteHostFromInput', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  WWW.Example.COM. ', 'example.com'],
    ['https://mail.example.com/inbox?x=1', 'mail.example.com'],
    ['example.com/some/page', 'example.com'],
    ['localhost:8080', 'localhost'],
  ])('%s → %s', (input, host) => expect(siteHostFromInput(input)).toBe(host));

  it.each(['', '   ', 'not a host', 'exa mple.com', '-bad.com', 'http://', 'ex_ample.com', `${'a'.repeat(254)}.com`])(
    'refuses %j',
    (input) => expect(siteHostFromInput(input)).toBeNull(),
  );
});
