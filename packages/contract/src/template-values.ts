/**
 * The plain-data part of templates and shortcuts (no zod), for code that only fills templates and matches shortcut
 * keys, such as the extension's content scripts. templates.ts re-exports all of it.
 */

/** What a reply template is for: a mail, a message (LinkedIn, X, Facebook…), or a custom reply's instruction. */
export const TEMPLATE_KINDS = ['mail', 'message', 'customReply'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const TEMPLATE_TITLE_MAX = 120;
export const TEMPLATE_BODY_MAX = 10_000;

/** A shortcut key: what the person types after the trigger (`;thanks`). Lower case letters, digits, - and _. */
export const SHORTCUT_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const SHORTCUT_KEY_MAX = 32;
/** The character typed before a shortcut key, unless the person chose another. */
export const DEFAULT_SHORTCUT_TRIGGER = ';';

/** Variables a template may hold, filled from the page where it is used. */
export const TEMPLATE_VARIABLES = ['first_name', 'sender_name', 'my_name', 'date', 'selection'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/**
 * A template's text with its variables filled: `{{first_name}}` and the others; unknown or empty ones are left out
 * (a variable with no value leaves no braces behind).
 */
export function fillTemplate(body: string, values: Partial<Record<TemplateVariable, string>>): string {
  return body.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) =>
    (TEMPLATE_VARIABLES as readonly string[]).includes(name) ? (values[name as TemplateVariable] ?? '') : whole,
  );
}
