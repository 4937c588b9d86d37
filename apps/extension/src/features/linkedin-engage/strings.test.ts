import { describe, expect, it } from 'vitest';
import en from '@parley/i18n/locales/en/extension.json';
import es from '@parley/i18n/locales/es/extension.json';
import fr from '@parley/i18n/locales/fr/extension.json';
import { engageTranslator } from './strings';

describe('LinkedIn engagement strings', () => {
  it('exist in en, es and fr with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const catalog of [es, fr]) {
      expect(Object.keys(catalog.linkedinEngage).sort()).toEqual(Object.keys(en.linkedinEngage).sort());
      for (const [key, text] of Object.entries(en.linkedinEngage)) {
        const other = (catalog.linkedinEngage as Record<string, string>)[key]!;
        expect(placeholders(other), key).toEqual(placeholders(text));
        expect(other.trim(), key).not.toBe('');
      }
    }
  });

  it('speaks the on-site language and fills the values in', () => {
    expect(engageTranslator('es')('postBy', { name: 'Dana' })).toBe('Publicación de Dana');
    expect(engageTranslator('fr')('remaining', { n: 2 })).toBe(
      'Brouillons gratuits restants aujourd’hui : 2'.replace('’', "'"),
    );
    expect(engageTranslator('de')('accept')).toBe('Accept');
  });
});
