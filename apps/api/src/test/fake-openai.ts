import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { cliPort } from './cli.js';

/**
 * An OpenAI-compatible server on loopback: streaming and non-streaming chat completions, transcriptions, models.
 * Deterministic answers that show what the model was given (question, images, document pages, sources), and
 * commands in the question to misbehave on purpose: #fail500, #failmid, #hang, #slow, #long, #tokensN (N words). A translation answers
 * "(Language) " followed by the text it was given.
 * Run it by hand: `npm run fake-ai` (port 4010), then OPENAI_COMPATIBLE_BASE_URL=http://127.0.0.1:4010/v1. It also
 * serves a few demo web pages and a SearXNG-style search over them (see DEMO_PAGES).
 */
export type RecordedRequest = { path: string; authorization: string | undefined; body: any };

type Part = { type: string; text?: string; image_url?: { url: string } };
type Msg = { role: string; content: string | Part[] };

function textOf(content: string | Part[]) {
  return typeof content === 'string'
    ? content
    : content
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('\n');
}

export function answerFor(messages: Msg[]): string {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => textOf(m.content))
    .join('\n');
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const question = lastUser ? textOf(lastUser.content).trim() : '';
  if (/conversation title/i.test(system)) return 'Test chat title';
  if (/^Suggest/i.test(system) || /follow-up questions/i.test(system)) return 'First idea\nSecond idea\nThird idea';
  const translation = /^Translate the text below into ([^.]+)\./.exec(system);
  if (translation) return `(${translation[1]}) ${question.replace(/^<input>\s*|\s*<\/input>$/g, '')}`;
  const lines = [`You asked: ${question.replace(/#\w+/g, '').trim()}`];
  const images = Array.isArray(lastUser?.content) ? lastUser.content.filter((p) => p.type === 'image_url').length : 0;
  if (images) lines.push(`I can see ${images} image(s).`);
  const page = /\[Page (\d+)\]\s*([^\n[]{0,80})/.exec(system);
  if (page) lines.push(`From the document (p. ${page[1]}): ${page[2]!.trim()}`);
  const source = /^\[(\d+)\] ([^\n]+)/m.exec(system);
  if (source) lines.push(`According to [${source[1]}], ${source[2]!.slice(0, 60)}.`);
  const pageText = /<page title="([^"]*)"/.exec(system);
  if (pageText) lines.push(`The page is titled "${pageText[1]}".`);
  if (/#long/.test(question)) lines.push(Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '));
  const count = /#tokens(\d{1,5})/.exec(question);
  if (count) lines.push(Array.from({ length: Number(count[1]) }, (_, i) => `w${i}`).join(' '));
  return lines.join('\n\n');
}

/**
 * A few web pages for the demo, served at /pages/<slug> and found by /search (SearXNG's JSON format): with them a
 * person can try "Ask For Web" and "chat with a page" without the internet (the API must be allowed to read this
 * loopback host: FETCH_ALLOW_HOSTS=127.0.0.1:<port>).
 */
export const DEMO_PAGES: Record<string, { title: string; paragraphs: string[] }> = {
  'tidal-energy': {
    title: 'Tidal energy explained',
    paragraphs: [
      'Tidal power converts the energy of rising and falling seas into electricity. Barrages and underwater turbines are the two main designs; the largest plant, Sihwa Lake in South Korea, produces 254 megawatts.',
      'Unlike wind and sunshine, tides are predictable years ahead, which makes them attractive to grid operators.',
    ],
  },
  mars: {
    title: 'Mars facts',
    paragraphs: [
      'Mars is the fourth planet from the Sun and has two small moons, Phobos and Deimos.',
      'Olympus Mons on Mars is the tallest volcano in the solar system, about 22 kilometres high.',
    ],
  },
  'sourdough-bread': {
    title: 'Baking sourdough bread',
    paragraphs: [
      'Sourdough rises with a starter of wild yeast and lactic acid bacteria instead of baker’s yeast.',
      'A long, cool fermentation gives the crumb its open texture and the crust its slight sourness.',
    ],
  },
};

