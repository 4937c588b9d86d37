import { z } from 'zod';
import { LENGTHS, TONES, WRITING_LANGUAGES } from './settings-values.js';
import { line, text } from './text.js';
import {
  SHORTCUT_KEY_MAX,
  SHORTCUT_KEY_PATTERN,
  TEMPLATE_BODY_MAX,
  TEMPLATE_KINDS,
  TEMPLATE_TITLE_MAX,
} from './template-values.js';

export {
  DEFAULT_SHORTCUT_TRIGGER,
  fillTemplate,
  SHORTCUT_KEY_MAX,
  SHORTCUT_KEY_PATTERN,
  TEMPLATE_BODY_MAX,
  TEMPLATE_KINDS,
  TEMPLATE_TITLE_MAX,
  TEMPLATE_VARIABLES,
  type TemplateKind,
  type TemplateVariable,
} from './template-values.js';

/**
 * Templates, signatures and shortcuts (spec §1, §2 /new-template, /template/*, /template/signature/*,
 * /template-app/*, §3 mail templates, customReply, shortcut templates, §4, §7 Templates and Shortcut templates).
 * Each belongs to one person; another person's id is answered 404.
 */

/** Templates (and, separately, signatures and shortcuts) one person may keep. */
export const TEMPLATES_MAX = 500;
export const SIGNATURES_MAX = 50;
export const SIGNATURE_NAME_MAX = 80;
/** A signature's HTML after cleaning. */
export const SIGNATURE_HTML_MAX = 20_000;
export const SHORTCUTS_MAX = 500;
export const SHORTCUT_TEXT_MAX = 5_000;
export const TEMPLATE_AI_PROMPT_MAX = 1_000;

/** Where a signature is the default: a site (gmail, outlook) or a mail account's address. */
export const SIGNATURE_SITES = ['gmail', 'outlook'] as const;
export const signatureScopeSchema = z.union([
  z.enum(SIGNATURE_SITES),
  z.string().trim().toLowerCase().max(254).pipe(z.email()),
]);

export const idParamsSchema = z.object({ id: z.uuid() }).strict();

export const templateInputSchema = z
  .object({
    kind: z.enum(TEMPLATE_KINDS).default('mail'),
    title: line().trim().min(1).max(TEMPLATE_TITLE_MAX),
    body: text().min(1).max(TEMPLATE_BODY_MAX),
    /** The language it is written in (a writing language), or null when it does not matter. */
    language: z.enum(WRITING_LANGUAGES).nullable().default(null),
    tone: z.enum(TONES).nullable().default(null),
    length: z.enum(LENGTHS).nullable().default(null),
  })
  .strict();
export type TemplateInput = z.input<typeof templateInputSchema>;

export const templateSchema = z.object({
  id: z.string(),
  kind: z.enum(TEMPLATE_KINDS),
  title: z.string(),
  body: z.string(),
  language: z.enum(WRITING_LANGUAGES).nullable(),
  tone: z.enum(TONES).nullable(),
  length: z.enum(LENGTHS).nullable(),
  /** Its place in the person's list (0 first). */
  position: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;

export const templatesSchema = z.object({ templates: z.array(templateSchema) });

/** The new order: every one of the person's template ids, first to last. */
export const reorderBodySchema = z
  .object({ ids: z.array(z.uuid()).min(1).max(TEMPLATES_MAX) })
  .strict()
  .refine((b) => new Set(b.ids).size === b.ids.length, { message: 'each id once' });

export const templateAiQuerySchema = z
  .object({
    prompt: line().trim().min(1).max(TEMPLATE_AI_PROMPT_MAX),
    kind: z.enum(TEMPLATE_KINDS).default('mail'),
    language: z.enum(WRITING_LANGUAGES).optional(),
    tone: z.enum(TONES).optional(),
    length: z.enum(LENGTHS).optional(),
  })
  .strict();

/** A template the AI wrote, not saved yet: the person looks at it, changes it, then adds it. */
export const templateDraftSchema = z.object({ title: z.string(), body: z.string() });
export type TemplateDraft = z.infer<typeof templateDraftSchema>;

export const signatureInputSchema = z
  .object({
    name: line().trim().min(1).max(SIGNATURE_NAME_MAX),
    /** Formatted text and links; cleaned by the server (only simple formatting, links and https images stay). */
    html: text().max(SIGNATURE_HTML_MAX * 2),
    /** Where this signature is the default (it stops being the default of any other signature there). */
    defaultFor: z.array(signatureScopeSchema).max(20).default([]),
  })
  .strict();
export type SignatureInput = z.input<typeof signatureInputSchema>;

export const signatureSchema = z.object({
  id: z.string(),
  name: z.string(),
  html: z.string(),
  defaultFor: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Signature = z.infer<typeof signatureSchema>;

export const signaturesSchema = z.object({ signatures: z.array(signatureSchema) });

export const shortcutKeySchema = z.string().trim().toLowerCase().max(SHORTCUT_KEY_MAX).regex(SHORTCUT_KEY_PATTERN);

export const shortcutInputSchema = z
  .object({ key: shortcutKeySchema, text: text().min(1).max(SHORTCUT_TEXT_MAX) })
  .strict();
export type ShortcutInput = z.input<typeof shortcutInputSchema>;

export const shortcutSchema = z.object({
  id: z.string(),
  key: z.string(),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Shortcut = z.infer<typeof shortcutSchema>;

export const shortcutsSchema = z.object({ shortcuts: z.array(shortcutSchema) });

export const shortcutExistQuerySchema = z.object({ key: z.string().max(200) }).strict();
export const shortcutExistSchema = z.object({ exists: z.boolean(), valid: z.boolean() });

export const shortcutAiQuerySchema = z
  .object({ prompt: line().trim().min(1).max(TEMPLATE_AI_PROMPT_MAX), language: z.enum(WRITING_LANGUAGES).optional() })
  .strict();
export const shortcutDraftSchema = z.object({ text: z.string() });

export const deletedSchema = z.object({ deleted: z.number().int() });

/** Import: what an export holds (templates, signatures, shortcuts); shortcuts whose key is taken are skipped. */
export const importBodySchema = z
  .object({
    templates: z.array(templateInputSchema).max(TEMPLATES_MAX).default([]),
    signatures: z.array(signatureInputSchema).max(SIGNATURES_MAX).default([]),
    shortcuts: z.array(shortcutInputSchema).max(SHORTCUTS_MAX).default([]),
  })
  .strict();
export type ImportBody = z.input<typeof importBodySchema>;

export const importResultSchema = z.object({
  templates: z.number().int(),
  signatures: z.number().int(),
  shortcuts: z.number().int(),
  /** Keys of shortcuts not imported because the person already has them. */
  skippedKeys: z.array(z.string()),
});
