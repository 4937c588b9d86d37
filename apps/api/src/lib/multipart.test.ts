import { createRequire } from 'node:module';
import type { BusboyConstructor } from '@fastify/busboy';
import { describe, expect, it } from 'vitest';
import {
  MultipartError,
  multipartBoundary,
  parseMultipart,
  type MultipartLimits,
  type ParsedPart,
} from './multipart.js';

// The busboy that @fastify/multipart itself uses: the reference for what the chat route reads from a body today.
const requireFromMultipart = createRequire(createRequire(import.meta.url).resolve('@fastify/multipart'));
const Busboy = requireFromMultipart('@fastify/busboy') as BusboyConstructor;

type Parsed = { fields: Record<string, string>; files: ParsedPart[] };
type Outcome = Parsed | { error: MultipartError['code'] };

const roomy: MultipartLimits = {
  fileSize: 1024 * 1024,
  files: 100,
  fields: 100,
  fieldSize: 1024 * 1024,
  parts: 200,
  headerPairs: 100,
};

function parse(body: Buffer | string, contentType: string, limits: MultipartLimits = roomy): Outcome {
  const boundary = multipartBoundary(contentType);
  if (boundary === null) throw new Error(`no boundary in ${contentType}`);
  try {
    return parseMultipart(typeof body === 'string' ? Buffer.from(body, 'latin1') : body, boundary, limits);
  } catch (error) {
    if (error instanceof MultipartError) return { error: error.code };
    throw error;
  }
}

/**
 * What busboy and @fastify/multipart hand the route for the same bytes and limits: fields by name (the last value
 * wins), files in order, and the error code the error handler answers a limit or a broken body with.
 */
function viaBusboy(body: Buffer | string, contentType: string, limits: MultipartLimits = roomy): Promise<Outcome> {
  return new Promise((resolve) => {
    const fields: Record<string, string> = {};
    const files: ParsedPart[] = [];
    const reading: Promise<void>[] = [];
    let error: MultipartError['code'] | null = null;
    const fail = (code: MultipartError['code']) => (error ??= code);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      void Promise.all(reading).then(() => resolve(error ? { error } : { fields, files }));
    };
    const bb = Busboy({ headers: { 'content-type': contentType }, limits });
    bb.on('field', (name, value) => {
      if (name in Object.prototype) fail('BAD_REQUEST');
      else fields[name] = value;
    });
    bb.on('file', (name, stream, filename, _encoding, mimeType) => {
      if (name in Object.prototype) fail('BAD_REQUEST');
      const file: ParsedPart = { fieldname: name, filename: filename ?? '', mimeType, bytes: Buffer.alloc(0) };
      files.push(file);
      const chunks: Buffer[] = [];
      reading.push(
        new Promise((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('limit', () => fail('FILE_TOO_LARGE'));
          stream.on('error', () => fail('BAD_REQUEST'));
          stream.on('end', () => {
            file.bytes = Buffer.concat(chunks);
            done();
          });
        }),
      );
    });
    bb.on('partsLimit', () => fail('BAD_REQUEST'));
    bb.on('fieldsLimit', () => fail('BAD_REQUEST'));
    bb.on('filesLimit', () => fail('TOO_MANY_FILES'));
    bb.on('error', () => {
      // @fastify/multipart reads a body with no data at all as an empty form.
      if (body.length !== 0) fail('BAD_REQUEST');
      setImmediate(settle);
    });
    bb.on('finish', settle);
    bb.end(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
  });
}

/** A body as Node's fetch serializes a FormData, with its content type. */
async function serialize(entries: [string, string | Blob, string?][]) {
  const form = new FormData();
  for (const [name, value, filename] of entries) {
    if (typeof value === 'string') form.append(name, value);
    else if (filename === undefined) form.append(name, value);
    else form.append(name, value, filename);
  }
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type')! };
}

