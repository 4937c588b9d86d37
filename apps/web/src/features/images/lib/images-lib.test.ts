import { describe, expect, it, vi } from 'vitest';
import {
  fileOf,
  foxWithVersions,
  GIF_BYTES,
  IDS,
  JPEG_BYTES,
  makeImage,
  makeVersion,
  PNG_BYTES,
} from '../test-fixtures';
import { downloadName } from './download';
import { checkImageFile, UPLOAD_MAX_BYTES } from './file-checks';
import { brushRadius, exportMask, toImagePoint, type MaskCanvas } from './mask';
import { canRedo, canUndo, currentVersion, initialPointer, redo, select, undo } from './versions';

describe('files the editor takes (spec §5)', () => {
  it('takes PNG and JPEG by their bytes, whatever the name says', async () => {
    expect(await checkImageFile(fileOf(PNG_BYTES, 'fox.png', 'image/png'))).toEqual({
      ok: true,
      mediaType: 'image/png',
    });
    expect(await checkImageFile(fileOf(JPEG_BYTES, 'photo', ''))).toEqual({ ok: true, mediaType: 'image/jpeg' });
  });

  it('another image kind is "only PNG and JPEG"; something that is no image is "drop a valid image"', async () => {
    expect(await checkImageFile(fileOf(GIF_BYTES, 'cat.gif', 'image/gif'))).toEqual({
      ok: false,
      problem: 'formatUnsupported',
    });
    // An SVG or an HTML page named .png: the name says image, the bytes say otherwise.
    expect(await checkImageFile(fileOf('<svg xmlns="http://www.w3.org/2000/svg"/>', 'x.png', 'image/png'))).toEqual({
      ok: false,
      problem: 'formatUnsupported',
    });
    expect(await checkImageFile(fileOf('hello', 'notes.txt', 'text/plain'))).toEqual({
      ok: false,
      problem: 'notImage',
    });
    expect(await checkImageFile(undefined)).toEqual({ ok: false, problem: 'notImage' });
    expect(await checkImageFile(fileOf([], 'empty.png', 'image/png'))).toEqual({ ok: false, problem: 'empty' });
    // Picked with the file dialog (which offered PNG and JPEG), a text file is told what the editor takes: nothing
    // was dropped.
    expect(await checkImageFile(fileOf('hello', 'notes.txt', 'text/plain'), 'picked')).toEqual({
      ok: false,
      problem: 'formatUnsupported',
    });
  });

  it('refuses a file over the upload limit before sending it', async () => {
    const big = fileOf(PNG_BYTES, 'big.png', 'image/png');
    Object.defineProperty(big, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    expect(await checkImageFile(big)).toEqual({ ok: false, problem: 'tooLarge' });
  });
});

describe('undo, redo and branches among versions', () => {
  // 1 ← 2 ← 3, and 1 ← 4 (version 1 edited again).
  const versions = foxWithVersions().versions;

  it('starts on the newest version; undo goes to its parent, not to the one made before it', () => {
    const start = initialPointer(versions);
    expect(currentVersion(versions, start)?.id).toBe(IDS.v4);
    const back = undo(versions, start);
    expect(back.current).toBe(IDS.v1);
    expect(canUndo(versions, back)).toBe(false);
    expect(undo(versions, back)).toBe(back);
  });

  it('redo comes back down the way undo went, then stops', () => {
    let p = select(IDS.v3);
    p = undo(versions, p);
    p = undo(versions, p);
    expect(p.current).toBe(IDS.v1);
    p = redo(versions, p);
    // Back to 2 (where undo came from), not to 4 (the newest child of 1).
    expect(p.current).toBe(IDS.v2);
    p = redo(versions, p);
    expect(p.current).toBe(IDS.v3);
    expect(canRedo(versions, p)).toBe(false);
    expect(redo(versions, p)).toBe(p);
  });

  it('without a way back, redo goes to the newest version made from the current one', () => {
    const p = redo(versions, select(IDS.v1));
    expect(p.current).toBe(IDS.v4);
    expect(p.redo).toEqual([]);
  });

  it('a pointer to a version that is gone shows the newest', () => {
    expect(currentVersion(versions, select('gone'))?.id).toBe(IDS.v4);
    expect(currentVersion([], select('gone'))).toBeUndefined();
  });
});

describe('the mask', () => {
  it('maps a pointer on the shown image to the image’s own pixels, inside the image', () => {
    const box = { left: 100, top: 50, width: 512, height: 384 };
    const image = { width: 1024, height: 768 };
    expect(toImagePoint({ clientX: 356, clientY: 242 }, box, image)).toEqual({ x: 512, y: 384 });
    expect(toImagePoint({ clientX: 0, clientY: 9999 }, box, image)).toEqual({ x: 0, y: 768 });
    // A 20 px brush on an image shown at half its size is 40 image pixels.
    expect(brushRadius(20, 512, 1024)).toBe(40);
  });

  it('exports white strokes on black at the image’s size, as a PNG; nothing painted is no mask', async () => {
    const calls: unknown[][] = [];
    const ctx = new Proxy(
      {},
      {
        get: (_t, name: string) =>
          ['fillRect', 'beginPath', 'moveTo', 'lineTo', 'stroke', 'arc', 'fill', 'clearRect'].includes(name)
            ? (...args: unknown[]) => calls.push([name, ...args])
            : undefined,
        set: (_t, name: string, value) => {
          calls.push([`${name}=`, value]);
          return true;
        },
      },
    );
    const png = new Blob(['png'], { type: 'image/png' });
    const canvas: MaskCanvas = {
      width: 0,
      height: 0,
      getContext: () => ctx as never,
      toBlob: vi.fn((done: (blob: Blob | null) => void, type?: string) => done(type === 'image/png' ? png : null)),
    };
    const strokes = [
      {
        points: [
          { x: 10, y: 20 },
          { x: 30, y: 40 },
        ],
        radius: 8,
      },
      { points: [{ x: 5, y: 5 }], radius: 3 },
    ];
    await expect(exportMask(strokes, { width: 1024, height: 768 }, () => canvas)).resolves.toBe(png);
    expect([canvas.width, canvas.height]).toEqual([1024, 768]);
    expect(calls).toEqual([
      ['fillStyle=', '#000000'],
      ['fillRect', 0, 0, 1024, 768],
      ['strokeStyle=', '#ffffff'],
      ['fillStyle=', '#ffffff'],
      ['lineCap=', 'round'],
      ['lineJoin=', 'round'],
      ['lineWidth=', 16],
      ['beginPath'],
      ['moveTo', 10, 20],
      ['lineTo', 30, 40],
      ['stroke'],
      ['lineWidth=', 6],
      ['beginPath'],
      ['arc', 5, 5, 3, 0, Math.PI * 2],
      ['fill'],
    ]);
    await expect(exportMask([], { width: 10, height: 10 }, () => canvas)).resolves.toBeNull();
  });
});

describe('download names', () => {
  it('the image’s name, cleaned, with the version’s number after the first and the right extension', () => {
    const fox = foxWithVersions();
    expect(downloadName(fox, fox.versions[0]!)).toBe('A-red-fox-asleep-in-the-snow.png');
    expect(downloadName(fox, fox.versions[2]!)).toBe('A-red-fox-asleep-in-the-snow-3.png');
    const upload = makeImage({
      name: 'holiday: "beach"/day?.JPG',
      versions: [makeVersion({ mediaType: 'image/jpeg' })],
    });
    expect(downloadName(upload, upload.versions[0]!)).toBe('holiday-beach-day.jpg');
    expect(downloadName(upload, upload.versions[0]!, 'image/png')).toBe('holiday-beach-day.png');
    expect(downloadName(makeImage({ name: '...' }), makeVersion())).toBe('image.png');
  });
});
