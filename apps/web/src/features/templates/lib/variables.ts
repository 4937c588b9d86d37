import { TEMPLATE_VARIABLES, fillTemplate, type TemplateVariable } from '@parley/contract';
import { formatDate } from '@parley/i18n';

export type SampleValues = Record<TemplateVariable, string>;

/** Sample values for the preview, in the reader's language; `my_name` is the person's own name when known. */
export function sampleValues(
  t: (key: string) => string,
  lng: string,
  myName: string | undefined,
  now = new Date(),
): SampleValues {
  return {
    first_name: t('variables.sample.first_name'),
    sender_name: t('variables.sample.sender_name'),
    my_name: myName?.trim() || t('variables.sample.my_name'),
    date: formatDate(now, lng),
    selection: t('variables.sample.selection'),
  };
}

export const placeholder = (name: TemplateVariable) => `{{${name}}}`;

/** Fills the variables that have a value and leaves the others as they are (for text copied outside a page). */
export function fillKnown(body: string, values: Partial<Record<TemplateVariable, string>>): string {
  const all = Object.fromEntries(
    TEMPLATE_VARIABLES.map((name) => [name, values[name] ?? placeholder(name)]),
  ) as SampleValues;
  return fillTemplate(body, all);
}

/** The text with `insert` put at the selection of a field, and where the caret goes after it. */
export function insertAt(value: string, start: number, end: number, insert: string) {
  return { value: value.slice(0, start) + insert + value.slice(end), caret: start + insert.length };
}
