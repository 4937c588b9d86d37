import type { Image, ImageVersion } from '@parley/contract';

const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg' } as const;

/**
 * A download's name: the image's name (an upload's file name, or the words of its prompt) without its extension,
 * cleaned for every file system, with the version's number after the first ("fox-in-snow-3.png").
 */
export function downloadName(image: Pick<Image, 'name' | 'versions'>, version: ImageVersion, as?: 'image/png'): string {
  const base =
    image.name
      .replace(/\.(png|jpe?g)$/i, '')
      .normalize('NFKC')
      // Characters no file system takes, control characters, and runs of spaces.
      // eslint-disable-next-line no-control-regex
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 80)
      .replace(/[-.]+$/g, '') || 'image';
  const index = image.versions.findIndex((v) => v.id === version.id);
  const suffix = index > 0 ? `-${index + 1}` : '';
  return `${base}${suffix}.${EXTENSIONS[as ?? version.mediaType]}`;
}

export { saveBlob } from '../../../lib/save-blob';

/** A JPEG as a PNG (the editor downloads PNG), drawn by the browser; a PNG is returned as it is. */
export async function asPng(blob: Blob): Promise<Blob> {
  if (blob.type === 'image/png') return blob;
  const bitmap = await createImageBitmap(blob);
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((png) => (png ? resolve(png) : reject(new Error('not encoded'))), 'image/png'),
    );
  } finally {
    bitmap.close();
  }
}