/** A deterministic PRNG (mulberry32), so that a failing random case can be found again. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

const TEXTS = [
  '{"messages":[{"role":"user","parts":[{"type":"text","text":"Hello!"}]}],"model":"gpt-4o"}',
  'héllo wörld — 日本語のテキスト',
  '😀👍🏽 family: 👨‍👩‍👧‍👦',
  'say "hi" and \'bye\' \\ backslash',
  'lines\nwith\r\nbreaks\rand\n\n',
  '',
  ' ',
  '--not a boundary\r\n--',
];
const NAMES = ['message', 'naïve', 'na"me', 'line\nbreak', 'files', 'é😀', 'a;b=c'];
const FILENAMES = ['photo.png', 'résumé.pdf', 'quote".png', 'emoji😀.gif', 'back\\slash.txt', 'dir/evil.png', '..', ''];
const TYPES = ['image/png', '', 'text/plain;charset=utf-8', 'Application/JSON', 'application/pdf'];
const TRICKY = [
  [0x0d, 0x0a, 0x2d, 0x2d],
  [...Buffer.from('\r\n------formdata-undici-0')],
  [...Buffer.from('--\r\n\r\n')],
  [0x0d, 0x0d, 0x0a, 0x0a, 0x2d],
  [0xff, 0xfe, 0x00, 0x80, 0xc3],
];

/** A body with a few fields and files drawn at random from the cases above. */
function randomEntries(next: () => number): [string, string | Blob, string?][] {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const entries: [string, string | Blob, string?][] = [];
  const count = 1 + Math.floor(next() * 6);
  for (let i = 0; i < count; i++) {
    if (next() < 0.5) {
      entries.push([pick(NAMES), pick(TEXTS)]);
    } else {
      const chunks: number[][] = [];
      for (let j = Math.floor(next() * 6); j > 0; j--) {
        chunks.push(next() < 0.5 ? pick(TRICKY) : Array.from({ length: Math.floor(next() * 300) }, () => next() * 256));
      }
      const blob = new Blob([new Uint8Array(chunks.flat())], { type: pick(TYPES) });
      entries.push(next() < 0.2 ? [pick(NAMES), blob] : [pick(NAMES), blob, pick(FILENAMES)]);
    }
  }
  return entries;
}

const CORPUS: [string, [string, string | Blob, string?][]][] = [
  ['one JSON field', [['message', TEXTS[0]!]]],
  ['text fields of every kind', TEXTS.map((text, i) => [`field${i}`, text])],
  ['names with non-ASCII, quotes and line breaks', NAMES.map((name) => [name, name])],
  [
    'a repeated field name',
    [
      ['a', '1'],
      ['b', '2'],
      ['a', '3'],
    ],
  ],
  [
    'a field and a small image',
    [
      ['message', TEXTS[0]!],
      ['files', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])]), 'cat.png'],
    ],
  ],
  [
    'every byte value and delimiter-like bytes',
    [
      ['files', new Blob([new Uint8Array(Array.from({ length: 512 }, (_, i) => i % 256))]), 'all.bin'],
      ['files', new Blob([new Uint8Array(TRICKY.flat())], { type: 'application/octet-stream' }), 'tricky.bin'],
    ],
  ],
  [
    'filenames with non-ASCII, quotes, backslashes and paths',
    FILENAMES.map((filename, i) => ['files', new Blob([`file ${i}`], { type: TYPES[i % TYPES.length] }), filename]),
  ],
  [
    'a Blob with no filename, an empty file, files between fields',
    [
      ['files', new Blob(['blob bytes'])],
      ['text', 'between'],
      ['files', new File([], 'empty.txt', { type: 'text/plain' })],
      ['text', 'after'],
    ],
  ],
];

