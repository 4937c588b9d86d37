import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { buildPdf } from '../../apps/api/src/modules/documents/test-fixtures.js';

/** A solid-colour PNG of that size (RGB, one deflated scanline per row). */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Colours the capture tests look for in what was attached. */
export const CAPTURE_COLOURS = {
  swatch: [234, 88, 12] as [number, number, number],
  guarded: [13, 148, 136] as [number, number, number],
  block: [220, 38, 38] as [number, number, number],
};

/** Page layout the capture tests rely on (CSS pixels from the viewport's top left, at scroll 0). */
export const CAPTURE_LAYOUT = {
  block: { x: 40, y: 120, width: 300, height: 200 },
  guarded: { x: 400, y: 120, width: 120, height: 80 },
};

const inline = `data:image/png;base64,${solidPng(24, 16, CAPTURE_COLOURS.swatch).toString('base64')}`;

const PAGE = `<!doctype html><html><head><title>Harbour photos</title>
<style>
  body { margin: 0; font: 16px sans-serif; background: #fff; }
  h1 { position: absolute; left: 40px; top: 20px; margin: 0; }
  #block { position: absolute; left: ${CAPTURE_LAYOUT.block.x}px; top: ${CAPTURE_LAYOUT.block.y}px;
    width: ${CAPTURE_LAYOUT.block.width}px; height: ${CAPTURE_LAYOUT.block.height}px;
    background: rgb(${CAPTURE_COLOURS.block.join(',')}); }
  #guarded { position: absolute; left: ${CAPTURE_LAYOUT.guarded.x}px; top: ${CAPTURE_LAYOUT.guarded.y}px; }
  #swatch { position: absolute; left: 600px; top: 120px; }
  #inline { position: absolute; left: 600px; top: 300px; }
</style></head><body>
  <h1>Harbour photos</h1>
  <div id="block"></div>
  <img id="guarded" src="/capture/guarded.png" width="${CAPTURE_LAYOUT.guarded.width}" height="${CAPTURE_LAYOUT.guarded.height}" alt="Guarded">
  <img id="swatch" src="/capture/swatch.png" width="160" height="100" alt="Swatch">
  <img id="inline" src="${inline}" width="24" height="16" alt="Inline">
</body></html>`;

export const PDF_PAGES = [
  ['Tidal energy report', 'The estuary turbines produced 41 megawatt hours in March.'],
  ['Maintenance schedule', 'Divers inspect the turbine blades every second spring tide.'],
];

/**
 * The capture tests' pages on the "other site": a page with an image fetched freely, one refused to anything but an
 * <img> of the page (as hotlink protection does), one inline data: image, a coloured block to select; and a PDF at a
 * .pdf address and at one without the extension (recognised by the viewer's content type). Returns whether it answered.
 */
export function serveCaptureFixture(req: IncomingMessage, res: ServerResponse): boolean {
  const pathname = new URL(req.url ?? '/', 'http://x').pathname;
  const send = (type: string, body: string | Buffer, status = 200) => {
    res.statusCode = status;
    res.setHeader('content-type', type);
    res.end(body);
    return true;
  };
  switch (pathname) {
    case '/capture/page':
      return send('text/html; charset=utf-8', PAGE);
    case '/capture/swatch.png':
      return send('image/png', solidPng(160, 100, CAPTURE_COLOURS.swatch));
    case '/capture/guarded.png':
      if (req.headers['sec-fetch-dest'] !== 'image') return send('text/plain', 'hotlinking refused', 403);
      return send(
        'image/png',
        solidPng(CAPTURE_LAYOUT.guarded.width, CAPTURE_LAYOUT.guarded.height, CAPTURE_COLOURS.guarded),
      );
    case '/capture/report.pdf':
    case '/capture/download':
      return send('application/pdf', Buffer.from(buildPdf(PDF_PAGES, { title: 'Tidal energy report' })));
    default:
      return false;
  }
}
