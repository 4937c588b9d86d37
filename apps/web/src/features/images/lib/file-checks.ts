import { IMAGE_UPLOAD_MAX_MB } from '@parley/contract/values';

/**
 * What the editor takes before anything is uploaded (spec §5): PNG or JPEG, within the upload limit. The bytes decide,
 * not the name or the type the browser guessed; the server decodes them again.
 */
export type ImageFileProblem =
  /** 'Please drop a valid image file.' — a dropped file that is no image at all (or a drop of no file). */
  | 'notImage'
  /**
   * 'only png and jpeg are supported in the image editor' — an image of another kind (GIF, WebP, SVG…), or a picked
   * file that is no image: the picker offered only PNG and JPEG, and this says what it takes.
   */
  | 'formatUnsupported'
  | 'empty'
  | 'tooLarge';

export type ImageFileCheck =
  { ok: true; mediaType: 'image/png' | 'image/jpeg' } | { ok: false; problem: ImageFileProblem };

/** The message of a refused file, in the `images` namespace. */
export const fileProblemKey = (problem: ImageFileProblem) => `files.${problem}` as const;

const MB = 1024 * 1024;
export const UPLOAD_MAX_BYTES = IMAGE_UPLOAD_MAX_MB * MB;
/** The file pickers' `accept`. */
export const ACCEPT_IMAGES = 'image/png,image/jpeg,.png,.jpg,.jpeg';

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|svg|avif|bmp|tiff?|heic|heif|ico)$/i;

/** PNG or JPEG by their signatures; null for anything else. */
export function sniffImageType(head: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const starts = (...sig: number[]) => sig.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return null;
}

/** Whether the browser's type or the name says "some image" (for the message when it is not PNG or JPEG). */
const looksLikeImage = (file: Pick<File, 'name' | 'type'>) =>
  file.type.toLowerCase().startsWith('image/') || IMAGE_EXTENSIONS.test(file.name);

async function headOf(file: Blob): Promise<Uint8Array> {
  const slice = file.slice(0, 16);
  // jsdom's Blob has no arrayBuffer() in older versions; FileReader works everywhere.
  if (typeof slice.arrayBuffer === 'function') return new Uint8Array(await slice.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(slice);
  });
}

/** Checks one dropped or picked file; `undefined` (a drop with no file: a link, some text) is no image. */
export async function checkImageFile(
  file: File | undefined,
  how: 'dropped' | 'picked' = 'dropped',
): Promise<ImageFileCheck> {
  const notImage = how === 'picked' ? 'formatUnsupported' : 'notImage';
  if (!file) return { ok: false, problem: notImage };
  if (file.size === 0) return { ok: false, problem: looksLikeImage(file) ? 'empty' : notImage };
  const mediaType = sniffImageType(await headOf(file));
  if (!mediaType) return { ok: false, problem: looksLikeImage(file) ? 'formatUnsupported' : notImage };
  if (file.size > UPLOAD_MAX_BYTES) return { ok: false, problem: 'tooLarge' };
  return { ok: true, mediaType };
}

/** The drop's file, if it brought any (an image dragged from another page arrives as a link). */
export function droppedFile(dataTransfer: Pick<DataTransfer, 'files'> | null): File | undefined {
  return dataTransfer?.files?.[0] ?? undefined;
}