/** The demo pages that share a word with the query first, then the others: every search finds something. */
export function searchDemoPages(origin: string, query: string) {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  const score = (page: { title: string; paragraphs: string[] }) => {
    const text = `${page.title} ${page.paragraphs.join(' ')}`.toLowerCase();
    return words.filter((w) => text.includes(w)).length;
  };
  return Object.entries(DEMO_PAGES)
    .map(([slug, page]) => ({ slug, page, score: score(page) }))
    .sort((a, b) => b.score - a.score)
    .map(({ slug, page }) => ({ title: page.title, url: `${origin}/pages/${slug}`, content: page.paragraphs[0]! }));
}

const tokens = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

async function readBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeOpenAI(options: { port?: number; host?: string; tokenDelayMs?: number } = {}) {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = await readBody(req);
    const isJson = (req.headers['content-type'] ?? '').includes('json');
    const body = isJson && raw.length ? JSON.parse(raw.toString('utf8')) : { bytes: raw.length };
    requests.push({ path: url.pathname, authorization: req.headers.authorization, body });

    if (url.pathname === '/search') {
      // A SearXNG instance for the demo (SEARCH_PROVIDER=searxng, SEARCH_URL=<this server>): its own pages.
      const host = `http://${req.headers.host ?? '127.0.0.1'}`;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          query: url.searchParams.get('q') ?? '',
          results: searchDemoPages(host, url.searchParams.get('q') ?? ''),
        }),
      );
      return;
    }
    const demoPage = url.pathname.startsWith('/pages/') ? DEMO_PAGES[url.pathname.slice('/pages/'.length)] : undefined;
    if (demoPage) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="en"><head><title>${demoPage.title}</title></head><body><header><nav><a href="/">Demo web</a></nav></header>` +
          `<article><h1>${demoPage.title}</h1>${demoPage.paragraphs.map((p) => `<p>${p}</p>`).join('')}</article>` +
          '<footer>Parley demo pages</footer></body></html>',
      );
      return;
    }
    if (url.pathname.endsWith('/models')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'parley' }] }));
      return;
    }
    if (url.pathname.endsWith('/audio/transcriptions')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ text: `Transcribed ${raw.length} bytes of audio.` }));
      return;
    }
    if (!url.pathname.endsWith('/chat/completions')) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }

    const messages = (body.messages ?? []) as Msg[];
    const question = textOf([...messages].reverse().find((m) => m.role === 'user')?.content ?? '');
    if (question.includes('#fail500')) {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
      return;
    }
    if (question.includes('#hang')) return; // never answers; the caller's timeout must end it

    const answer = answerFor(messages);
    const id = `chatcmpl-${Date.now()}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = {
      prompt_tokens: Math.ceil(JSON.stringify(messages).length / 4),
      completion_tokens: tokens(answer).length,
    };
    if (!body.stream) {
      // `#slowtitle`: answers that are not streamed (a conversation's title) take half a second.
      if (question.includes('#slowtitle')) await new Promise((r) => setTimeout(r, 500));
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: object, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const delay = question.includes('#slow') ? 150 : (options.tokenDelayMs ?? 0);
    send(chunk({ role: 'assistant', content: '' }));
    const parts = tokens(answer);
    for (let i = 0; i < parts.length; i += 1) {
      if (res.destroyed) return;
      if (question.includes('#failmid') && i === 3) {
        await new Promise((r) => setTimeout(r, 50)); // let the first tokens reach the client
        res.socket?.destroy(); // then the connection dies mid-answer
        return;
      }
      send(chunk({ content: parts[i] }));
      if (delay) await new Promise((r) => setTimeout(r, delay));
    }
    send(chunk({}, 'stop'));
    send({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
    res.end('data: [DONE]\n\n');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = cliPort(4010);
  const fake = await startFakeOpenAI({ port, tokenDelayMs: Number(process.env.TOKEN_DELAY_MS ?? 30) });
  const origin = `http://127.0.0.1:${fake.port}`;
  console.warn(
    `Fake OpenAI-compatible server on ${fake.baseUrl}, with demo pages at ${origin}/pages/ and a search at ${origin}/search.\n` +
      `Start Parley with: OPENAI_COMPATIBLE_BASE_URL=${fake.baseUrl} OPENAI_COMPATIBLE_MODEL=demo ` +
      `SEARCH_PROVIDER=searxng SEARCH_URL=${origin} FETCH_ALLOW_HOSTS=127.0.0.1:${fake.port} npm start`,
  );
}
