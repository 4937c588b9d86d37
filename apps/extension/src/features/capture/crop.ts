/** A rectangle in some pixel space (CSS pixels of the viewport, or pixels of a captured bitmap). */
export type Rect = { x: number; y: number; width: number; height: number };
export type Size = { width: number; height: number };

/** Regions smaller than this (in CSS pixels, either side) are taken for a click, not a drag. */
export const MIN_REGION = 4;

/** The rectangle between two drag points, whichever way the person dragged. */
export function rectFromDrag(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(a.x - b.x),
    height: Math.abs(a.y - b.y),
  };
}

/**
 * Maps a rectangle in the viewport's CSS pixels onto the captured bitmap of that viewport. captureVisibleTab returns
 * device pixels (CSS pixels × devicePixelRatio, page zoom included), so the scale is measured from the bitmap and the
 * viewport when both are known, and falls back to the page's devicePixelRatio. The result is whole pixels, clamped to
 * the bitmap; null when nothing of it is inside.
 *
 * Device pixels are square: one scale serves both sides. The tab can show less of the page than the page's viewport
 * (a viewport set larger than the tab, as device emulation does, once a side panel has opened and closed beside it:
 * the page still lays out at 800 px high while the capture is the 713 px the tab shows). The bitmap is then the
 * viewport's top left at the same scale, cut on one side, never stretched: the side that was not cut gives the larger
 * ratio, and the true one.
 */
export function toBitmapRect(rect: Rect, bitmap: Size, viewport: Size | null, devicePixelRatio: number): Rect | null {
  const ratio = Number.isFinite(devicePixelRatio) && devicePixelRatio > 0 ? devicePixelRatio : 1;
  const measured =
    viewport && viewport.width > 0 && viewport.height > 0
      ? Math.max(bitmap.width / viewport.width, bitmap.height / viewport.height)
      : 0;
  const scale = Number.isFinite(measured) && measured > 0 ? measured : ratio;
  const left = Math.max(0, Math.floor(rect.x * scale));
  const top = Math.max(0, Math.floor(rect.y * scale));
  const right = Math.min(bitmap.width, Math.ceil((rect.x + rect.width) * scale));
  const bottom = Math.min(bitmap.height, Math.ceil((rect.y + rect.height) * scale));
  if (right - left < 1 || bottom - top < 1) return null;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Cuts `rect` (bitmap pixels) out of an image and encodes it as PNG. Works in pages and in the service worker. */
export async function cropImage(image: Blob, rect: Rect): Promise<Blob> {
  const bitmap = await createImageBitmap(image, rect.x, rect.y, rect.width, rect.height);
  try {
    const canvas = new OffscreenCanvas(rect.width, rect.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0);
    return await canvas.convertToBlob({ type: 'image/png' });
  } finally {
    bitmap.close();
  }
}

/** The size of an encoded image. */
export async function imageSize(image: Blob): Promise<Size> {
  const bitmap = await createImageBitmap(image);
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}
