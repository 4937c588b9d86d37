import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Server-side messages (namespaces `api` and `mail`), read once at start-up. No i18next on the server: a lookup and {{param}} interpolation is all it needs. */
export const SERVER_LANGUAGES = ['en', 'es', 'fr'] as const;
export type ServerLanguage = (typeof SERVER_LANGUAGES)[number];
type Tree = { [key: string]: string | Tree };

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../locales');

function load(lng: string, ns: string): Tree {
  return JSON.parse(readFileSync(path.join(localesDir, lng, `${ns}.json`), 'utf8')) as Tree;
}

const resources = Object.fromEntries(
  SERVER_LANGUAGES.map((lng) => [lng, { api: load(lng, 'api'), mail: load(lng, 'mail') }]),
) as Record<ServerLanguage, { api: Tree; mail: Tree }>;

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function interpolate(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    name in params ? String(params[name]) : `{{${name}}}`,
  );
}

/** Texts already looked up, by language, namespace and key (every answer carries a message). */
const found = new Map<string, string>();

const pluralRules = new Map<string, Intl.PluralRules>();
/** The language's plural form of `count` ('one', 'other'…; CLDR's categories, as i18next names its `_one` keys). */
function pluralOf(language: ServerLanguage, count: number) {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

/**
 * `translate('es', 'api', 'errors.NOT_FOUND')`; falls back to English, then to the key. With a string `context` in
 * `params`, `key_<context>` is taken when there is one; with a number `count`, the key's plural form (`key_one`,
 * `key_other`); then the key itself (as i18next does).
 */
export function translate(
  lng: string,
  ns: 'api' | 'mail',
  key: string,
  params?: Record<string, string | number>,
): string {
  const language = (SERVER_LANGUAGES as readonly string[]).includes(lng) ? (lng as ServerLanguage) : 'en';
  const count = params?.count;
  const form = typeof count === 'number' ? pluralOf(language, count) : null;
  const context = typeof params?.context === 'string' && /^\w+$/.test(params.context) ? params.context : null;
  const id = `${language}\u0000${ns}\u0000${key}\u0000${form ?? ''}\u0000${context ?? ''}`;
  let text = found.get(id);
  if (text === undefined) {
    const inLanguage = (tree: Tree) =>
      (context && lookup(tree, `${key}_${context}`)) ||
      (form && (lookup(tree, `${key}_${form}`) ?? lookup(tree, `${key}_other`))) ||
      lookup(tree, key);
    text = inLanguage(resources[language][ns]) ?? inLanguage(resources.en[ns]) ?? key;
    if (found.size < 10_000) found.set(id, text);
  }
  return params ? interpolate(text, params) : text;
}

export function hasTranslation(lng: ServerLanguage, ns: 'api' | 'mail', key: string): boolean {
  return lookup(resources[lng][ns], key) !== undefined;
}
