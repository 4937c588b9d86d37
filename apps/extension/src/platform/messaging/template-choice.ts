import { TEMPLATE_BODY_MAX, TEMPLATE_KINDS, TEMPLATE_TITLE_MAX, WRITING_LANGUAGES } from '@parley/contract/values';
import type { PickedTemplate } from './protocol';

/**
 * The web app's template picker (/template-app, opened by the extension in a window of its own) posts
 * `{ type: TEMPLATE_CHOSEN_MESSAGE, template: { id, kind, title, body, language } }` on its own window, where the
 * bridge content script hears it (apps/web/src/features/templates/lib/picker-host.ts is the other side). Nothing else
 * is accepted: other keys, other types, sizes beyond what the API stores. The bridge checks it, and the background
 * checks it again.
 */
export const TEMPLATE_CHOSEN_MESSAGE = 'PARLEY_TEMPLATE_CHOSEN';
/** Bridge → picker page: whether the choice reached a box (`{ type, delivered }`), so the picker can say so. */
export const TEMPLATE_RECEIVED_MESSAGE = 'PARLEY_TEMPLATE_RECEIVED';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TEMPLATE_KEYS = ['body', 'id', 'kind', 'language', 'title'];

type Loose = Record<string, unknown>;

/** Exactly these keys on a plain (non-array) object. */
function hasExactly(value: unknown, keys: readonly string[]): value is Loose {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const own = Object.keys(value).sort();
  return own.length === keys.length && own.every((key, i) => key === keys[i]);
}

const bounded = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.trim().length > 0 && value.length <= max;

/** The picked template, as a new plain object, when `value` has exactly its shape; else null. */
export function pickedTemplateOf(value: unknown): PickedTemplate | null {
  if (!hasExactly(value, TEMPLATE_KEYS)) return null;
  const { id, kind, title, body, language } = value;
  if (typeof id !== 'string' || !ID.test(id)) return null;
  if (!(TEMPLATE_KINDS as readonly unknown[]).includes(kind)) return null;
  if (!bounded(title, TEMPLATE_TITLE_MAX) || !bounded(body, TEMPLATE_BODY_MAX)) return null;
  if (language !== null && !(WRITING_LANGUAGES as readonly unknown[]).includes(language)) return null;
  return { id, kind: kind as PickedTemplate['kind'], title, body, language: language as PickedTemplate['language'] };
}

/** The template of a page message `{ type: TEMPLATE_CHOSEN_MESSAGE, template }` (nothing more), else null. */
export function templateChosenIn(data: unknown): PickedTemplate | null {
  if (!hasExactly(data, ['template', 'type']) || data.type !== TEMPLATE_CHOSEN_MESSAGE) return null;
  return pickedTemplateOf(data.template);
}

/** A request id a content script made up (crypto.randomUUID). */
export const isPickerRequest = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
