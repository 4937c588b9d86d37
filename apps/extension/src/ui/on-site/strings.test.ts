import { afterEach, describe, expect, it, vi } from 'vitest';
import { onSiteLanguage } from './language';
import { translator } from './strings';

describe('on-site strings', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('speak the writing language when the interface exists in it', () => {
    expect(onSiteLanguage('SPANISH', 'en')).toBe('es');
    expect(onSiteLanguage('FRENCH', 'es')).toBe('fr');
    expect(translator(onSiteLanguage('FRENCH', 'en'))('summarize')).toBe('Résumer');
  });

  it('keep the profile language when the setting is the default (English) or a language without an interface', () => {
    expect(onSiteLanguage('ENGLISH', 'es')).toBe('es');
    expect(onSiteLanguage('GERMAN', 'fr')).toBe('fr');
    expect(onSiteLanguage(undefined, 'fr')).toBe('fr');
  });

  it('fall back to the browser language, and to English for any other', () => {
    vi.stubGlobal('navigator', { language: 'es-MX' });
    expect(onSiteLanguage('GERMAN', null)).toBe('es');
    expect(onSiteLanguage('ENGLISH', '')).toBe('es');
    expect(onSiteLanguage('ENGLISH', 'de')).toBe('en');
    expect(translator('de')('summarize')).toBe('Summarize');
  });
});
