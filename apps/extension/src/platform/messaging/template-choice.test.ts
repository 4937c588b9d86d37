import { describe, expect, it } from 'vitest';
import { isPickerRequest, pickedTemplateOf, templateChosenIn } from './template-choice';

const ID = '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b01';
const template = { id: ID, kind: 'mail', title: 'Thanks', body: 'Hi {{first_name}}, thanks!', language: null };

describe('a template chosen in the web app’s picker', () => {
  it('is taken with exactly its shape, as a new object', () => {
    const taken = pickedTemplateOf(template);
    expect(taken).toEqual(template);
    expect(taken).not.toBe(template);
    expect(pickedTemplateOf({ ...template, kind: 'customReply', language: 'FRENCH' })).toMatchObject({
      kind: 'customReply',
      language: 'FRENCH',
    });
    expect(templateChosenIn({ type: 'PARLEY_TEMPLATE_CHOSEN', template })).toEqual(template);
  });

  it('refuses anything else: other keys, kinds, languages, ids, empty or oversized texts', () => {
    const refused = [
      null,
      'Thanks',
      [template],
      { ...template, html: '<img src=x onerror=alert(1)>' },
      { id: ID, kind: 'mail', title: 'Thanks', body: 'x' },
      { ...template, kind: 'signature' },
      { ...template, language: 'KLINGON' },
      { ...template, id: '../../etc' },
      { ...template, id: 42 },
      { ...template, title: '   ' },
      { ...template, title: 'x'.repeat(121) },
      { ...template, body: 'x'.repeat(10_001) },
      { ...template, body: { toString: () => 'x' } },
    ];
    for (const value of refused) expect(pickedTemplateOf(value)).toBeNull();
  });

  it('comes in a page message of exactly that type and nothing more', () => {
    expect(templateChosenIn({ type: 'PARLEY_TEMPLATE_CHOSEN', template, extra: 1 })).toBeNull();
    expect(templateChosenIn({ type: 'UPDATE_TOKEN', template })).toBeNull();
    expect(templateChosenIn({ type: 'PARLEY_TEMPLATE_CHOSEN' })).toBeNull();
    expect(templateChosenIn(null)).toBeNull();
  });

  it('a picker request is a UUID', () => {
    expect(isPickerRequest(ID)).toBe(true);
    expect(isPickerRequest('1')).toBe(false);
    expect(isPickerRequest(undefined)).toBe(false);
  });
});
