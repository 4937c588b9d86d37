import { useEffect, useRef, type PointerEvent } from 'react';
import { brushRadius, drawStrokes, toImagePoint, type Stroke } from '../lib/mask';

/**
 * The brush: a canvas over the shown image, in the image's own pixels, on which the person paints where the model may
 * change it. Strokes live with the editor (`strokes`), so they survive a re-render and are exported from there.
 */
export function MaskCanvas({
  width,
  height,
  strokes,
  onStrokes,
  screenRadius,
  label,
}: {
  width: number;
  height: number;
  strokes: readonly Stroke[];
  onStrokes: (strokes: Stroke[]) => void;
  /** The brush's radius on screen, in CSS pixels. */
  screenRadius: number;
  label: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<Stroke | null>(null);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, width, height);
    // Opaque here, see-through by the canvas's opacity: overlapping strokes do not get darker.
    drawStrokes(ctx, strokes, '#ef4444');
  }, [strokes, width, height]);

  const point = (event: PointerEvent<HTMLCanvasElement>) =>
    toImagePoint(event, event.currentTarget.getBoundingClientRect(), { width, height });

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const box = event.currentTarget.getBoundingClientRect();
    drawing.current = { points: [point(event)], radius: brushRadius(screenRadius, box.width, width) };
    onStrokes([...strokes, drawing.current]);
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = drawing.current;
    if (!stroke) return;
    const next = { ...stroke, points: [...stroke.points, point(event)] };
    drawing.current = next;
    onStrokes([...strokes.slice(0, -1), next]);
  };
  const onPointerUp = () => {
    drawing.current = null;
  };

  return (
    <canvas
      ref={canvas}
      width={width}
      height={height}
      role="img"
      aria-label={label}
      className="absolute inset-0 h-full w-full cursor-crosshair touch-none opacity-55"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="mask-canvas"
    />
  );
}