describe('multipartBoundary', () => {
  it('reads the boundary of a multipart/form-data content type, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----formdata-undici-016235561491')).toBe(
      '----formdata-undici-016235561491',
    );
    expect(multipartBoundary('multipart/form-data; boundary="a b:c?d"')).toBe('a b:c?d');
    expect(multipartBoundary('Multipart/Form-Data;charset=utf-8;  BOUNDARY = xyz ')).toBe('xyz');
    expect(multipartBoundary('multipart/form-data; boundary=first; boundary=second')).toBe('first');
    expect(multipartBoundary(`multipart/form-data; boundary=${'b'.repeat(70)}`)).toBe('b'.repeat(70));
  });

  it('is null for another media type, or a missing or invalid boundary', () => {
    for (const type of [
      undefined,
      '',
      'application/json',
      'multipart/mixed; boundary=abc',
      'multipart/form-dataX; boundary=abc',
      'multipart/form-data',
      'multipart/form-data; charset=utf-8',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${'b'.repeat(71)}`,
      'multipart/form-data; boundary="ends with space "',
      'multipart/form-data; boundary=a@b',
      'multipart/form-data; boundary="caf\u00e9"',
      'multipart/form-data; boundary="unclosed',
    ]) {
      expect(multipartBoundary(type), String(type)).toBeNull();
    }
  });
});

describe('parseMultipart', () => {
  it.each(CORPUS)('gives what busboy gives for a FormData body: %s', async (_, entries) => {
    const { body, type } = await serialize(entries);
    const ours = parse(body, type);
    expect(ours).not.toHaveProperty('error');
    expect(ours).toEqual(await viaBusboy(body, type));
  });

  it('gives what busboy gives for random FormData bodies', async () => {
    const next = random(20240611);
    for (let i = 0; i < 150; i++) {
      const { body, type } = await serialize(randomEntries(next));
      expect(parse(body, type), `body ${i}`).toEqual(await viaBusboy(body, type));
    }
  });

  it('reads a chat request: its JSON field, and its image as part of the body', async () => {
    const image = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x2d, 0x2d]);
    const { body, type } = await serialize([
      ['message', TEXTS[0]!],
      ['files', new File([image], 'cat.png', { type: 'image/png' })],
    ]);
    const { fields, files } = parseMultipart(body, multipartBoundary(type)!, roomy);
    expect(fields).toEqual({ message: TEXTS[0] });
    expect(files).toEqual([
      { fieldname: 'files', filename: 'cat.png', mimeType: 'image/png', bytes: Buffer.from(image) },
    ]);
    // No copy: the file's bytes are the body's.
    expect(files[0]!.bytes.buffer).toBe(body.buffer);
    body[files[0]!.bytes.byteOffset - body.byteOffset] = 0;
    expect(files[0]!.bytes[0]).toBe(0);
  });

  it('keeps the last value of a repeated field and every file in order', () => {
    const body = [
      '--b',
      'Content-Disposition: form-data; name="a"; filename="1.txt"',
      '',
      'one',
      '--b',
      'Content-Disposition: form-data; name="x"',
      '',
      'first',
      '--b',
      'Content-Disposition: form-data; name="a"; filename="2.txt"',
      '',
      'two',
      '--b',
      'Content-Disposition: form-data; name="x"',
      '',
      'second',
      '--b--',
    ].join('\r\n');
    const parsed = parse(body, 'multipart/form-data; boundary=b') as Parsed;
    expect(parsed.fields).toEqual({ x: 'second' });
    expect(parsed.files.map((f) => [f.filename, f.bytes.toString()])).toEqual([
      ['1.txt', 'one'],
      ['2.txt', 'two'],
    ]);
  });

  it('ignores a preamble and an epilogue, as busboy does', async () => {
    const type = 'multipart/form-data; boundary=b';
    const body =
      'This is a preamble, --b inside a line.\r\n--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nA\r\n' +
      '--b--\r\nThe epilogue.\r\n--b\r\nContent-Disposition: form-data; name="c"\r\n\r\nC';
    expect(parse(body, type)).toEqual({ fields: { a: 'A' }, files: [] });
    expect(await viaBusboy(body, type)).toEqual(parse(body, type));
    // A body whose first boundary line is the closing one has no parts.
    expect(parse('preamble\r\n--b--', type)).toEqual({ fields: {}, files: [] });
  });

  it('finds the same parts with a quoted or an unquoted boundary', () => {
    const body = '--a:b c\r\nContent-Disposition: form-data; name="k"\r\n\r\nv\r\n--a:b c--';
    expect(parse(body, 'multipart/form-data; boundary="a:b c"')).toEqual({ fields: { k: 'v' }, files: [] });
    const plain = '--simple\r\nContent-Disposition: form-data; name="k"\r\n\r\nv\r\n--simple--';
    expect(parse(plain, 'multipart/form-data; boundary="simple"')).toEqual(
      parse(plain, 'multipart/form-data; boundary=simple'),
    );
  });

  it('reads header names in any case, unquoted and escaped values, UTF-8 names, folded lines', async () => {
    const type = 'multipart/form-data; boundary=b';
    const body = bytes(
      '--b\r\ncontent-disposition: FORM-DATA; NAME=plain; FILENAME=b.txt\r\nCONTENT-TYPE: Image/PNG; q=1\r\n\r\nx\r\n',
      '--b\r\nContent-Disposition: form-data; name="a\\"b"; filename="c\\\\d\\e.txt"\r\n\r\ny\r\n',
      '--b\r\nContent-Disposition: form-data;\r\n\tname="folded"\r\nX-Other: 1\r\n\r\nz\r\n',
      '--b\r\nContent-Disposition: form-data; name="名前"; filename="ü.png"\r\n\r\nw\r\n',
      '--b--',
    );
    const ours = parse(body, type);
    expect(ours).toEqual({
      fields: { folded: 'z' },
      files: [
        { fieldname: 'plain', filename: 'b.txt', mimeType: 'image/png', bytes: Buffer.from('x') },
        { fieldname: 'a"b', filename: 'e.txt', mimeType: 'application/octet-stream', bytes: Buffer.from('y') },
        { fieldname: '名前', filename: 'ü.png', mimeType: 'application/octet-stream', bytes: Buffer.from('w') },
      ],
    });
    // busboy agrees, but for the type of a file that declares none: it says text/plain.
    const { fields, files } = ours as Parsed;
    const asBusboy = files.map((f) => (f.mimeType === 'image/png' ? f : { ...f, mimeType: 'text/plain' }));
    expect(await viaBusboy(body, type)).toEqual({ fields, files: asBusboy });
  });

  it('takes filename* (RFC 8187) over filename, and strips the path from a filename', () => {
    const type = 'multipart/form-data; boundary=b';
    const part = (disposition: string) =>
      `--b\r\nContent-Disposition: form-data; name="f"; ${disposition}\r\n\r\nx\r\n--b--`;
    const filename = (disposition: string) => (parse(part(disposition), type) as Parsed).files[0]?.filename;
    expect(filename(`filename*=UTF-8''%E2%82%AC%20rates.txt`)).toBe('€ rates.txt');
    expect(filename(`filename="euro.txt"; filename*=utf-8'en'%E2%82%AC.txt`)).toBe('€.txt');
    expect(filename(`filename*=UTF-8''%E2%82%AC.txt; filename="euro.txt"`)).toBe('€.txt');
    expect(filename(`filename*=iso-8859-1''caf%E9.txt`)).toBe('café.txt');
    expect(filename(`filename="fallback.txt"; filename*=no-such-charset''x`)).toBe('fallback.txt');
    expect(filename(`filename="fallback.txt"; filename*=not-extended`)).toBe('fallback.txt');
    expect(filename(`filename="C:\\\\Users\\\\me\\\\cat.png"`)).toBe('cat.png');
    expect(filename(`filename="/etc/passwd"`)).toBe('passwd');
    expect(filename(`filename=".."`)).toBe('');
    // A name or filename holding a line break skips the part, as busboy does.
    expect(parse(part(`filename*=UTF-8''a%0D%0Ab`), type)).toEqual({ fields: {}, files: [] });
  });

  it('reads a part with a filename, even an empty one, or declared as application/octet-stream as a file', async () => {
    const type = 'multipart/form-data; boundary=b';
    const body = bytes(
      '--b\r\nContent-Disposition: form-data; name="empty"; filename=""\r\n\r\n1\r\n',
      '--b\r\nContent-Disposition: form-data; name="octets"\r\nContent-Type: application/octet-stream\r\n\r\n2\r\n',
      '--b\r\nContent-Disposition: form-data; name="text"\r\nContent-Type: text/plain\r\n\r\n3\r\n',
      '--b--',
    );
    const wanted = {
      fields: { text: '3' },
      files: [
        { fieldname: 'empty', filename: '', mimeType: 'application/octet-stream', bytes: Buffer.from('1') },
        { fieldname: 'octets', filename: '', mimeType: 'application/octet-stream', bytes: Buffer.from('2') },
      ],
    };
    expect(parse(body, type)).toEqual(wanted);
    const theirs = (await viaBusboy(body, type)) as Parsed;
    expect(theirs.files.map((f) => [f.fieldname, f.filename])).toEqual([
      ['empty', ''],
      ['octets', ''],
    ]);
  });

  it('skips a part without a form-data Content-Disposition or without a name, but counts it', () => {
    const type = 'multipart/form-data; boundary=b';
    const body = bytes(
      '--b\r\nX-Nothing: here\r\n\r\nno disposition\r\n',
      '--b\r\n\r\nno headers at all\r\n',
      '--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nattachment\r\n',
      '--b\r\nContent-Disposition: form-data\r\n\r\nno name\r\n',
      '--b\r\nContent-Disposition: form-data; filename="x.png"\r\n\r\nno name\r\n',
      '--b\r\nContent-Disposition: form-data; name="kept"\r\n\r\nkept\r\n',
      '--b--',
    );
    expect(parse(body, type)).toEqual({ fields: { kept: 'kept' }, files: [] });
    expect(parse(body, type, { ...roomy, parts: 5 })).toEqual({ error: 'BAD_REQUEST' });
    expect(parse(body, type, { ...roomy, fields: 1 })).toEqual({ error: 'BAD_REQUEST' });
    expect(parse(body, type, { ...roomy, files: 0 })).toEqual({ error: 'TOO_MANY_FILES' });
  });

  it('decodes a field as UTF-8, broken sequences as U+FFFD, as busboy does', async () => {
    const type = 'multipart/form-data; boundary=b';
    const body = bytes(
      '--b\r\nContent-Disposition: form-data; name="t"\r\n\r\n',
      [0xc3, 0xa9, 0xff, 0xe2, 0x82],
      '\r\n--b--',
    );
    expect(parse(body, type)).toEqual({ fields: { t: 'é\ufffd\ufffd' }, files: [] });
    expect(await viaBusboy(body, type)).toEqual(parse(body, type));
  });

  it('keeps in a file what only looks like a boundary line', async () => {
    const type = 'multipart/form-data; boundary=b';
    const content = 'x--b\r\n\n--b\r\n\r--b--\r\n-\r\n-b';
    const body = `--b\r\nContent-Disposition: form-data; name="f"; filename="f"\r\nContent-Type: image/png\r\n\r\n${content}\r\n--b--`;
    expect((parse(body, type) as Parsed).files[0]!.bytes.toString('latin1')).toBe(content);
    expect(await viaBusboy(body, type)).toEqual(parse(body, type));
  });

  it('refuses a boundary line that goes on after the boundary', () => {
    const type = 'multipart/form-data; boundary=b';
    const field = 'Content-Disposition: form-data; name="a"\r\n\r\nA';
    expect(parse(`--b\r\n${field}\r\n--bX\r\n${field}\r\n--b--`, type)).toEqual({ error: 'BAD_REQUEST' });
    expect(parse(`--b \r\n${field}\r\n--b--`, type)).toEqual({ error: 'BAD_REQUEST' });
    expect(parse(`--b\r\n${field}\r\n--b-`, type)).toEqual({ error: 'BAD_REQUEST' });
    expect(parse(`--b\r\n${field}\r\n--b-\r\n`, type)).toEqual({ error: 'BAD_REQUEST' });
    expect(parse(`--bb\r\n${field}\r\n--b--`, type)).toEqual({ error: 'BAD_REQUEST' });
  });

  it('refuses a broken body', () => {
    const type = 'multipart/form-data; boundary=b';
    const cases = {
      'no boundary line at all': 'just text',
      'no closing boundary': '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nA',
      'no closing boundary after a complete part': '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nA\r\n',
      'no blank line after the headers': '--b\r\nContent-Disposition: form-data; name="a"\r\n--b--',
      'only the CRLF of the next boundary after the headers':
        '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n--b--',
      'an empty part': '--b\r\n--b--',
      'a header line without a colon': '--b\r\nContent-Disposition: form-data; name="a"\r\nbogus\r\n\r\nA\r\n--b--',
      'a header line without a name': '--b\r\n: form-data; name="a"\r\n\r\nA\r\n--b--',
      'a bare line feed in the headers': '--b\r\nContent-Disposition: form-data;\nname="a"\r\n\r\nA\r\n--b--',
      'a boundary inside the headers': '--b\r\nContent-Disposition: form-data; name="a"\r\n--b\r\n\r\nA\r\n--b--',
    };
    for (const [what, body] of Object.entries(cases)) expect(parse(body, type), what).toEqual({ error: 'BAD_REQUEST' });
  });

  it('refuses every truncation of a body before its closing boundary, and reads nothing past the end', async () => {
    const { body, type } = await serialize([
      ['message', TEXTS[0]!],
      ['files', new Blob([new Uint8Array(TRICKY.flat())], { type: 'image/png' }), 'a.png'],
    ]);
    const complete = body.lastIndexOf('--\r\n') + 2;
    expect(complete).toBe(body.length - 2);
    for (let length = 1; length < complete; length++) {
      // A copy, so that a read past the end would find no bytes there.
      const cut = Buffer.from(body.subarray(0, length));
      expect(parse(cut, type), `cut at ${length}`).toEqual({ error: 'BAD_REQUEST' });
    }
    expect(parse(Buffer.from(body.subarray(0, complete)), type)).toEqual(parse(body, type));
  });

  it('reads an empty body as an empty form, as @fastify/multipart does', async () => {
    expect(parse(Buffer.alloc(0), 'multipart/form-data; boundary=b')).toEqual({ fields: {}, files: [] });
    expect(await viaBusboy(Buffer.alloc(0), 'multipart/form-data; boundary=b')).toEqual({ fields: {}, files: [] });
  });

  it('refuses names that reach Object.prototype, as @fastify/multipart does', async () => {
    const type = 'multipart/form-data; boundary=b';
    for (const name of ['__proto__', 'constructor', 'toString']) {
      for (const filename of ['', '; filename="x.png"']) {
        const body = `--b\r\nContent-Disposition: form-data; name="${name}"${filename}\r\n\r\nv\r\n--b--`;
        expect(parse(body, type), name + filename).toEqual({ error: 'BAD_REQUEST' });
        expect(await viaBusboy(body, type), name + filename).toEqual({ error: 'BAD_REQUEST' });
      }
    }
  });

  describe('limits', () => {
    const type = 'multipart/form-data; boundary=b';
    const field = (name: string, value: string) =>
      `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const file = (name: string, content: string) =>
      `--b\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: image/png\r\n\r\n${content}\r\n`;
    // 3 parts: 2 fields (5 and 2 bytes of UTF-8), 1 file of 10 bytes with 2 header lines.
    const body = bytes(field('a', 'hello'), file('f', '0123456789'), field('b', 'é'), '--b--');
    const at: MultipartLimits = { fileSize: 10, files: 1, fields: 2, fieldSize: 5, parts: 3, headerPairs: 2 };

    it('allows a body exactly at every limit', () => {
      expect(parse(body, type, at)).toMatchObject({ fields: { a: 'hello', b: 'é' }, files: [{ filename: 'f.bin' }] });
    });

    it.each([
      ['parts', 'BAD_REQUEST'],
      ['files', 'TOO_MANY_FILES'],
      ['fields', 'BAD_REQUEST'],
      ['fileSize', 'FILE_TOO_LARGE'],
      ['fieldSize', 'BAD_REQUEST'],
      ['headerPairs', 'BAD_REQUEST'],
    ] as const)('refuses a body over the %s limit with %s', (limit, code) => {
      expect(parse(body, type, { ...at, [limit]: at[limit] - 1 })).toEqual({ error: code });
    });

    it('counts a field in bytes of UTF-8', () => {
      expect(parse(bytes(field('b', 'é'), '--b--'), type, { ...at, fieldSize: 1 })).toEqual({ error: 'BAD_REQUEST' });
    });

    it('refuses what busboy refuses, with the same code, at the edge of each limit busboy enforces', async () => {
      const next = random(7);
      for (let i = 0; i < 40; i++) {
        const { body, type } = await serialize(randomEntries(next));
        const { files } = parseMultipart(body, multipartBoundary(type)!, roomy);
        const parts = body.toString('latin1').split('\r\nContent-Disposition').length - 1;
        const fileSize = Math.max(0, ...files.map((f) => f.bytes.length));
        const fieldCount = parts - files.length;
        for (const limits of [
          { ...roomy, parts },
          { ...roomy, parts: parts - 1 },
          { ...roomy, files: files.length },
          { ...roomy, files: files.length - 1 },
          { ...roomy, fields: fieldCount },
          { ...roomy, fields: fieldCount - 1 },
          { ...roomy, fileSize },
          { ...roomy, fileSize: fileSize - 1 },
        ]) {
          if (Object.values(limits).some((n) => n < 0)) continue;
          expect(parse(body, type, limits), `body ${i}, ${JSON.stringify(limits)}`).toEqual(
            await viaBusboy(body, type, limits),
          );
        }
      }
    });
  });

  it('throws only MultipartError for damaged bodies, and returns only bytes of the body', async () => {
    const next = random(99);
    const { body, type } = await serialize([
      ['message', TEXTS[0]!],
      ['files', new Blob([new Uint8Array(TRICKY.flat())], { type: 'image/png' }), 'a.png'],
      ['other', TEXTS[4]!],
    ]);
    const boundary = multipartBoundary(type)!;
    const alphabet = [0x0d, 0x0a, 0x2d, 0x22, 0x3a, 0x3b, 0x3d, 0x5c, 0x20, 0x2a, 0x27, 0x25, 0x80, 0x61];
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const damaged = [...body];
      for (let j = 1 + Math.floor(next() * 4); j > 0; j--) {
        const at = Math.floor(next() * damaged.length);
        const byte = alphabet[Math.floor(next() * alphabet.length)]!;
        const action = next();
        if (action < 0.4) damaged[at] = byte;
        else if (action < 0.7) damaged.splice(at, 0, byte);
        else damaged.splice(at, 1 + Math.floor(next() * 8));
      }
      const input = Buffer.from(damaged);
      try {
        for (const part of parseMultipart(input, boundary, roomy).files) {
          expect(part.bytes.buffer).toBe(input.buffer);
          expect(part.bytes.byteOffset).toBeGreaterThanOrEqual(input.byteOffset);
          expect(part.bytes.byteOffset + part.bytes.length).toBeLessThanOrEqual(input.byteOffset + input.length);
        }
      } catch (error) {
        expect(error).toBeInstanceOf(MultipartError);
        refused++;
      }
    }
    // The damage reaches the structure often enough for the refusals to be tested too.
    expect(refused).toBeGreaterThan(100);
  });
});
