import { ATTACHMENT_LIMITS } from '@parley/contract/values';
import { blobToDataUrl } from '../../platform/messaging/data-url';
import type { AttachedFile } from '../../platform/messaging/protocol';

/** A file attached to the next question: images (screenshots, regions, page images) and PDFs. */
export type CaptureFile = AttachedFile;

export type CaptureError = 'tooLarge' | 'notImage' | 'notPdf';

/** The image formats the API recognises (by their bytes), as it does. */
export function imageTypeOf(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  )
    return 'image/webp';
  return null;
}

export function isPdfBytes(bytes: Uint8Array): boolean {
  // '%PDF-' within the first KiB, as PDF readers accept.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

let counter = 0;
const newId = () => `f${Date.now().toString(36)}${(counter += 1)}`;

/**
 * An image ready to attach: one of the formats the API takes, within its size limit. Anything else the browser can
 * decode (SVG, AVIF, BMP…) and anything too large is re-encoded (PNG, else JPEG at falling quality and size).
 */
export async function imageFile(blob: Blob, name: string): Promise<CaptureFile | 'tooLarge' | 'notImage'> {
  const limit = ATTACHMENT_LIMITS.imageMaxBytes;
  let type = imageTypeOf(new Uint8Array(await blob.slice(0, 16).arrayBuffer()));
  let out = blob;
  if (!type || blob.size > limit) {
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(blob);
    } catch {
      return 'notImage';
    }
    try {
      out = await encode(bitmap, 1, 'image/png');
      type = 'image/png';
      for (const [scale, quality] of [
        [1, 0.9],
        [1, 0.75],
        [0.75, 0.75],
        [0.5, 0.7],
      ] as const) {
        if (out.size <= limit) break;
        out = await encode(bitmap, scale, 'image/jpeg', quality);
        type = 'image/jpeg';
      }
    } finally {
      bitmap.close();
    }
    if (out.size > limit) return 'tooLarge';
  }
  const typed = out.type === type ? out : new Blob([out], { type });
  const ext = type.split('/')[1] === 'jpeg' ? 'jpg' : type.split('/')[1]!;
  return {
    id: newId(),
    kind: 'image',
    name: /\.[a-z0-9]{2,4}$/i.test(name) && !name.endsWith('.svg') ? name : `${name}.${ext}`,
    mediaType: type,
    size: typed.size,
    dataUrl: await blobToDataUrl(typed),
  };
}

async function encode(bitmap: ImageBitmap, scale: number, type: string, quality?: number): Promise<Blob> {
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  if (type === 'image/jpeg') {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
  }
  context.drawImage(bitmap, 0, 0, width, height);
  return canvas.convertToBlob({ type, ...(quality !== undefined ? { quality } : {}) });
}

export async function pdfFile(blob: Blob, name: string): Promise<CaptureFile | 'tooLarge' | 'notPdf'> {
  if (blob.size > ATTACHMENT_LIMITS.pdfMaxBytes) return 'tooLarge';
  if (!isPdfBytes(new Uint8Array(await blob.slice(0, 1024).arrayBuffer()))) return 'notPdf';
  const typed = new Blob([blob], { type: 'application/pdf' });
  return {
    id: newId(),
    kind: 'pdf',
    name: /\.pdf$/i.test(name) ? name : `${name || 'document'}.pdf`,
    mediaType: 'application/pdf',
    size: typed.size,
    dataUrl: await blobToDataUrl(typed),
  };
}

export const isCaptureError = (value: CaptureFile | CaptureError): value is CaptureError => typeof value === 'string';
