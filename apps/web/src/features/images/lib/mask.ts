/**
 * The re-edit mask: strokes painted over the image, kept in the image's own pixels (whatever size it is shown at), and
 * turned into the PNG the API takes: white where the model may change the image, black elsewhere, the image's size.
 */
export type Point = { x: number; y: number };
export type Stroke = { points: Point[]; /** In image pixels. */ radius: number };

/** Where a pointer at (clientX, clientY) falls in the image, given the box the image is drawn in. */
export function toImagePoint(
  client: { clientX: number; clientY: number },
  box: Pick<DOMRect, 'left' | 'top' | 'width' | 'height'>,
  image: { width: number; height: number },
): Point {
  const x = ((client.clientX - box.left) / (box.width || 1)) * image.width;
  const y = ((client.clientY - box.top) / (box.height || 1)) * image.height;
  return { x: Math.min(Math.max(x, 0), image.width), y: Math.min(Math.max(y, 0), image.height) };
}

/** A brush size chosen on screen (CSS pixels) in image pixels. */
export const brushRadius = (screenRadius: number, shownWidth: number, imageWidth: number) =>
  Math.max(1, (screenRadius * imageWidth) / (shownWidth || imageWidth || 1));

type Context2D = Pick<
  CanvasRenderingContext2D,
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'lineCap'
  | 'lineJoin'
  | 'fillRect'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'stroke'
  | 'arc'
  | 'fill'
  | 'clearRect'
>;

/** Draws the strokes in one colour (the on-screen overlay and the exported mask share this). */
export function drawStrokes(ctx: Context2D, strokes: readonly Stroke[], colour: string): void {
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const stroke of strokes) {
    const [first, ...rest] = stroke.points;
    if (!first) continue;
    ctx.lineWidth = stroke.radius * 2;
    if (rest.length === 0) {
      // A single click paints a dot.
      ctx.beginPath();
      ctx.arc(first.x, first.y, stroke.radius, 0, Math.PI * 2);
      ctx.fill();
      continue;
    }
    ctx.beginPath();
    ctx.moveTo(first.x, first.y);
    for (const p of rest) ctx.lineTo(p.x, p.y);
    ctx.stroke();
  }
}

export type MaskCanvas = {
  width: number;
  height: number;
  getContext(kind: '2d'): Context2D | null;
  toBlob(callback: (blob: Blob | null) => void, type?: string): void;
};

const newCanvas = (): MaskCanvas => document.createElement('canvas') as unknown as MaskCanvas;

/** The mask as a PNG (white strokes on black, the image's size); null when nothing is painted. */
export function exportMask(
  strokes: readonly Stroke[],
  size: { width: number; height: number },
  createCanvas: () => MaskCanvas = newCanvas,
): Promise<Blob | null> {
  if (!strokes.some((s) => s.points.length > 0)) return Promise.resolve(null);
  const canvas = createCanvas();
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no 2d context'));
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, size.width, size.height);
  drawStrokes(ctx, strokes, '#ffffff');
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('mask not encoded'))), 'image/png'),
  );
}
