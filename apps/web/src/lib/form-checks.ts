import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { formChecks, type FormCheckName } from '@parley/contract/values';

type Strings = Record<string, string>;

/**
 * A react-hook-form resolver from the contract's plain checks (form-checks.ts): the same rules as the server's zod
 * schemas, without loading zod on the sign-in pages. `fields` names the check of each field; `also` adds rules that
 * involve several fields (a confirmation that must match). Valid values come out as the server will read them
 * (trimmed, lower-cased). Errors carry no message: each form words its own, per field, in the reader's language.
 */
export function checksResolver<T extends Strings>(
  fields: { [K in keyof T]?: FormCheckName },
  also?: (values: T) => (keyof T)[],
): Resolver<T> {
  return (values) => {
    const out: Strings = { ...values };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const [field, check] of Object.entries(fields) as [string, FormCheckName | undefined][]) {
      if (!check) continue;
      const value = formChecks[check](values[field] ?? '');
      if (value === undefined) errors[field] = { type: check, message: '' };
      else out[field] = value;
    }
    for (const field of also?.(values) ?? []) errors[field as string] ??= { type: 'also', message: '' };
    return Object.keys(errors).length
      ? { values: {}, errors: errors as unknown as FieldErrors<T> }
      : { values: out as T & FieldValues, errors: {} };
  };
}
