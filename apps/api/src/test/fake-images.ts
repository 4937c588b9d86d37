import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { cliArg, cliPort } from './cli.js';

/**
 * The image providers on loopback, each speaking its own protocol as the AI SDK's provider packages call it:
 * - OpenAI's images API under /openai/v1 (generations as JSON, edits as multipart; b64_json answers; DALL·E 3's and
 *   GPT Image's sizes, and their refusals: content_policy_violation, moderation_blocked);
 * - an OpenAI-compatible images server (a local Stable Diffusion) under /sd/v1, without a key, any size up to `maxSide`;
 * - Black Forest Labs under /bfl/v1 (submit with x-key, then polling_url until Ready; the result's `sample` is on the
 *   delivery host; "Request Moderated" and "Content Moderated");
 * - fal under /fal/<model> (synchronous; images by URL on the delivery host; has_nsfw_concepts with a black image;
 *   fal-ai/birefnet answers the subject on transparency);
 * - Replicate under /replicate/v1 (predictions with `Prefer: wait`, or unfinished and polled at urls.get; WebP
 *   outputs by default; the NSFW filter drops flagged outputs and fails the prediction when all are flagged).
 * Results are real images drawn with sharp at the size asked: a background colour from a hash of the prompt, a shape
 * in a contrasting colour, and drawn text when the prompt asks for text. Edits visibly change the image they are
 * given (tinted, the background recoloured, or the masked area filled). Results are downloaded from a second server
 * (another port, so another origin: a CDN), which records whether a key was sent to it.
 *
 * Words in the prompt misbehave on purpose: `refuse-me` gets that provider's refusal, `refuse-one` refuses one image of
 * several, `refuse-me-output` (Black Forest Labs) a moderated result, `fail-me` a 500, `poll-me` (Replicate) an
 * unfinished prediction to poll. `delayMs` delays every answer. Every request is recorded (`requests`).
 * For hostile providers: `resultBytes` makes every image answered those bytes (an SVG, a TIFF…), `resultUrl` lists
 * results at another URL (GET /stream?bytes=N[&length=1] on the delivery host streams N bytes), and
 * `oversizedAnswers` makes every provider answer a JSON document of that many bytes; `streamedBytes` counts what the
 * streams managed to write.
 * For benchmarks, `photo` draws pictures that compress like photographs, `size` makes every generated picture one size,
 * and `memo` answers a request it has seen from memory instead of drawing again.
 * By hand: `npm run fake-images [-- --port 4020]`, which prints the environment that points Parley at it.
 */

export type FakeImagesProvider = 'openai' | 'compatible' | 'bfl' | 'fal' | 'replicate' | 'delivery';

export type FakeImagesFile = { name: string; type: string; size: number; width?: number; height?: number };

export type FakeImagesRequest = {
  provider: FakeImagesProvider;
  method: string;
  /** Path and query. */
  path: string;
  /** The headers that carry keys and options (lower-case names); absent when not sent. */
  headers: { authorization?: string; 'x-key'?: string; prefer?: string; 'content-type'?: string };
  /** A JSON body as sent; a multipart one as its fields, files summarised (FakeImagesFile). */
  body: Record<string, any> | null;
};

export type FakeImages = {
  /** The providers' origin (http://127.0.0.1:<port>). */
  url: string;
  /** The results' origin (another port). */
  deliveryUrl: string;
  port: number;
  requests: FakeImagesRequest[];
  /** Every provider answer waits this long (settable). */
  delayMs: number;
  /** Settable: every image answered (b64_json, or a file on the delivery host) is these bytes; null: the drawn one. */
  resultBytes: Buffer | null;
  /** Settable: results (fal, Black Forest Labs, Replicate) are listed at this URL instead of their own; null: theirs. */
  resultUrl: string | null;
  /** Settable: every provider answer is a JSON document of `bytes` bytes, streamed (declared or not); null: none. */
  oversizedAnswers: { bytes: number; contentLength: boolean } | null;
  /** Bytes written so far by streamed bodies (oversized answers, GET /stream on the delivery host). */
  streamedBytes: number;
  /** The environment that points every image provider at this server, with its keys. */
  env(): Record<string, string>;
  close(): Promise<void>;
};

export type FakeImagesOptions = {
  port?: number;
  host?: string;
  delayMs?: number;
  /** The OpenAI-compatible server's longest side (larger sizes are refused as OpenAI refuses a size). */
  maxSide?: number;
  /** Pictures as a camera would take them (light across the scene, grain) rather than flat shapes; see drawImage. */
  photo?: boolean;
  /** Every generated picture at this size, whatever size was asked (as a provider that upscales); edits keep theirs. */
  size?: { width: number; height: number };
  /**
   * Pictures, edits and cut-outs remembered by what they were made from (the last MEMO_KEPT): a repeated request is
   * answered without the fake's own drawing time, so that a benchmark measures the caller, not the fake.
   */
  memo?: boolean;
  /**
   * Where OpenAI's other calls under /openai/v1 (chat, transcription, the model list) are passed on: the chat fake
   * (`npm run fake-ai`), so that OpenAI's chat models keep working while OPENAI_BASE_URL points here. None: 404.
   */
  chatUrl?: string;
};

