import type { Template } from '@parley/contract';

/** Whether a template holds every word typed in the search, in its title or its text (any case). */
export function matches(template: Template, query: string): boolean {
  const words = query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${template.title}\n${template.body}`.toLocaleLowerCase();
  return words.every((word) => haystack.includes(word));
}
