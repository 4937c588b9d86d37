import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailSchema, licenceCodeSchema, loginBodySchema, passwordSchema } from './auth.js';
import { EMAIL_PATTERN, formChecks, type FormCheckName } from './form-checks.js';
import { nameSchema, timezoneSchema } from './user.js';

/** The zod schema each plain check stands in for. */
const schemas: Record<FormCheckName, z.ZodType<string>> = {
  email: emailSchema,
  password: passwordSchema,
  loginPassword: loginBodySchema.shape.password,
  name: nameSchema,
  timezone: timezoneSchema,
  licenceCode: licenceCodeSchema,
};

const written: string[] = [
  '',
  ' ',
  'a',
  'ada@example.com',
  '  Ada@Example.COM ',
  'ada.lovelace+parley@mail.example.co.uk',
  "o'brien@example.ie",
  'ada@example',
  'ada@@example.com',
  '.ada@example.com',
  'ada.@example.com',
  'ada..l@example.com',
  'ada@-example.com',
  'ada@example.c',
  'ada@exa_mple.com',
  'ada@example.com.',
  'ädä@example.com',
  'ada@exämple.com',
  'a b@example.com',
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`,
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`,
  'x'.repeat(7),
  'x'.repeat(8),
  'x'.repeat(128),
  'x'.repeat(129),
  '        ',
  '\u0000\u0001',
  'Ada\u202E',
  'Ada\tLovelace',
  '\u200F\u200E',
  'n'.repeat(80),
  ` ${'n'.repeat(80)} `,
  'n'.repeat(81),
  'ß'.repeat(40),
  'é'.repeat(81),
  '😀'.repeat(40),
  '😀'.repeat(41),
  '\uD800abc',
  `${'😀'.repeat(40)}a`,
  '\uD83D'.repeat(81),
  '\uD83D'.repeat(80),
  'Europe/London',
  'America/Argentina/Buenos_Aires',
  'Etc/GMT+3',
  'Europe London',
  'Europe/Lon;don',
  'z'.repeat(64),
  'z'.repeat(65),
  'PARLEY-7K3M-Q9XD-2HRT',
  'parley-7k3m-q9xd-2hrt',
  '  parley-7k3m-q9xd-2hrt  ',
  'PARLEY_7K3M',
  'ABCDEFG',
  'ABCDEFGH',
  'C'.repeat(64),
  'C'.repeat(65),
  'straße-1234',
  'ﬀﬀﬀﬀ-1234',
];

/** Seeded so a failure can be replayed: short strings from an alphabet that hits every rule's edges. */
function generated(count: number): string[] {
  const alphabet = ['a', 'Z', '0', '9', '.', '@', '-', '_', '+', "'", ' ', '/', 'é', 'ß', '\u202E', '\t', '😀', 'x'];
  let seed = 20261126;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  return Array.from({ length: count }, () => {
    const length = next() % 24;
    return Array.from({ length }, () => alphabet[next() % alphabet.length]).join('');
  });
}

const inputs = [...written, ...generated(3000), ...generated(200).map((s) => `${s}@example.com`)];

describe('the plain form checks agree with the contract schemas', () => {
  for (const name of Object.keys(schemas) as FormCheckName[]) {
    it(`${name}: the same verdict and the same value on ${inputs.length} inputs`, () => {
      const disagreements: { input: string; zod: string | undefined; plain: string | undefined }[] = [];
      for (const input of inputs) {
        const parsed = schemas[name].safeParse(input);
        const zod = parsed.success ? parsed.data : undefined;
        const plain = formChecks[name](input);
        if (zod !== plain) disagreements.push({ input, zod, plain });
      }
      expect(disagreements).toEqual([]);
    });
  }

  it('the address pattern is the one zod uses by default', () => {
    const differ = inputs
      .map((input) => input.trim().toLowerCase())
      .filter((value) => z.email().safeParse(value).success !== EMAIL_PATTERN.test(value));
    expect(differ).toEqual([]);
  });

  it('accepts and refuses what a person would expect', () => {
    expect(formChecks.email('  Ada@Example.com ')).toBe('ada@example.com');
    expect(formChecks.email('ada@example')).toBeUndefined();
    expect(formChecks.password('short')).toBeUndefined();
    expect(formChecks.loginPassword('short')).toBe('short');
    expect(formChecks.name('  Ada  ')).toBe('Ada');
    expect(formChecks.name('\u202E')).toBeUndefined();
    expect(formChecks.licenceCode(' parley-7k3m-q9xd-2hrt ')).toBe('PARLEY-7K3M-Q9XD-2HRT');
  });
});