/** The keys env() hands out; the fake accepts any non-empty key and records what it was sent. */
export const FAKE_IMAGE_KEYS = {
  openai: 'sk-fake-images-openai',
  blackForestLabs: 'bfl-fake-images-key',
  fal: 'fal-fake-images-key',
  replicate: 'r8_fake_images_token',
  compatible: 'sd-fake-images-key',
} as const;

const MAX_BODY = 64 * 1024 * 1024;
const MAX_KEPT = 500;
const MEMO_KEPT = 32;
const TEXT_WORDS = /\b(text|texts|sign|signs|word|words|caption|title|says|saying|logo|label|letters?)\b|"[^"]+"/i;

/** FNV-1a: the same prompt always draws the same picture. */
function hash(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function rgbOf(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

const hex = ([r, g, b]: [number, number, number]) =>
  `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** A background colour from the prompt and a shape colour opposite it (hue turned, light against dark). */
export function coloursFor(prompt: string) {
  const h = hash(prompt.trim().toLowerCase());
  const hue = h % 360;
  const dark = (h >> 9) % 2 === 0;
  return {
    background: rgbOf(hue, 0.65, dark ? 0.28 : 0.72),
    shape: rgbOf((hue + 180) % 360, 0.75, dark ? 0.7 : 0.3),
  };
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The picture a prompt draws, as an SVG of the size asked. */
function pictureSvg(prompt: string, width: number, height: number) {
  const { background, shape } = coloursFor(prompt);
  const h = hash(prompt);
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.min(width, height) * 0.28;
  const kind = h % 3;
  const body =
    kind === 0
      ? `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${hex(shape)}"/>`
      : kind === 1
        ? `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" rx="${r / 6}" fill="${hex(shape)}"/>`
        : `<polygon points="${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}" fill="${hex(shape)}"/>`;
  let text = '';
  if (TEXT_WORDS.test(prompt)) {
    const quoted = /"([^"]{1,40})"/.exec(prompt)?.[1] ?? 'PARLEY';
    const size = Math.round(Math.min(width / (quoted.length * 0.7), height / 7));
    text =
      `<text x="${cx}" y="${Math.round(height * 0.9)}" font-family="DejaVu Sans, sans-serif" font-weight="bold" ` +
      `font-size="${size}" text-anchor="middle" fill="${hex(shape)}">${escapeXml(quoted)}</text>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${hex(background)}"/>${body}${text}</svg>`;
}

type Format = 'png' | 'jpeg' | 'webp';
const MEDIA: Record<Format, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

async function encode(image: sharp.Sharp, format: Format) {
  return format === 'png'
    ? image.png().toBuffer()
    : format === 'jpeg'
      ? image.jpeg().toBuffer()
      : image.webp().toBuffer();
}

/** A real image, deterministic from the prompt, at the size asked; with `photo`, as photographed (see photograph). */
export async function drawImage(
  prompt: string,
  width: number,
  height: number,
  format: Format = 'png',
  { photo = false }: { photo?: boolean } = {},
) {
  const picture = sharp(Buffer.from(pictureSvg(prompt, width, height))).flatten();
  return encode(photo ? await photograph(picture, hash(prompt)) : picture, format);
}

/**
 * The picture as a photograph shows it: light falling across the scene, and grain (in lightness and a little in
 * colour) from a generator seeded by the prompt, so still deterministic. Flat colour compresses to almost nothing;
 * this compresses as a photo does (1920 × 1080: a JPEG of about 550 KB at quality 90, a PNG of about 5 MB).
 */
