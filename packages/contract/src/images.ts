import { z } from 'zod';
import { TIERS } from './catalogue.js';
import {
  ASPECT_RATIOS,
  IMAGE_ABILITIES,
  IMAGE_COUNT_MAX,
  IMAGE_MODEL_IDS,
  IMAGE_OPERATIONS,
  IMAGE_PROMPT_MAX,
  IMAGE_PROVIDERS,
  IMAGES_PAGE_SIZE,
} from './image-catalogue.js';
import { line } from './text.js';

export * from './image-catalogue.js';

/**
 * Image generation and editing (spec §1, §2 /image-generation, /image-editor, §5, §7 imageGeneration, imageEdit).
 * Every image and version belongs to one person; another person's id is answered 404. Bytes are served by
 * `STREAM_PATHS.imageFile` to their owner only (bearer token on every request).
 */

export const imageModelIdSchema = z.enum(IMAGE_MODEL_IDS);
export const aspectRatioSchema = z.enum(ASPECT_RATIOS);
export const imageOperationSchema = z.enum(IMAGE_OPERATIONS);

/** A model as this server offers it to the caller: with a key (server's or own) or unavailable. */
export const imageModelSchema = z.object({
  id: imageModelIdSchema,
  label: z.string(),
  provider: z.enum(IMAGE_PROVIDERS),
  tier: z.enum(TIERS),
  creditsPerImage: z.number().int(),
  abilities: z.array(z.enum(IMAGE_ABILITIES)),
  aspectRatios: z.array(aspectRatioSchema),
  maxImages: z.number().int(),
  available: z.boolean(),
  /** Who pays the provider: the server (credits are spent) or the person's own key (nothing is metered). */
  keySource: z.enum(['server', 'own']).nullable(),
});
export type ImageModel = z.infer<typeof imageModelSchema>;
export const imageModelsSchema = z.object({ models: z.array(imageModelSchema) });

/** The `fields` of the multipart `POST /api/ai/imageGeneration` (an optional `reference` file part goes beside). */
export const imageGenerationFieldsSchema = z
  .object({
    prompt: line().trim().min(1).max(IMAGE_PROMPT_MAX),
    model: imageModelIdSchema,
    aspectRatio: aspectRatioSchema.default('1:1'),
    count: z.coerce.number().int().min(1).max(IMAGE_COUNT_MAX).default(1),
  })
  .strict();
export type ImageGenerationFields = z.input<typeof imageGenerationFieldsSchema>;

const hexColour = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/);

/**
 * The `fields` of the multipart `POST /api/ai/imageEdit`. The image edited is a version of one of the caller's images
 * (`imageId` and `versionId`), or an `image` file part, which becomes a new image first. `changeBackground` takes one of
 * `colour`, a `background` file part, or `prompt` (a described scene); `reEdit` takes `prompt`, and a `mask` file part
 * (white where to change) where the model can. `model` picks who does it (the first available able model otherwise).
 */
export const imageEditFieldsSchema = z
  .object({
    operation: imageOperationSchema,
    imageId: z.uuid().optional(),
    versionId: z.uuid().optional(),
    prompt: line().trim().min(1).max(IMAGE_PROMPT_MAX).optional(),
    colour: hexColour.optional(),
    model: imageModelIdSchema.optional(),
  })
  .strict()
  .refine((f) => (f.imageId === undefined) === (f.versionId === undefined), {
    path: ['versionId'],
    message: 'imageId and versionId go together',
  })
  .refine((f) => f.operation !== 'reEdit' || f.prompt !== undefined, { path: ['prompt'], message: 'required' });
export type ImageEditFields = z.input<typeof imageEditFieldsSchema>;

/** One state of an image: the first (generated or uploaded) and each edit made from an earlier one. */
export const imageVersionSchema = z.object({
  id: z.string(),
  imageId: z.string(),
  /** The version it was made from (null for the first). */
  parentId: z.string().nullable(),
  /** `generate`, `upload`, or the editor's operation that made it. */
  operation: z.enum(['generate', 'upload', ...IMAGE_OPERATIONS]),
  /** The instruction or scene, when there was one. */
  prompt: z.string().nullable(),
  model: z.string().nullable(),
  mediaType: z.enum(['image/png', 'image/jpeg']),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  createdAt: z.string(),
});
export type ImageVersion = z.infer<typeof imageVersionSchema>;

export const imageSchema = z.object({
  id: z.string(),
  source: z.enum(['generated', 'uploaded']),
  /** The prompt it was generated from (null for an upload). */
  prompt: z.string().nullable(),
  model: z.string().nullable(),
  aspectRatio: z.string().nullable(),
  /** An upload's file name (for downloads); generated images are named from their prompt. */
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Oldest first; the last is the current one. */
  versions: z.array(imageVersionSchema),
});
export type Image = z.infer<typeof imageSchema>;

/** A generation's answer: the images made (fewer than asked when the provider refused some; never none). */
export const imageGenerationSchema = z.object({
  images: z.array(imageSchema),
  /** Images asked for that the provider did not make (not charged). */
  missing: z.number().int(),
});

/** An edit's answer: the image with its new version last. */
export const imageEditSchema = z.object({ image: imageSchema, version: imageVersionSchema });

export const imagesQuerySchema = z
  .object({
    /** The `nextCursor` of the previous page. */
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(IMAGES_PAGE_SIZE).default(IMAGES_PAGE_SIZE),
  })
  .strict();

/** The history, newest first; each image with its versions. */
export const imagesPageSchema = z.object({ images: z.array(imageSchema), nextCursor: z.string().nullable() });

export const imageIdParamsSchema = z.object({ id: z.uuid() }).strict();

/** `GET /api/images/file/:versionId`: `thumb` a small preview (WebP), `download` an attachment with its name. */
export const imageFileQuerySchema = z
  .object({
    size: z.enum(['full', 'thumb']).default('full'),
    download: z.enum(['0', '1']).default('0'),
  })
  .strict();
