import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createI18n, formatDate, formatNumber, LANGUAGES, readLanguageCookie, resolveLanguage } from './index.js';

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../locales');
const namespaces = readdirSync(path.join(localesDir, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5));

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Every leaf as [dotted key, text]; array items count as keys too (`steps.0`). */
function leaves(value: Json, prefix = ''): [string, string][] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
  }
  return [[prefix, String(value)]];
}

const load = (lng: string, ns: string) =>
  JSON.parse(readFileSync(path.join(localesDir, lng, `${ns}.json`), 'utf8')) as Json;
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locale resources', () => {
  it('has the client namespaces', () => {
    expect(namespaces).toEqual(
      expect.arrayContaining(['common', 'auth', 'onboarding', 'home', 'profile', 'settings', 'shell']),
    );
  });

  for (const ns of namespaces) {
    const en = new Map(leaves(load('en', ns)));
    for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
      it(`${lng}/${ns}.json has exactly the keys of en`, () => {
        const other = new Map(leaves(load(lng, ns)));
        expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
      });
      it(`${lng}/${ns}.json keeps every placeholder`, () => {
        const other = new Map(leaves(load(lng, ns)));
        for (const [key, text] of en) {
          expect({ key, placeholders: placeholders(other.get(key) ?? '') }).toEqual({
            key,
            placeholders: placeholders(text),
          });
        }
      });
      it(`${lng}/${ns}.json has no empty text`, () => {
        for (const [key, text] of leaves(load(lng, ns)))
          expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
      });
    }
  }
});

describe('language helpers', () => {
  it('resolves profile, then cookie, then English', () => {
    expect(resolveLanguage({ profile: 'fr', cookie: 'es' })).toBe('fr');
    expect(resolveLanguage({ profile: null, cookie: 'es' })).toBe('es');
    expect(resolveLanguage({ profile: 'de', cookie: 'xx' })).toBe('en');
    expect(readLanguageCookie('a=1; lang=es; b=2')).toBe('es');
    expect(readLanguageCookie('a=1')).toBeNull();
  });

  it('formats dates and numbers per locale, Arabic included', () => {
    const date = new Date(Date.UTC(2025, 2, 14, 12));
    expect(formatDate(date, 'en')).toContain('March');
    expect(formatDate(date, 'es')).toContain('marzo');
    expect(formatDate(date, 'fr')).toContain('mars');
    expect(formatDate(date, 'ar')).not.toContain('March');
    expect(formatDate('not a date', 'en')).toBe('');
    expect(formatNumber(1234.5, 'fr')).toMatch(/1\s?234,5/);
  });

  it('creates an instance with bundled resources synchronously', () => {
    const i18n = createI18n({
      language: 'es',
      resources: { es: { common: { hello: 'Hola' } } },
      namespaces: ['common'],
    });
    expect(i18n.t('hello')).toBe('Hola');
    expect(i18n.options.maxRetries).toBe(5);
    expect(i18n.options.retryTimeout).toBe(350);
    expect(i18n.options.maxParallelReads).toBe(10);
  });
});
