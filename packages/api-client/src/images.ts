import type { Image, ImageEditFields, ImageGenerationFields, ImageVersion } from '@parley/contract';
import { STREAM_PATHS } from '@parley/contract/values';
import type { ApiClient } from './client.js';

// Image generation and editing: multipart in, JSON out, and the bytes of a version (spec §1, §7 imageGeneration and
// imageEdit). A module of its own (`@parley/api-client/images`) like streams.ts, so that only the image pages and the
// extension's "Edit with Parley" load it.

/** Multipart field values: the fields first (the server reads them before the files), `undefined` left out. */
function formOf(fields: Record<string, string | number | undefined>, files: Record<string, Blob | undefined>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, String(value));
  for (const [name, file] of Object.entries(files)) {
    if (file) form.append(name, file, file instanceof File && file.name ? file.name : `${name}.png`);
  }
  return form;
}

function dataOf<T>(body: { data?: unknown } | null): T {
  return body?.data as T;
}

export type ImageGenerationResult = { images: Image[]; missing: number };
export type ImageEditResult = { image: Image; version: ImageVersion };
export type ImageEditFiles = {
  /** The image to edit when it is not yet one of the person's (it becomes a new image first). */
  image?: Blob;
  /** changeBackground: the picture to put behind the subject. */
  background?: Blob;
  /** reEdit: white where to change, black elsewhere, the image's size. */
  mask?: Blob;
};

/** Images from a prompt (1–4), with an optional `reference` image the model should follow. */
export async function generateImages(
  client: ApiClient,
  fields: ImageGenerationFields,
  reference?: Blob,
  signal?: AbortSignal,
): Promise<ImageGenerationResult> {
  const form = formOf(
    {
      prompt: fields.prompt,
      model: fields.model,
      aspectRatio: fields.aspectRatio,
      // The schema coerces the count (multipart fields are text), so its input type is `unknown`.
      count: fields.count as number | undefined,
    },
    { reference },
  );
  const { body } = await client.send(STREAM_PATHS.imageGeneration, { method: 'POST', body: form, signal });
  const data = dataOf<Partial<ImageGenerationResult> | undefined>(body);
  return { images: data?.images ?? [], missing: typeof data?.missing === 'number' ? data.missing : 0 };
}

/** One edit of a version (or of an `image` file): answers the image with the new version last. */
export async function editImage(
  client: ApiClient,
  fields: ImageEditFields,
  files: ImageEditFiles = {},
  signal?: AbortSignal,
): Promise<ImageEditResult> {
  const form = formOf(
    {
      operation: fields.operation,
      imageId: fields.imageId,
      versionId: fields.versionId,
      prompt: fields.prompt,
      colour: fields.colour,
      model: fields.model,
    },
    { image: files.image, background: files.background, mask: files.mask },
  );
  const { body } = await client.send(STREAM_PATHS.imageEdit, { method: 'POST', body: form, signal });
  return dataOf<ImageEditResult>(body);
}

/** A PNG or JPEG kept as a new image (the editor's upload, the extension's "Edit with Parley"). */
export async function uploadImage(
  client: ApiClient,
  image: Blob,
  fileName: string,
  signal?: AbortSignal,
): Promise<{ image: Image }> {
  const form = new FormData();
  form.append('image', image, fileName);
  const { body } = await client.send(STREAM_PATHS.imageUpload, { method: 'POST', body: form, signal });
  return dataOf<{ image: Image }>(body);
}

export type ImageFileOptions = { size?: 'full' | 'thumb'; download?: boolean; signal?: AbortSignal };

/** A version's bytes: the route needs the bearer header, so an <img src> cannot load it (make an object URL). */
export async function imageFileBytes(
  client: ApiClient,
  versionId: string,
  { size = 'full', download = false, signal }: ImageFileOptions = {},
): Promise<Blob> {
  const path = STREAM_PATHS.imageFile.replace(':versionId', encodeURIComponent(versionId).replace(/\./g, '%2E'));
  const query = new URLSearchParams({ size, download: download ? '1' : '0' });
  const { response, text } = await client.send(`${path}?${query}`, {
    method: 'GET',
    headers: { accept: 'image/*' },
    signal,
  });
  return text === null ? response.blob() : new Blob([text], { type: response.headers.get('content-type') ?? '' });
}
