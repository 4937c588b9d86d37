import { emailSchema, ORG_INVITE_MAX } from '@parley/contract';

export type ParsedEmails = {
  /** Valid addresses, as the server will read them (trimmed, lower case), each once, in the order typed. */
  valid: string[];
  /** What was typed that is not an address, as typed. */
  invalid: string[];
  /** More than one call may name. */
  tooMany: boolean;
};

/**
 * The addresses typed into Add New Members: separated by commas, semicolons, spaces or new lines, each checked with
 * the contract's own e-mail rule.
 */
export function parseEmails(text: string): ParsedEmails {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const piece of text.split(/[\s,;]+/)) {
    if (!piece) continue;
    const parsed = emailSchema.safeParse(piece);
    if (!parsed.success) {
      if (!invalid.includes(piece)) invalid.push(piece);
    } else if (!valid.includes(parsed.data)) {
      valid.push(parsed.data);
    }
  }
  return { valid, invalid, tooMany: valid.length > ORG_INVITE_MAX };
}