async function photograph(picture: sharp.Sharp, seed: number) {
  const { data, info } = await picture.raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  let state = seed || 1;
  const random = () => {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const grain = 8;
  for (let y = 0, i = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1, i += channels) {
      const light = 0.8 + 0.3 * (x / width) * (1 - 0.5 * (y / height));
      const r = random();
      const lightness = (((r & 255) + ((r >>> 8) & 255)) / 256 - 1) * grain * 2;
      for (let c = 0; c < 3; c += 1) {
        const colour = ((((r >>> (16 + c * 5)) & 31) - 15.5) * grain) / 31;
        const v = data[i + c]! * light + lightness + colour;
        data[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return sharp(data, { raw: { width, height, channels } });
}

/** A black image: what fal returns in place of one its safety checker flagged. */
async function blackImage(width: number, height: number, format: Format) {
  return encode(sharp({ create: { width, height, channels: 3, background: '#000000' } }), format);
}

async function rgba(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const pngOf = (data: Buffer, width: number, height: number) =>
  sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();

const near = (data: Buffer, i: number, [r, g, b]: number[], within: number) =>
  Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) <= within;

/** The background: pixels close to the top-left corner's colour. */
function cornerColour(data: Buffer) {
  return [data[0]!, data[1]!, data[2]!];
}

/**
 * An edit as a model would make it, visibly: with a mask (transparent where to change, OpenAI's way) the masked area
 * is filled with the instruction's colour; "remove the text" clears the bottom band where drawn text sits; an
 * instruction about the background recolours the background; any other tints the whole image towards its colour.
 */
export async function editImage(bytes: Uint8Array, instruction: string, mask?: Uint8Array) {
  const { data, width, height } = await rgba(bytes);
  const colour = coloursFor(instruction).background;
  if (mask) {
    const m = await sharp(mask).ensureAlpha().resize(width, height, { fit: 'fill' }).raw().toBuffer();
    for (let i = 0; i < data.length; i += 4) if (m[i + 3]! < 128) data.set(colour, i);
  } else if (/\b(remove|erase|delete)\b.*\btext\b/i.test(instruction)) {
    // Text is drawn along the bottom (see pictureSvg): that band goes back to the background's colour.
    const corner = cornerColour(data);
    for (let i = Math.floor(height * 0.75) * width * 4; i < data.length; i += 4) data.set(corner, i);
  } else if (/background/i.test(instruction)) {
    const corner = cornerColour(data);
    // A real model paints a new background behind the subject, where the picture was see-through too.
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3]! < 128 || near(data, i, corner, 60)) {
        data.set(colour, i);
        data[i + 3] = 255;
      }
  } else {
    for (let i = 0; i < data.length; i += 4)
      for (let c = 0; c < 3; c += 1) data[i + c] = Math.round(data[i + c]! * 0.55 + colour[c]! * 0.45);
  }
  return pngOf(data, width, height);
}

/** The subject on transparency: pixels close to the corner's colour become transparent. */
export async function removeBackground(bytes: Uint8Array) {
  const { data, width, height } = await rgba(bytes);
  const corner = cornerColour(data);
  for (let i = 0; i < data.length; i += 4) if (near(data, i, corner, 60)) data[i + 3] = 0;
  return pngOf(data, width, height);
}

/**
 * removeBackground for photographs, where light and grain change the background's colour across the picture: a pixel
 * is the subject's when, on a blurred copy, it is nearer the centre's colour than the corner's. The matte is clean,
 * as a real model's is (a speckled one would make every cut-out harder to compress than it is).
 */
async function removeBackgroundSmoothly(bytes: Uint8Array) {
  const blurred = await rgba(await sharp(bytes).blur(3).png({ compressionLevel: 1 }).toBuffer());
  const { data, width, height } = await rgba(bytes);
  const corner = cornerColour(blurred.data);
  const middle = (Math.floor(height / 2) * width + Math.floor(width / 2)) * 4;
  const centre = [...blurred.data.subarray(middle, middle + 3)];
  const distance = (i: number, [r, g, b]: number[]) =>
    Math.abs(blurred.data[i]! - r!) + Math.abs(blurred.data[i + 1]! - g!) + Math.abs(blurred.data[i + 2]! - b!);
  for (let i = 0; i < data.length; i += 4) if (distance(i, corner) <= distance(i, centre)) data[i + 3] = 0;
  return pngOf(data, width, height);
}

/** About a megapixel in the given shape, sides in multiples of `step`. */
function megapixel(ratio: string, step = 32) {
  const [a, b] = ratio.split(':').map(Number) as [number, number];
  const width = Math.round(Math.sqrt((1024 * 1024 * a) / b) / step) * step;
  const height = Math.round((1024 * 1024) / width / step) * step;
  return { width, height };
}

function dataOf(value: unknown): Buffer | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  return Buffer.from(comma >= 0 ? value.slice(comma + 1) : value, 'base64');
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

const OPENAI_SIZES: Record<string, string[]> = {
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
};
const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'];

const FAL_SIZES: Record<string, { width: number; height: number }> = {
  square_hd: { width: 1024, height: 1024 },
  square: { width: 512, height: 512 },
  landscape_4_3: { width: 1024, height: 768 },
  landscape_16_9: { width: 1024, height: 576 },
  portrait_4_3: { width: 768, height: 1024 },
  portrait_16_9: { width: 576, height: 1024 },
};

const REPLICATE_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];

export async function startFakeImages(options: FakeImagesOptions = {}): Promise<FakeImages> {
  const requests: FakeImagesRequest[] = [];
  const files = new Map<string, { bytes: Buffer; type: string }>();
  const refusedOnce = new Set<string>();
  const bflTasks = new Map<string, { polls: number; status: string; sample: string | null }>();
  const predictions = new Map<string, { polls: number; final: Record<string, unknown> }>();
  const sockets = new Set<Socket>();
  const maxSide = options.maxSide ?? 2048;
  const memo = new Map<string, Promise<Buffer>>();
  let origin = '';
  let deliveryOrigin = '';

  const record = (entry: FakeImagesRequest) => {
    requests.push(entry);
    if (requests.length > 5_000) requests.splice(0, requests.length - 5_000);
  };

  /** A result on the delivery host, as the providers' CDNs serve them. */
  const publish = (bytes: Buffer, format: Format) => {
    if (fake.resultUrl !== null) return fake.resultUrl;
    const id = `${randomUUID()}.${format === 'jpeg' ? 'jpg' : format}`;
    files.set(id, { bytes: fake.resultBytes ?? bytes, type: MEDIA[format] });
    if (files.size > MAX_KEPT) files.delete(files.keys().next().value!);
    return `${deliveryOrigin}/files/${id}`;
  };

  /**
   * `total` bytes (`head`, filler, then `tail`), written as fast as the reader takes them and no faster, until the
   * reader goes away; counted in `streamedBytes`.
   */
  const streamBody = (
    res: ServerResponse,
    total: number,
    {
      contentLength,
      type,
      head = '',
      tail = '',
    }: { contentLength: boolean; type: string; head?: Buffer | string; tail?: string },
  ) => {
    res.writeHead(200, { 'content-type': type, ...(contentLength ? { 'content-length': total } : {}) });
    const filler = Buffer.alloc(64 * 1024, 'A');
    let left = total - Buffer.byteLength(head) - Buffer.byteLength(tail);
    const written = (chunk: Buffer | string) => {
      fake.streamedBytes += Buffer.byteLength(chunk);
      return res.write(chunk);
    };
    const more = () => {
      while (left > 0 && !res.destroyed) {
        const chunk = left >= filler.length ? filler : filler.subarray(0, left);
        left -= chunk.length;
        if (!written(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end(tail);
    };
    if (written(head)) more();
    else res.once('drain', more);
  };

  /** What `make` makes from `inputs`, from memory when `options.memo` is set and the same inputs were seen. */
  const remember = (inputs: (string | number | Uint8Array | undefined)[], make: () => Promise<Buffer>) => {
    if (!options.memo) return make();
    const key = inputs
      .map((input) => (input instanceof Uint8Array ? createHash('sha1').update(input).digest('hex') : String(input)))
      .join('|');
    let made = memo.get(key);
    if (!made) {
      made = make();
      memo.set(key, made);
      made.catch(() => memo.delete(key));
      if (memo.size > MEMO_KEPT) memo.delete(memo.keys().next().value!);
    }
    return made;
  };
  const draw = (prompt: string, width: number, height: number, format: Format = 'png') => {
    const size = options.size ?? { width, height };
    return remember(['draw', prompt, size.width, size.height, format], () =>
      drawImage(prompt, size.width, size.height, format, { photo: options.photo ?? false }),
    );
  };
  const edit = (bytes: Uint8Array, instruction: string, mask?: Uint8Array) =>
    remember(['edit', instruction, bytes, mask], () => editImage(bytes, instruction, mask));
  const cutOut = (bytes: Uint8Array) =>
    remember(['cut', bytes], () => (options.photo ? removeBackgroundSmoothly(bytes) : removeBackground(bytes)));

  /** `refuse-one`: the first request with this prompt is refused, the next ones are not. */
  const refuseOnce = (prompt: string) => {
    if (!prompt.includes('refuse-one') || refusedOnce.has(prompt)) return false;
    refusedOnce.add(prompt);
    return true;
  };

  async function readBody(req: IncomingMessage) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) throw new HttpError(413, { error: { message: 'Request too large' } });
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async function parse(req: IncomingMessage, raw: Buffer) {
    const type = req.headers['content-type'] ?? '';
    if (raw.length === 0) return { body: null, uploads: {} as Record<string, Buffer[]> };
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://fake.invalid/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Uint8Array(raw),
      }).formData();
      const body: Record<string, any> = {};
      const uploads: Record<string, Buffer[]> = {};
      const entries: [string, FormDataEntryValue][] = [];
      form.forEach((value, name) => entries.push([name, value]));
      for (const [name, value] of entries) {
        const key = name.replace(/\[\]$/, '');
        if (typeof value === 'string') {
          body[key] = value;
          continue;
        }
        const bytes = Buffer.from(await value.arrayBuffer());
        const meta = await sharp(bytes)
          .metadata()
          .catch(() => ({ width: undefined, height: undefined }));
        const file: FakeImagesFile = {
          name: value.name,
          type: value.type,
          size: bytes.length,
          ...(meta.width ? { width: meta.width, height: meta.height } : {}),
        };
        (uploads[key] ??= []).push(bytes);
        body[key] = key in body ? [...[body[key]].flat(), file] : file;
      }
      return { body, uploads };
    }
    try {
      return { body: JSON.parse(raw.toString('utf8')) as Record<string, any>, uploads: {} };
    } catch {
      throw new HttpError(400, { error: { message: 'Invalid JSON body' } });
    }
  }

  // ---- OpenAI and the OpenAI-compatible server -------------------------------------------------------------------

  async function openaiImages(
    kind: 'openai' | 'compatible',
    action: 'generations' | 'edits',
    req: IncomingMessage,
    body: Record<string, any>,
    uploads: Record<string, Buffer[]>,
  ) {
    if (kind === 'openai' && !/^Bearer \S+/.test(req.headers.authorization ?? ''))
      throw new HttpError(401, {
        error: { message: 'You did not provide an API key.', type: 'invalid_request_error', param: null, code: null },
      });
    const model = String(body.model ?? '');
    const prompt = String(body.prompt ?? '');
    const n = Number(body.n ?? 1);
    const gptImage = model.startsWith('gpt-image') || model.startsWith('chatgpt-image');
    if (prompt.includes('fail-me'))
      throw new HttpError(500, {
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      });
    if (prompt.includes('refuse-me') || refuseOnce(prompt)) {
      throw new HttpError(400, {
        error: gptImage
          ? {
              message: 'Your request was rejected by the safety system.',
              type: 'image_generation_user_error',
              param: null,
              code: 'moderation_blocked',
            }
          : {
              message:
                'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
              type: 'invalid_request_error',
              param: null,
              code: 'content_policy_violation',
            },
      });
    }
    if (model === 'dall-e-3' && n !== 1)
      throw new HttpError(400, {
        error: {
          message: 'You must provide n=1 for this model.',
          type: 'invalid_request_error',
          param: 'n',
          code: null,
        },
      });
    if (!Number.isInteger(n) || n < 1 || n > 10)
      throw new HttpError(400, {
        error: { message: `Invalid value for n: ${n}.`, type: 'invalid_request_error', param: 'n', code: null },
      });
    const size = body.size === undefined ? undefined : String(body.size);
    if (size !== undefined) {
      const allowed = kind === 'compatible' ? null : (OPENAI_SIZES[model] ?? GPT_IMAGE_SIZES);
      const match = /^(\d+)x(\d+)$/.exec(size);
      const tooLarge =
        kind === 'compatible' &&
        (!match || Number(match[1]) > maxSide || Number(match[2]) > maxSide || Number(match[1]) % 8 !== 0);
      if ((allowed && !allowed.includes(size)) || tooLarge)
        throw new HttpError(400, {
          error: {
            message: `Invalid value: '${size}'. Supported values are: ${allowed ? allowed.map((s) => `'${s}'`).join(', ') : `sides up to ${maxSide}, multiples of 8`}.`,
            type: 'invalid_request_error',
            param: 'size',
            code: 'invalid_value',
          },
        });
    }
    const [w, h] = size && size !== 'auto' ? size.split('x').map(Number) : [1024, 1024];
    const data: { b64_json: string; revised_prompt?: string }[] = [];
    if (action === 'generations') {
      for (let i = 0; i < n; i += 1)
        data.push({
          b64_json: (fake.resultBytes ?? (await draw(`${prompt}${i ? ` #${i}` : ''}`, w!, h!))).toString('base64'),
          ...(model === 'dall-e-3' ? { revised_prompt: `A picture of ${prompt}` } : {}),
        });
    } else {
      const image = uploads.image?.[0];
      if (!image)
        throw new HttpError(400, {
          error: { message: "Missing required parameter: 'image'.", type: 'invalid_request_error', param: 'image' },
        });
      const mask = uploads.mask?.[0];
      for (let i = 0; i < n; i += 1) {
        let edited = await edit(image, `${prompt}${i ? ` #${i}` : ''}`, mask);
        if (size && size !== 'auto') edited = await sharp(edited).resize(w, h, { fit: 'fill' }).png().toBuffer();
        data.push({ b64_json: (fake.resultBytes ?? edited).toString('base64') });
      }
    }
    return {
      created: Math.floor(Date.now() / 1000),
      data,
      ...(gptImage
        ? {
            background: 'opaque',
            output_format: 'png',
            size: size ?? '1024x1024',
            quality: 'medium',
            usage: { input_tokens: 50, output_tokens: 1056 * n, total_tokens: 50 + 1056 * n },
          }
        : {}),
    };
  }

  // ---- Black Forest Labs -----------------------------------------------------------------------------------------

  const bflAuth = (req: IncomingMessage) => {
    if (!req.headers['x-key']) throw new HttpError(403, { detail: 'Not authenticated' });
  };

  async function bflSubmit(model: string, req: IncomingMessage, body: Record<string, any>) {
    bflAuth(req);
    const prompt = String(body.prompt ?? '');
    if (prompt.includes('fail-me')) throw new HttpError(500, { detail: 'Internal Server Error' });
    const format: Format = body.output_format === 'png' ? 'png' : 'jpeg';
    const input = dataOf(body.input_image);
    let width: number;
    let height: number;
    if (model.startsWith('flux-kontext')) {
      const ratio = typeof body.aspect_ratio === 'string' ? body.aspect_ratio : null;
      if (ratio && !/^\d+:\d+$/.test(ratio))
        throw new HttpError(422, {
          detail: [{ loc: ['body', 'aspect_ratio'], msg: 'Invalid aspect ratio', type: 'value_error' }],
        });
      const meta = input && !ratio ? await sharp(input).metadata() : null;
      ({ width, height } = meta?.width ? { width: meta.width, height: meta.height! } : megapixel(ratio ?? '1:1'));
    } else {
      width = Number(body.width ?? 1024);
      height = Number(body.height ?? 768);
      for (const [name, value] of [
        ['width', width],
        ['height', height],
      ] as const)
        if (!Number.isInteger(value) || value < 256 || value > 1440 || value % 32 !== 0)
          throw new HttpError(422, {
            detail: [
              {
                loc: ['body', name],
                msg: `${name} must be a multiple of 32 between 256 and 1440`,
                type: 'value_error',
              },
            ],
          });
    }
    const id = randomUUID();
    let status = 'Ready';
    let sample: string | null = null;
    if (prompt.includes('refuse-me-output')) status = 'Content Moderated';
    else if (prompt.includes('refuse-me') || refuseOnce(prompt)) status = 'Request Moderated';
    else {
      let bytes: Buffer;
      if (input) {
        const edited = await edit(input, prompt);
        bytes = await encode(sharp(edited).resize(width, height, { fit: 'fill' }), format);
      } else {
        // An image prompt (FLUX1.1 [pro]'s reference) lends the picture its colours: drawn from both.
        const reference = dataOf(body.image_prompt);
        bytes = reference
          ? await encode(
              sharp(await draw(prompt, width, height)).composite([
                {
                  input: await sharp(reference)
                    .resize(Math.round(width / 4), Math.round(height / 4), { fit: 'fill' })
                    .png()
                    .toBuffer(),
                  top: 0,
                  left: 0,
                },
              ]),
              format,
            )
          : await draw(prompt, width, height, format);
      }
      sample = publish(bytes, format);
    }
    bflTasks.set(id, { polls: 0, status, sample });
    return {
      id,
      polling_url: `${origin}/bfl/v1/get_result?id=${id}`,
      cost: 4,
      input_mp: input ? 1 : 0,
      output_mp: Math.round((width * height) / 10_000) / 100,
    };
  }

  function bflResult(req: IncomingMessage, url: URL) {
    bflAuth(req);
    const id = url.searchParams.get('id') ?? '';
    const task = bflTasks.get(id);
    if (!task) return { id, status: 'Task not found', result: null };
    task.polls += 1;
    // Like the real service, a job is pending when first asked about.
    if (task.polls === 1) return { id, status: 'Pending', result: null, progress: 0.5 };
    if (task.status !== 'Ready')
      return { id, status: task.status, result: null, details: { 'Moderation Reasons': ['Content'] } };
    return {
      id,
      status: 'Ready',
      result: { sample: task.sample, prompt: '', seed: 42, start_time: 1, end_time: 2, duration: 1 },
      progress: null,
      details: null,
    };
  }

  // ---- fal -------------------------------------------------------------------------------------------------------

  async function fal(model: string, req: IncomingMessage, body: Record<string, any>) {
    if (!/^Key \S+/.test(req.headers.authorization ?? '')) throw new HttpError(401, { detail: 'No key provided' });
    if (model === 'fal-ai/birefnet' || model.startsWith('fal-ai/birefnet/')) {
      const input = dataOf(body.image_url);
      if (!input)
        throw new HttpError(422, { detail: [{ loc: ['body', 'image_url'], msg: 'field required', type: 'missing' }] });
      const cut = await cutOut(input);
      const meta = await sharp(cut).metadata();
      return {
        image: {
          url: publish(cut, 'png'),
          content_type: 'image/png',
          file_name: 'birefnet.png',
          file_size: cut.length,
          width: meta.width,
          height: meta.height,
        },
      };
    }
    if (model !== 'fal-ai/flux/dev' && model !== 'fal-ai/stable-diffusion-v3-medium')
      throw new HttpError(404, { detail: `Application '${model}' not found` });
    const prompt = String(body.prompt ?? '');
    if (prompt.includes('fail-me')) throw new HttpError(500, { detail: 'Internal Server Error' });
    const n = Number(body.num_images ?? 1);
    if (!Number.isInteger(n) || n < 1 || n > 4)
      throw new HttpError(422, {
        detail: [
          { loc: ['body', 'num_images'], msg: 'ensure this value is less than or equal to 4', type: 'value_error' },
        ],
      });
    const asked = body.image_size ?? 'landscape_4_3';
    const size = typeof asked === 'string' ? FAL_SIZES[asked] : asked;
    if (
      !size ||
      !Number.isInteger(size.width) ||
      !Number.isInteger(size.height) ||
      size.width > 14142 ||
      size.height > 14142
    )
      throw new HttpError(422, {
        detail: [{ loc: ['body', 'image_size'], msg: 'Invalid image size', type: 'value_error' }],
      });
    const format: Format = body.output_format === 'png' ? 'png' : 'jpeg';
    const images = [];
    const flags = [];
    for (let i = 0; i < n; i += 1) {
      const flagged = prompt.includes('refuse-me') || (prompt.includes('refuse-one') && i === 0);
      const bytes = flagged
        ? await blackImage(size.width, size.height, format)
        : await draw(`${prompt}${i ? ` #${i}` : ''}`, size.width, size.height, format);
      images.push({ url: publish(bytes, format), width: size.width, height: size.height, content_type: MEDIA[format] });
      flags.push(flagged);
    }
    return { images, timings: { inference: 0.4 }, seed: 42, has_nsfw_concepts: flags, prompt };
  }

  // ---- Replicate -------------------------------------------------------------------------------------------------

  const replicateAuth = (req: IncomingMessage) => {
    if (!/^Bearer \S+/.test(req.headers.authorization ?? ''))
      throw new HttpError(401, {
        title: 'Unauthenticated',
        detail: 'You did not pass an authentication token',
        status: 401,
      });
  };

  async function replicatePredict(model: string, req: IncomingMessage, body: Record<string, any>) {
    replicateAuth(req);
    if (model !== 'black-forest-labs/flux-schnell')
      throw new HttpError(404, {
        title: 'Not found',
        detail: 'The requested resource could not be found.',
        status: 404,
      });
    const input = (body.input ?? {}) as Record<string, any>;
    const prompt = String(input.prompt ?? '');
    if (prompt.includes('fail-me'))
      throw new HttpError(500, { title: 'Internal Server Error', detail: 'Internal Server Error', status: 500 });
    const ratio = String(input.aspect_ratio ?? '1:1');
    const n = Number(input.num_outputs ?? 1);
    if (!REPLICATE_RATIOS.includes(ratio) || !Number.isInteger(n) || n < 1 || n > 4)
      throw new HttpError(422, {
        title: 'Input validation failed',
        detail: `- input.aspect_ratio: aspect_ratio must be one of the following: ${REPLICATE_RATIOS.map((r) => `"${r}"`).join(', ')}`,
        status: 422,
        invalid_fields: [
          { type: 'enum', field: 'input.aspect_ratio', description: 'must be one of the allowed values' },
        ],
      });
    const format: Format = input.output_format === 'png' ? 'png' : input.output_format === 'jpg' ? 'jpeg' : 'webp';
    const { width, height } = megapixel(ratio, 64);
    const flagged = prompt.includes('refuse-me') ? n : prompt.includes('refuse-one') ? 1 : 0;
    const output: string[] = [];
    for (let i = flagged; i < n; i += 1)
      output.push(publish(await draw(`${prompt}${i ? ` #${i}` : ''}`, width, height, format), format));
    const id = randomUUID().replace(/-/g, '').slice(0, 26);
    const base = {
      id,
      model,
      version: 'hidden',
      input,
      logs: flagged ? `NSFW content detected in ${flagged} image(s)` : '',
      created_at: new Date().toISOString(),
      urls: {
        get: `${origin}/replicate/v1/predictions/${id}`,
        cancel: `${origin}/replicate/v1/predictions/${id}/cancel`,
      },
    };
    const final =
      output.length === 0
        ? {
            ...base,
            status: 'failed',
            output: null,
            error: 'All generated images contained NSFW content. Try running it again with a different prompt.',
          }
        : { ...base, status: 'succeeded', output, error: null, metrics: { predict_time: 0.5 } };
    predictions.set(id, { polls: 0, final });
    const waits = /\bwait\b/.test(String(req.headers.prefer ?? ''));
    if (waits && !prompt.includes('poll-me')) return { status: 201, body: final };
    return {
      status: 201,
      body: { ...base, status: prompt.includes('poll-me') ? 'processing' : 'starting', output: null, error: null },
    };
  }

  function replicateGet(req: IncomingMessage, id: string) {
    replicateAuth(req);
    const prediction = predictions.get(id);
    if (!prediction) throw new HttpError(404, { title: 'Not found', detail: 'Prediction not found', status: 404 });
    prediction.polls += 1;
    if (prediction.polls < 2) return { ...prediction.final, status: 'processing', output: null, error: null };
    return prediction.final;
  }

  // ---- the servers -----------------------------------------------------------------------------------------------

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    const oversized = fake.oversizedAnswers;
    if (oversized)
      return streamBody(res, oversized.bytes, {
        contentLength: oversized.contentLength,
        type: 'application/json',
        head: '{"data":[{"b64_json":"',
        tail: '"}]}',
      });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const headersOf = (req: IncomingMessage): FakeImagesRequest['headers'] => {
    const out: FakeImagesRequest['headers'] = {};
    for (const name of ['authorization', 'x-key', 'prefer', 'content-type'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') out[name] = value;
    }
    return out;
  };

  const providerOf = (path: string): FakeImagesProvider | null =>
    path.startsWith('/openai/')
      ? 'openai'
      : path.startsWith('/sd/')
        ? 'compatible'
        : path.startsWith('/bfl/')
          ? 'bfl'
          : path.startsWith('/fal/')
            ? 'fal'
            : path.startsWith('/replicate/')
              ? 'replicate'
              : null;

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    const provider = providerOf(path);
    const raw = await readBody(req);
    const { body, uploads } = await parse(req, raw);
    if (provider)
      record({ provider, method: req.method ?? 'GET', path: path + url.search, headers: headersOf(req), body });
    if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
    if (res.destroyed) return;
    const post = req.method === 'POST';
    const json = body ?? {};
    let m: RegExpExecArray | null;
    if (post && (m = /^\/(openai|sd)\/v1\/images\/(generations|edits)$/.exec(path)))
      return send(
        res,
        200,
        await openaiImages(m[1] === 'sd' ? 'compatible' : 'openai', m[2] as 'generations', req, json, uploads),
      );
    if (req.method === 'GET' && path === '/bfl/v1/get_result') return send(res, 200, bflResult(req, url));
    if (post && (m = /^\/bfl\/v1\/([\w.-]+)$/.exec(path))) return send(res, 200, await bflSubmit(m[1]!, req, json));
    if (post && (m = /^\/fal\/(.+)$/.exec(path))) return send(res, 200, await fal(m[1]!, req, json));
    if (post && (m = /^\/replicate\/v1\/models\/([\w.-]+\/[\w.-]+)\/predictions$/.exec(path))) {
      const answer = await replicatePredict(m[1]!, req, json);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'GET' && (m = /^\/replicate\/v1\/predictions\/(\w+)$/.exec(path)))
      return send(res, 200, replicateGet(req, m[1]!));
    if (options.chatUrl && path.startsWith('/openai/v1/')) return passOn(req, res, options.chatUrl, url, raw);
    send(res, 404, { error: { message: `No route for ${req.method} ${path}` } });
  }

  /** An OpenAI call that is not about images, sent on to `chatUrl` and its answer streamed back as it comes. */
  async function passOn(req: IncomingMessage, res: ServerResponse, chatUrl: string, url: URL, raw: Buffer) {
    const target = `${chatUrl.replace(/\/$/, '')}${url.pathname.slice('/openai/v1'.length)}${url.search}`;
    let answer: Response;
    try {
      answer = await fetch(target, {
        method: req.method,
        headers: {
          ...(req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {}),
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        },
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(raw) }),
      });
    } catch {
      return send(res, 502, {
        error: {
          message: `This server makes images only, and ${chatUrl} does not answer: start it with npm run fake-ai.`,
        },
      });
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    const reader = answer.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
    res.end();
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return send(res, error.status, error.body);
      send(res, 500, { error: { message: (error as Error).message } });
    });
  };

  const deliver = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', deliveryOrigin);
    record({
      provider: 'delivery',
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: headersOf(req),
      body: null,
    });
    if (url.pathname === '/stream') {
      const type = 'image/png';
      const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]); // a PNG's signature, then filler
      const length = url.searchParams.get('length') === '1';
      return streamBody(res, Number(url.searchParams.get('bytes') ?? 0), { contentLength: length, type, head });
    }
    const file = /^\/files\/([\w.-]+)$/.exec(url.pathname)?.[1];
    const found = file ? files.get(file) : undefined;
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('Not found');
    }
    res.writeHead(200, { 'content-type': found.type, 'content-length': found.bytes.length });
    res.end(found.bytes);
  };

  const track = (server: Server) =>
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  const host = options.host ?? '127.0.0.1';
  const main = track(createServer(handle));
  const delivery = track(createServer(deliver));
  await new Promise<void>((resolve) => main.listen(options.port ?? 0, host, resolve));
  await new Promise<void>((resolve) => delivery.listen(0, host, resolve));
  const port = (main.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  deliveryOrigin = `http://127.0.0.1:${(delivery.address() as AddressInfo).port}`;

  const fake: FakeImages = {
    url: origin,
    deliveryUrl: deliveryOrigin,
    port,
    requests,
    delayMs: options.delayMs ?? 0,
    resultBytes: null,
    resultUrl: null,
    oversizedAnswers: null,
    streamedBytes: 0,
    env: () => ({
      OPENAI_API_KEY: FAKE_IMAGE_KEYS.openai,
      OPENAI_BASE_URL: `${origin}/openai/v1`,
      BFL_API_KEY: FAKE_IMAGE_KEYS.blackForestLabs,
      BFL_BASE_URL: `${origin}/bfl/v1`,
      FAL_API_KEY: FAKE_IMAGE_KEYS.fal,
      FAL_BASE_URL: `${origin}/fal`,
      REPLICATE_API_TOKEN: FAKE_IMAGE_KEYS.replicate,
      REPLICATE_BASE_URL: `${origin}/replicate/v1`,
      OPENAI_COMPATIBLE_IMAGES_BASE_URL: `${origin}/sd/v1`,
      OPENAI_COMPATIBLE_IMAGES_API_KEY: FAKE_IMAGE_KEYS.compatible,
      OPENAI_COMPATIBLE_IMAGES_MODEL: 'sd-fake',
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        let open = 2;
        const done = () => --open === 0 && resolve();
        main.close(done);
        delivery.close(done);
      }),
  };
  return fake;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const chatUrl = cliArg('--chat') ?? 'http://127.0.0.1:4010/v1';
  const fake = await startFakeImages({
    port: cliPort(4020),
    delayMs: Number(cliArg('--delay') ?? 0),
    chatUrl,
  });
  const env = Object.entries(fake.env())
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  process.stdout.write(`fake image providers on ${fake.url} (results on ${fake.deliveryUrl})\n`);
  console.warn(
    `Start Parley with: ${env} npm start\n` +
      `(OPENAI_BASE_URL points OpenAI at this server: its images are made here, and its chat and transcription calls ` +
      `are passed on to ${chatUrl}, the chat test server of npm run fake-ai; --chat URL for another.)`,
  );
}
