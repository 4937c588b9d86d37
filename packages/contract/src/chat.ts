import { z } from 'zod';
import { keyProviderSchema, modelIdSchema } from './models.js';
import { LENGTHS, REPLY_OPTIONS, TONES, WRITING_LANGUAGES } from './settings-values.js';

import { CHAT_TEXT_MAX, CHAT_TITLE_MAX } from './limits.js';
import { httpUrl, line, text } from './text.js';

/**
 * The `request` field of the multipart `POST /api/ai/chat` (files go in `files` parts).
 * `regenerate` answers the last question again; `editMessageId` replaces that user message and what followed.
 */
export const chatRequestSchema = z
  .object({
    chatId: z.uuid().optional(),
    model: modelIdSchema,
    text: text().trim().max(CHAT_TEXT_MAX).default(''),
    webSearch: z.boolean().default(false),
    /** A web page or YouTube video to talk about. */
    url: httpUrl().optional(),
    /**
     * The readable text of the page the person is on, sent by the extension (which can read pages behind a login
     * that the server could not fetch). Treated as data, like a fetched page.
     */
    page: z
      .object({
        url: httpUrl(),
        title: line().trim().max(500),
        text: text().trim().min(1).max(200_000),
      })
      .strict()
      .optional(),
    regenerate: z.boolean().default(false),
    editMessageId: z.uuid().optional(),
  })
  .strict()
  .refine((r) => r.regenerate || r.text.length > 0, { path: ['text'], message: 'required' });
export type ChatRequest = z.input<typeof chatRequestSchema>;

export const sourceSchema = z.object({ n: z.number().int(), title: z.string(), url: z.string() });
export type Source = z.infer<typeof sourceSchema>;

export const attachmentSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['image', 'pdf', 'page', 'video']),
  name: z.string(),
  mediaType: z.string(),
  size: z.number().int(),
  url: z.string().optional(),
  pageCount: z.number().int().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  attachments: z.array(attachmentSchema),
  model: z.string().nullable(),
  sources: z.array(sourceSchema),
  /** Pages of attached PDFs that the answer's context came from. */
  citedPages: z.array(z.number().int()),
  status: z.enum(['complete', 'stopped', 'failed']),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatSummarySchema = z.object({
  chatHistoryId: z.uuid(),
  title: z.string(),
  model: z.string(),
  updatedAt: z.string(),
  createdAt: z.string(),
});
export type ChatSummary = z.infer<typeof chatSummarySchema>;

export const chatHistorySchema = chatSummarySchema.extend({ messages: z.array(chatMessageSchema) });
export type ChatHistory = z.infer<typeof chatHistorySchema>;

export const historyListQuerySchema = z.object({
  q: line().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const chatIdQuerySchema = z.object({ chatHistoryId: z.uuid() });
/** A conversation's name, as a person types it: one line, cleaned (see text.ts). */
export const chatTitleSchema = line().trim().min(1).max(CHAT_TITLE_MAX);
export const renameChatBodySchema = z.object({ chatHistoryId: z.uuid(), title: chatTitleSchema }).strict();
export type RenameChatBody = z.input<typeof renameChatBodySchema>;

/** Bring your own key. The key is write-only: answers carry a masked form. */
export const apiKeyBodySchema = z
  .object({
    provider: keyProviderSchema,
    apiKey: z
      .string()
      .trim()
      .min(8)
      .max(400)
      .regex(/^[\x21-\x7e]+$/),
    baseUrl: httpUrl(500).optional(),
    modelName: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .regex(/^[\w.:/@-]+$/)
      .optional(),
  })
  .strict()
  .refine((b) => b.provider !== 'openaiCompatible' || (b.baseUrl && b.modelName), {
    path: ['baseUrl'],
    message: 'required',
  })
  // An OpenAI-compatible images server (a local Stable Diffusion): its address; the model name may be left to it.
  .refine((b) => b.provider !== 'openaiCompatibleImages' || b.baseUrl, { path: ['baseUrl'], message: 'required' });
export const apiKeySchema = z.object({
  provider: keyProviderSchema,
  maskedKey: z.string(),
  baseUrl: z.string().nullable(),
  modelName: z.string().nullable(),
  updatedAt: z.string(),
});
export type ApiKeyInfo = z.infer<typeof apiKeySchema>;
export const apiKeyDeleteQuerySchema = z.object({ provider: keyProviderSchema });

/** Writing helpers: rewrite, reply, comment, translate, summaries. */
export const writingOptionsSchema = z.object({
  model: modelIdSchema.optional(),
  tone: z.enum(TONES).optional(),
  length: z.enum(LENGTHS).optional(),
  language: z.enum(WRITING_LANGUAGES).optional(),
  replyOption: z.enum(REPLY_OPTIONS).optional(),
});
const longText = text().trim().min(1).max(CHAT_TEXT_MAX);
const instruction = text().trim().max(2000);
export const editMessageBodySchema = writingOptionsSchema
  .extend({ text: longText, instruction: instruction.optional() })
  .strict();
export const replyBodySchema = writingOptionsSchema
  .extend({ thread: longText, instruction: instruction.optional() })
  .strict();
export const commentBodySchema = writingOptionsSchema
  .extend({ post: longText, instruction: instruction.optional() })
  .strict();
export const suggestionBodySchema = writingOptionsSchema.extend({ text: longText }).strict();
export const translateBodySchema = z
  .object({ text: longText, target: line().trim().min(2).max(60), model: modelIdSchema.optional() })
  .strict();
export const summaryBodySchema = writingOptionsSchema
  .extend({
    kind: z.enum(['mail', 'video', 'page']),
    text: longText.optional(),
    url: httpUrl().optional(),
  })
  .strict()
  .refine((b) => b.text || b.url, { path: ['text'], message: 'required' });
export const transcriptQuerySchema = z.object({
  url: httpUrl(),
  lang: line().max(10).optional(),
});
export const textResultSchema = z.object({ text: z.string(), model: z.string() });
export const suggestionsResultSchema = z.object({ suggestions: z.array(z.string()), model: z.string() });
export const transcriptResultSchema = z.object({
  videoId: z.string(),
  title: z.string(),
  language: z.string(),
  text: z.string(),
  segments: z.array(z.object({ start: z.number(), duration: z.number(), text: z.string() })),
});
