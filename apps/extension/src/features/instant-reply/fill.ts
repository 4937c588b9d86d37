import { fillTemplate, WRITING_LANGUAGE_TAGS, type TemplateVariable } from '@parley/contract/values';

/** A name as a page shows it, without an address: "Morgan Lee <morgan@example.org>" → "Morgan Lee". */
export function senderName(author: string | undefined): string {
  const name = (author ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/["“”]/g, '')
    .trim();
  return name.includes('@') && !name.includes(' ') ? '' : name;
}

/** "Morgan Lee" → "Morgan"; "Lee, Morgan" → "Morgan". */
export function firstName(name: string): string {
  const comma = name.indexOf(',');
  const given = comma >= 0 ? name.slice(comma + 1) : name;
  return given.trim().split(/\s+/)[0] ?? '';
}

/** The locale a template's date is written in: its own language's when it has one, else the browser's. */
export function dateLocale(language: string | null | undefined): string {
  const tag = language ? (WRITING_LANGUAGE_TAGS as Record<string, string | undefined>)[language] : undefined;
  return tag ?? navigator.language ?? 'en';
}

/**
 * A template's text with its variables filled from where it is used: `first_name` / `sender_name` from the message
 * being answered (when the site module reads an author), `my_name` from the profile, `date` today in the template's
 * language (else the browser's), `selection` from what the person selected on the page. What is not known is left out.
 */
export function fillFromPage(
  body: string,
  page: { author?: string; myName?: string | null; selection?: string; language?: string | null; now?: Date },
): string {
  const sender = senderName(page.author);
  let date = '';
  try {
    date = new Intl.DateTimeFormat(dateLocale(page.language), { dateStyle: 'long' }).format(page.now ?? new Date());
  } catch {
    date = (page.now ?? new Date()).toLocaleDateString();
  }
  const values: Partial<Record<TemplateVariable, string>> = {
    sender_name: sender,
    first_name: firstName(sender),
    my_name: page.myName?.trim() ?? '',
    date,
    selection: page.selection?.trim() ?? '',
  };
  return fillTemplate(body, values);
}
