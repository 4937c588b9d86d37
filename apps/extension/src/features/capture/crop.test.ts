import { describe, expect, it } from 'vitest';
import { rectFromDrag, toBitmapRect } from './crop';

describe('rectFromDrag', () => {
  it('gives the same rectangle whichever corner the drag started from', () => {
    const expected = { x: 10, y: 20, width: 90, height: 40 };
    expect(rectFromDrag({ x: 10, y: 20 }, { x: 100, y: 60 })).toEqual(expected);
    expect(rectFromDrag({ x: 100, y: 60 }, { x: 10, y: 20 })).toEqual(expected);
    expect(rectFromDrag({ x: 10, y: 60 }, { x: 100, y: 20 })).toEqual(expected);
  });
});

describe('toBitmapRect', () => {
  it('is the identity at a device pixel ratio of 1', () => {
    const rect = { x: 10, y: 20, width: 300, height: 200 };
    expect(toBitmapRect(rect, { width: 1200, height: 800 }, { width: 1200, height: 800 }, 1)).toEqual(rect);
  });

  it('scales CSS pixels to device pixels on a high-density screen', () => {
    expect(
      toBitmapRect(
        { x: 10, y: 20, width: 300, height: 200 },
        { width: 2400, height: 1600 },
        { width: 1200, height: 800 },
        2,
      ),
    ).toEqual({ x: 20, y: 40, width: 600, height: 400 });
  });

  it('measures the scale from the bitmap when page zoom makes it differ from devicePixelRatio', () => {
    // A 1.5 ratio reported, but the capture is 1.25× the viewport.
    expect(
      toBitmapRect(
        { x: 100, y: 100, width: 100, height: 100 },
        { width: 1500, height: 1000 },
        { width: 1200, height: 800 },
        1.5,
      ),
    ).toEqual({ x: 125, y: 125, width: 125, height: 125 });
  });

  it('keeps one scale for both sides when the capture shows less of the viewport than the page lays out', () => {
    // Just after the side panel closed: the page is 1200 × 800, the tab shows its top 713 px.
    const block = { x: 40, y: 120, width: 300, height: 200 };
    expect(toBitmapRect(block, { width: 1200, height: 713 }, { width: 1200, height: 800 }, 1)).toEqual(block);
    expect(toBitmapRect(block, { width: 2400, height: 1426 }, { width: 1200, height: 800 }, 2)).toEqual({
      x: 80,
      y: 240,
      width: 600,
      height: 400,
    });
    // Cut at the side instead, and reaching past the cut: clamped, not squeezed.
    expect(
      toBitmapRect(
        { x: 900, y: 100, width: 200, height: 50 },
        { width: 1000, height: 800 },
        { width: 1200, height: 800 },
        1,
      ),
    ).toEqual({ x: 900, y: 100, width: 100, height: 50 });
  });

  it('falls back to devicePixelRatio without a viewport size, and covers fractional edges', () => {
    expect(
      toBitmapRect({ x: 10.4, y: 0.5, width: 20.2, height: 10 }, { width: 3000, height: 2000 }, null, 1.5),
    ).toEqual({
      x: 15,
      y: 0,
      width: 31,
      height: 16,
    });
  });

  it('clamps to the bitmap and gives null for a rectangle outside it', () => {
    expect(toBitmapRect({ x: -50, y: 700, width: 200, height: 300 }, { width: 1200, height: 800 }, null, 1)).toEqual({
      x: 0,
      y: 700,
      width: 150,
      height: 100,
    });
    expect(toBitmapRect({ x: 1300, y: 10, width: 50, height: 50 }, { width: 1200, height: 800 }, null, 1)).toBeNull();
    expect(toBitmapRect({ x: 10, y: 10, width: 0, height: 50 }, { width: 1200, height: 800 }, null, 1)).toBeNull();
  });

  it('ignores a nonsensical devicePixelRatio', () => {
    expect(toBitmapRect({ x: 1, y: 2, width: 3, height: 4 }, { width: 100, height: 100 }, null, 0)).toEqual({
      x: 1,
      y: 2,
      width: 3,
      height: 4,
    });
  });
});
