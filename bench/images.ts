// Images: what Parley adds to an image request beyond the provider, through `POST /api/ai/imageGeneration` and
// `POST /api/ai/imageEdit`. A real API server process on 127.0.0.1 (PostgreSQL: a fresh database for the run, dropped
// afterwards; files in a temp DATA_DIR) whose image providers are the loopback fakes (apps/api/src/test/fake-images.ts)
// in a child process, drawing photo-like 2 MP pictures (1920 × 1080; grain, not flat colour) and answering a repeated
// request from memory, so that the fake's own drawing time stays out of the figures.
//   1. latency: four 2 MP cases, each through Parley and straight to the provider (the HTTP requests Parley's adapter
//      makes, with the same bytes), interleaved; p50/p99 of each and of the difference (what Parley adds: HTTP,
//      auth, multipart, credits, the checks and metadata stripping of every image, thumbnails, storage, rows);
//   2. memory: 1 and 20 background removals at once of uploaded 2 MP JPEGs, then of 25 MP JPEGs; the server's RSS
//      sampled every 10 ms (peak over the RSS just before), the time they took;
//   3. the limiter alone: 20 cut-outs of 25 MP normalized at once with the server's limit of two images at a time,
//      and with none (a limit of 20), each in a fresh process: peak RSS and time;
//   4. the image work of one 2 MP image, step by step, in this process: the floor under the figures of 1.
//
//   node --import tsx bench/images.ts [--requests 50] [--warmup 5] [--concurrent 20] [--skip-large 1]
//                                      [--baseline-dir ../parley-before] [--cases 1,2,3,4] [--provider-ms 0]
//   --baseline-dir: another copy of the repository (a git worktree with node_modules linked): its server, its image
//   code and its limiter are measured beside this tree's, interleaved, so that both see the same machine load.
//   BENCH_PG_ADMIN_URL=postgres://user@127.0.0.1:5432/test   (default: tries users postgres, then root)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import pg from 'pg';
import sharp from 'sharp';
import type * as processing from '../apps/api/src/modules/images/processing.js';
import { createBenchDatabase, signIn } from './accounts.js';
import {
  cpuMs,
  minorFaults,
  freePort,
  isMain,
  loadSummary,
  LOOPBACK,
  makeTempDir,
  numberOption,
  onCleanup,
  removeTempDir,
  repoRoot,
  rssKiB,
  runAsScript,
  sleep,
  startHelperChild,
  startServer,
  table,
  waitForHealth,
  type ServerProcess,
} from './lib.js';

const USER = { email: 'bench-images@example.com', password: 'bench-password-123', name: 'Bench' };
/** What the fake draws for every generation: 2.07 MP. Uploads are a camera's 4:3 (2.0 MP) and 25 MP. */
const GENERATED = { width: 1920, height: 1080 };
const UPLOAD = { width: 1632, height: 1224 };
const LARGE_UPLOAD = { width: 6120, height: 4080 };
const TARGET_ADDED_MS = 15;
/** As the service words it (images.service.ts INSTRUCTIONS.removeText), so both sides ask the fake the same. */
const REMOVE_TEXT =
  'Remove all text, letters, captions, logos with lettering and watermarks from the image, and fill where they were so that it matches the surroundings. Change nothing else.';

// ---------------------------------------------------------------------------------------------------------------
// Numbers.

/** Nearest-rank percentile. */
function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const ms = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

// ---------------------------------------------------------------------------------------------------------------
// The fake image providers in a child process (own event loop and CPU, like a real provider).

type FakeReady = { url: string; deliveryUrl: string; env: Record<string, string> };

/**
 * `--provider-ms`: how long the fake takes to answer each provider request (0: at once, from memory). Real providers
 * take seconds; Parley's work that runs while they do (the upload's check) is hidden by any time they take beyond it.
 */
const providerMs = () => numberOption('provider-ms', 'BENCH_IMAGES_PROVIDER_MS', 0);

async function runFakeChild(): Promise<void> {
  const { startFakeImages } = await import('../apps/api/src/test/fake-images.js');
  const fake = await startFakeImages({
    host: LOOPBACK,
    photo: true,
    size: GENERATED,
    memo: true,
    delayMs: providerMs(),
  });
  const stop = () => void fake.close().finally(() => process.exit(0));
  // The fake keeps every request (bodies summarised); not needed here.
  setInterval(() => (fake.requests.length = 0), 1000).unref();
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.send?.({ ready: { url: fake.url, deliveryUrl: fake.deliveryUrl, env: fake.env() } satisfies FakeReady });
}

type Fake = FakeReady & { child: ChildProcess; stop: () => Promise<void> };

async function startFake(): Promise<Fake> {
  const args = ['--fake-child', '--provider-ms', String(providerMs())];
  const { child, ready, stop } = await startHelperChild<FakeReady>('bench/images.ts', args, {
    what: 'fake providers',
  });
  return { ...ready, child, stop };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP, timed: request written → last byte of the answer.

type Answer = { status: number; body: Buffer; ms: number };

function send(
  url: string,
  agent: http.Agent,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: http.OutgoingHttpHeaders; body?: Buffer } = {},
  timeoutMs = 300_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      agent,
      headers: { ...headers, ...(body ? { 'content-length': body.length } : {}) },
    });
    const timer = setTimeout(() => request.destroy(new Error(`${method} ${url}: timeout`)), timeoutMs);
    const started = performance.now();
    request.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started });
      });
      response.once('error', reject);
    });
    request.end(body);
  });
}

function json<T>(answer: Answer, what: string): T {
  if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.body.toString('utf8', 0, 400)}`);
  return JSON.parse(answer.body.toString('utf8')) as T;
}

type FilePart = { field: string; name: string; type: string; bytes: Uint8Array };

/** multipart/form-data, fields before files (as the web app sends them). */
function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----parley-bench-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      Buffer.from(f.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------------------------------------------------------
// The cases: one operation through Parley, and the same straight to the provider.

type ApiVersion = {
  id: string;
  parentId: string | null;
  mediaType: string;
  width: number;
  height: number;
  bytes: number;
};
type ApiImage = { id: string; versions: ApiVersion[] };
type Made = { version: ApiVersion; upload?: ApiVersion };

type Case = {
  label: string;
  /** Through Parley: POST, answered with the version made (and the upload kept first, for edits of a file). */
  api: (agent: http.Agent) => Promise<{ answer: Answer; made: Made }>;
  /** Straight to the provider: every request Parley's adapter makes, the image's bytes at the end. */
  direct: (agents: { provider: http.Agent; delivery: http.Agent }) => Promise<{ ms: number; image: Buffer }>;
};

type Setup = { api: string; token: string; fake: Fake };

function apiPost(setup: Setup, path: string, fields: Record<string, string>, files: FilePart[] = []) {
  const { body, contentType } = multipart(fields, files);
  return (agent: http.Agent) =>
    send(`${setup.api}${path}`, agent, {
      method: 'POST',
      headers: { authorization: `Bearer ${setup.token}`, 'content-type': contentType },
      body,
    });
}

function generationCase(setup: Setup, label: string, model: string, prompt: string, direct: Case['direct']): Case {
  const post = apiPost(setup, '/api/ai/imageGeneration', { prompt, model, aspectRatio: '16:9', count: '1' });
  return {
    label,
    async api(agent) {
      const answer = await post(agent);
      const data = json<{ data: { images: ApiImage[] } }>(answer, label).data;
      return { answer, made: { version: data.images[0]!.versions[0]! } };
    },
    direct,
  };
}

function editCase(
  setup: Setup,
  label: string,
  fields: Record<string, string>,
  upload: Uint8Array,
  direct: Case['direct'],
): Case {
  const post = apiPost(setup, '/api/ai/imageEdit', fields, [
    { field: 'image', name: 'photo.jpg', type: 'image/jpeg', bytes: upload },
  ]);
  return {
    label,
    async api(agent) {
      const answer = await post(agent);
      const data = json<{ data: { image: ApiImage; version: ApiVersion } }>(answer, label).data;
      const kept = data.image.versions.find((v) => v.id === data.version.parentId);
      return { answer, made: { version: data.version, ...(kept ? { upload: kept } : {}) } };
    },
    direct,
  };
}

const fakeKeys = (fake: Fake) => ({
  sd: { authorization: `Bearer ${fake.env.OPENAI_COMPATIBLE_IMAGES_API_KEY}` },
  fal: { authorization: `Key ${fake.env.FAL_API_KEY}` },
});

/** POST to fal, then the result from its delivery host (fal answers with a URL). */
async function falDirect(
  fake: Fake,
  agents: { provider: http.Agent; delivery: http.Agent },
  model: string,
  request: Record<string, unknown>,
) {
  const started = performance.now();
  const answer = await send(`${fake.env.FAL_BASE_URL}/${model}`, agents.provider, {
    method: 'POST',
    headers: { ...fakeKeys(fake).fal, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(request)),
  });
  const data = json<{ images?: { url: string }[]; image?: { url: string } }>(answer, `fal ${model}`);
  const url = data.image?.url ?? data.images?.[0]?.url;
  if (!url) throw new Error(`fal ${model}: no image in the answer`);
  const image = await send(url, agents.delivery);
  if (image.status !== 200) throw new Error(`fal delivery: HTTP ${image.status}`);
  return { ms: performance.now() - started, image: image.body };
}

function buildCases(setup: Setup, upload: Buffer, sentUpload: () => Buffer): Case[] {
  const { fake } = setup;
  const sd = fakeKeys(fake).sd;
  return [
    generationCase(
      setup,
      'generate, PNG from the provider (SD server)',
      'LOCAL_STABLE_DIFFUSION',
      'a lighthouse on a cliff at dusk',
      async (agents) => {
        const started = performance.now();
        const answer = await send(`${fake.env.OPENAI_COMPATIBLE_IMAGES_BASE_URL}/images/generations`, agents.provider, {
          method: 'POST',
          headers: { ...sd, 'content-type': 'application/json' },
          body: Buffer.from(
            JSON.stringify({
              model: fake.env.OPENAI_COMPATIBLE_IMAGES_MODEL,
              prompt: 'a lighthouse on a cliff at dusk',
              n: 1,
              size: '1344x768',
              response_format: 'b64_json',
            }),
          ),
        });
        const b64 = json<{ data: { b64_json: string }[] }>(answer, 'SD generation').data[0]!.b64_json;
        return { ms: performance.now() - started, image: Buffer.from(b64, 'base64') };
      },
    ),
    generationCase(
      setup,
      'generate, JPEG from the provider (fal FLUX dev)',
      'FAL_FLUX_DEV',
      'a red kite over hills',
      (agents) =>
        falDirect(fake, agents, 'fal-ai/flux/dev', {
          prompt: 'a red kite over hills',
          image_size: 'landscape_16_9',
          num_images: 1,
          enable_safety_checker: true,
        }),
    ),
    editCase(
      setup,
      'remove background of an uploaded JPEG (fal BiRefNet)',
      { operation: 'removeBackground', model: 'FAL_BACKGROUND_REMOVAL' },
      upload,
      (agents) =>
        falDirect(fake, agents, 'fal-ai/birefnet', {
          num_images: 1,
          image_url: `data:image/jpeg;base64,${sentUpload().toString('base64')}`,
          output_format: 'png',
        }),
    ),
    editCase(
      setup,
      'remove text from an uploaded JPEG (SD server edit)',
      { operation: 'removeText', model: 'LOCAL_STABLE_DIFFUSION' },
      upload,
      async (agents) => {
        const started = performance.now();
        const { body, contentType } = multipart(
          { model: fake.env.OPENAI_COMPATIBLE_IMAGES_MODEL!, prompt: REMOVE_TEXT, n: '1' },
          [{ field: 'image', name: 'blob', type: 'image/jpeg', bytes: sentUpload() }],
        );
        // The AI SDK sends the fields after the image; the order does not matter to the server.
        const answer = await send(`${fake.env.OPENAI_COMPATIBLE_IMAGES_BASE_URL}/images/edits`, agents.provider, {
          method: 'POST',
          headers: { ...sd, 'content-type': contentType },
          body,
        });
        const b64 = json<{ data: { b64_json: string }[] }>(answer, 'SD edit').data[0]!.b64_json;
        return { ms: performance.now() - started, image: Buffer.from(b64, 'base64') };
      },
    ),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The servers measured: this tree's, and with --baseline-dir another copy of the repository's, side by side.

type Tree = { label: string; root: string };

type Target = Setup & { tree: Tree; server: ServerProcess; pid: number; cases: Case[] };

/** `--baseline-dir <path>` / BENCH_IMAGES_BASELINE_DIR: a copy of the repository (a worktree with node_modules). */
function baselineDirOption(): string | null {
  const argv = process.argv.slice(2);
  const at = argv.findIndex((a) => a === '--baseline-dir' || a.startsWith('--baseline-dir='));
  const raw =
    at < 0 ? process.env.BENCH_IMAGES_BASELINE_DIR : argv[at]!.includes('=') ? argv[at]!.slice(15) : argv[at + 1];
  return raw?.trim() ? path.resolve(raw.trim()) : null;
}

function serverEnv(fake: Fake): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    AI_TIMEOUT_SECONDS: '300',
    REQUEST_TIMEOUT_SECONDS: '600',
    ...fake.env,
    // Nothing else from the caller's shell: no chat provider, no search, a generated APP_SECRET (empty = unset).
    OPENAI_COMPATIBLE_BASE_URL: '',
    OPENAI_COMPATIBLE_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    GOOGLE_GENERATIVE_AI_API_KEY: '',
    DEEPSEEK_API_KEY: '',
    SEARCH_PROVIDER: '',
    SEARCH_URL: '',
    SEARCH_API_KEY: '',
    S3_BUCKET: '',
    S3_ENDPOINT: '',
    S3_ACCESS_KEY_ID: '',
    S3_SECRET_ACCESS_KEY: '',
    S3_PREFIX: '',
    APP_SECRET: '',
    ALLOW_PRIVATE_BASE_URLS: 'false',
  };
}

/** A server of `tree` on its own fresh PostgreSQL database and DATA_DIR, with a signed-in user who can pay. */
async function startTarget(tree: Tree, index: number, fake: Fake): Promise<Omit<Target, 'cases'>> {
  const created = await createBenchDatabase(index ? `images${index}` : 'images');
  if ('error' in created) throw new Error(`no PostgreSQL reachable (needed for this benchmark): ${created.error}`);
  const dataDir = makeTempDir(`images${index || ''}`);
  const server = startServer({
    dataDir,
    port: await freePort(),
    watchdog: true,
    databaseUrl: created.url,
    extraEnv: serverEnv(fake),
    root: tree.root,
  });
  onCleanup(async () => {
    await server.stop();
    await created.drop();
    removeTempDir(dataDir);
  });
  await waitForHealth(server);
  const token = await signIn(server, dataDir, USER);
  // Image models are paid capabilities: a paid plan (no free-tier daily cap) and credits, raised as an administrator
  // would (with their ledger row), so that metering stays on the path measured.
  const db = new pg.Client({ connectionString: created.url, connectionTimeoutMillis: 3000 });
  await db.connect();
  try {
    const updated = await db.query(
      `WITH w AS (
         UPDATE wallets SET plan = 'pro', basic_credit = basic_credit + 1000000
          WHERE user_id = (SELECT id FROM users WHERE email = $1) RETURNING id, user_id
       )
       INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind) SELECT id, user_id, 'basic', 1000000, 'adjust' FROM w`,
      [USER.email],
    );
    if (updated.rowCount !== 1) throw new Error('could not raise the benchmark user’s credits');
  } finally {
    await db.end();
  }
  return { tree, server, pid: server.child.pid!, api: server.baseUrl, token, fake };
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Latency.

type TargetLatency = {
  api: number[];
  /** API − direct of the same round. */
  paired: number[];
  /** GET of the version's full bytes right after (what the editor loads next). */
  file: number[];
  /** GET of its thumbnail after the file: made after the answer, it may still be in the making. */
  thumb: number[];
  /**
   * Server CPU per round, ms (from /proc, 10 ms ticks: a mean over the rounds): the API request, then the GETs of its
   * file and its thumbnail, so that the work done after the answer (the thumbnail) is counted.
   */
  serverCpuMs: number;
  serverFaults: number;
  out: string;
};

type CaseResult = { label: string; direct: number[]; provider: string; targets: TargetLatency[] };

/** Every order of `n` jobs (their indexes), in a fixed sequence. */
function orders(n: number): number[][] {
  const all: number[][] = [];
  const build = (prefix: number[], rest: number[]) => {
    if (!rest.length) all.push(prefix);
    rest.forEach((j, at) => build([...prefix, j], [...rest.slice(0, at), ...rest.slice(at + 1)]));
  };
  build([], [...Array(n).keys()]);
  return all;
}

/** This process's garbage collected (V8's `gc`, made callable here), then 10 ms for what other processes finish. */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
async function settle() {
  collect();
  await sleep(10);
}

async function measureLatency(targets: Target[], n: number, warmup: number): Promise<CaseResult[]> {
  const agents = {
    api: targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 })),
    file: targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 })),
    provider: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    delivery: new http.Agent({ keepAlive: true, maxSockets: 1 }),
  };
  const cases = targets[0]!.cases;
  const results: CaseResult[] = cases.map((c) => ({
    label: c.label,
    direct: [],
    provider: '',
    targets: targets.map(() => ({
      api: [],
      paired: [],
      file: [],
      thumb: [],
      serverCpuMs: 0,
      serverFaults: 0,
      out: '',
    })),
  }));
  try {
    for (let i = 0; i < warmup + n; i++) {
      const measured = i >= warmup;
      for (const [k, c] of cases.entries()) {
        const r = results[k]!;
        const times: number[] = [];
        const jobs = targets.map((target, t) => async () => {
          const mine = r.targets[t]!;
          const cpu0 = cpuMs(target.pid);
          const faults0 = minorFaults(target.pid);
          const { answer, made } = await target.cases[k]!.api(agents.api[t]!);
          const file = await send(`${target.api}/api/images/file/${made.version.id}`, agents.file[t]!, {
            headers: { authorization: `Bearer ${target.token}` },
          });
          if (file.status !== 200) throw new Error(`${c.label}: GET file HTTP ${file.status}`);
          const thumb = await send(`${target.api}/api/images/file/${made.version.id}?size=thumb`, agents.file[t]!, {
            headers: { authorization: `Bearer ${target.token}` },
          });
          if (thumb.status !== 200) throw new Error(`${c.label}: GET thumbnail HTTP ${thumb.status}`);
          if (measured) mine.serverCpuMs += cpuMs(target.pid) - cpu0;
          if (measured) mine.serverFaults += minorFaults(target.pid) - faults0;
          if (measured) mine.file.push(file.ms);
          if (measured) mine.thumb.push(thumb.ms);
          mine.out = `${made.version.mediaType.replace('image/', '')} ${made.version.width}×${made.version.height}, ${(made.version.bytes / 1024).toFixed(0)} KiB`;
          times[t] = answer.ms;
        });
        jobs.push(async () => {
          const { ms: took, image } = await c.direct({ provider: agents.provider, delivery: agents.delivery });
          if (!r.provider) {
            const meta = await sharp(image).metadata();
            r.provider = `${meta.format} ${meta.width}×${meta.height}${meta.hasAlpha ? ' RGBA' : ''}, ${(image.length / 1024).toFixed(0)} KiB`;
          }
          times[targets.length] = took;
        });
        // The jobs in every order in turn, so that each runs as often right after each other one: what a request
        // leaves behind (the client's collection of a 7 MB answer, a server's files) weighs on all alike. A rotation of
        // one order does not: each job then always follows the same one. Before each, this process collects its
        // garbage and the machine is given a moment, so that what the one before left is not in the next one's time.
        const order = orders(jobs.length)[(i + k) % orders(jobs.length).length]!;
        for (const j of order) {
          await settle();
          await jobs[j]!();
        }
        if (!measured) continue;
        const direct = times[targets.length]!;
        r.direct.push(direct);
        for (const [t, mine] of r.targets.entries()) {
          mine.api.push(times[t]!);
          mine.paired.push(times[t]! - direct);
        }
      }
    }
  } finally {
    for (const agent of [...agents.api, ...agents.file, agents.provider, agents.delivery]) agent.destroy();
  }
  for (const r of results)
    for (const mine of r.targets) {
      mine.serverCpuMs /= n;
      mine.serverFaults /= n;
    }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Memory: K edits at once.

type BurstResult = {
  target: string;
  label: string;
  k: number;
  ok: number;
  errors: string[];
  rssBeforeKiB: number;
  rssPeakKiB: number;
  wallMs: number;
  latencies: number[];
};

async function burst(target: Target, label: string, upload: Buffer, k: number): Promise<BurstResult> {
  const { pid } = target;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const post = apiPost(
    target,
    '/api/ai/imageEdit',
    { operation: 'removeBackground', model: 'FAL_BACKGROUND_REMOVAL' },
    [{ field: 'image', name: 'photo.jpg', type: 'image/jpeg', bytes: upload }],
  );
  await sleep(1000); // let the previous step's work end
  const rssBeforeKiB = rssKiB(pid);
  let rssPeakKiB = rssBeforeKiB;
  const sampler = setInterval(() => (rssPeakKiB = Math.max(rssPeakKiB, rssKiB(pid))), 10);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: k }, () =>
      post(agent).catch((error: Error) => ({ status: 0, body: Buffer.from(error.message), ms: NaN })),
    ),
  );
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  rssPeakKiB = Math.max(rssPeakKiB, rssKiB(pid));
  agent.destroy();
  const failed = answers.filter((a) => a.status !== 200);
  return {
    target: target.tree.label,
    label,
    k,
    ok: answers.length - failed.length,
    errors: [...new Set(failed.map((a) => `${a.status} ${a.body.toString('utf8', 0, 160)}`))],
    rssBeforeKiB,
    rssPeakKiB,
    wallMs,
    latencies: answers.filter((a) => a.status === 200).map((a) => a.ms),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. The limiter alone: 25 MP cut-outs through normalizeOutput and their thumbnail (made apart when the code measured
// leaves it for after the answer: the decode that proves the copy), all started at once, each run in a fresh process
// (a process keeps memory it has used, so runs in one process would start from each other's peak).

type LimiterResult = {
  target: string;
  concurrency: number;
  images: number;
  rssBeforeKiB: number;
  rssPeakKiB: number;
  wallMs: number;
};

/** A tree's image code (this tree's, or the baseline's), loaded by path. */
const processingOf = (root: string) =>
  import(pathToFileURL(path.join(root, 'apps/api/src/modules/images/processing.ts')).href) as Promise<
    typeof processing
  >;

async function runLimiterChild(): Promise<void> {
  const { createImageProcessing } = await processingOf(process.env.BENCH_ROOT!);
  const concurrency = Number(process.env.BENCH_LIMIT);
  const images = Number(process.env.BENCH_COUNT);
  const cutout = readFileSync(process.env.BENCH_INPUT!);
  const work = createImageProcessing({ concurrency });
  await sleep(300);
  const rssBeforeKiB = process.memoryUsage.rss() / 1024;
  let rssPeakKiB = rssBeforeKiB;
  const sampler = setInterval(() => (rssPeakKiB = Math.max(rssPeakKiB, process.memoryUsage.rss() / 1024)), 10);
  const started = performance.now();
  // Only each result's type is kept (the results themselves would hold 20 × 60 MB to the end).
  const types = await Promise.all(
    Array.from({ length: images }, async () => {
      const out = await work.normalizeOutput(cutout);
      if (!(out as { thumbnail?: Buffer | null }).thumbnail) await work.thumbnail(out.bytes);
      return out.mediaType;
    }),
  );
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  if (types.some((type) => type !== 'image/png')) throw new Error('the cut-out did not stay a PNG');
  process.send?.({ target: '', concurrency, images, rssBeforeKiB, rssPeakKiB, wallMs } satisfies LimiterResult);
}

async function limiterAlone(trees: Tree[], images: number, cutoutFile: string): Promise<LimiterResult[]> {
  const results: LimiterResult[] = [];
  for (const concurrency of [2, images]) {
    for (const tree of trees) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--import', './bench/parent-watchdog.mjs', 'bench/images.ts', '--limiter-child'],
        {
          cwd: repoRoot,
          env: {
            ...process.env,
            BENCH_ROOT: tree.root,
            BENCH_LIMIT: String(concurrency),
            BENCH_COUNT: String(images),
            BENCH_INPUT: cutoutFile,
          },
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        },
      );
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
      const stop = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        return Promise.resolve();
      };
      const unregister = onCleanup(stop);
      try {
        const result = await new Promise<LimiterResult>((resolve, reject) => {
          child.on('message', (message: LimiterResult) => resolve(message));
          child.once('exit', (code) => reject(new Error(`limiter run exited (${code}):\n${output}`)));
        });
        results.push({ ...result, target: tree.label });
      } finally {
        unregister();
        await stop();
      }
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// 4. The image work of one 2 MP image, step by step, in this process (one image at a time): the floor under the
// figures above, free of HTTP, the database and the provider.

type Step = { label: string; target: string; times: number[] };

async function imageSteps(
  trees: Tree[],
  inputs: { upload: Buffer; providerJpeg: Buffer; providerPng: Buffer; cutout: Buffer },
): Promise<Step[]> {
  const all: { step: Step; run: (given: Buffer) => Promise<unknown>; input: Buffer }[][] = [];
  for (const tree of trees) {
    const work = (await processingOf(tree.root)).createImageProcessing({ concurrency: 1 });
    /** What the service keeps of each image: the image and its thumbnail (made apart when it does not come with it). */
    const kept = async (made: Promise<{ bytes: Buffer }>) => {
      const image = await made;
      if (!(image as { thumbnail?: Buffer }).thumbnail) await work.thumbnail(image.bytes);
    };
    // A provider's answer is the server's to give up (normalizeOutput's `reuse`): each round has its own copy of it,
    // made before the clock starts.
    const own = { reuse: true };
    const steps: [string, (given: Buffer) => Promise<unknown>, Buffer][] = [
      ['readUpload: phone JPEG 1632×1224 (Exif, GPS)', (b) => kept(work.readUpload(b)), inputs.upload],
      ['normalizeOutput: provider JPEG 1920×1080', (b) => kept(work.normalizeOutput(b, own)), inputs.providerJpeg],
      [
        'normalizeOutput: provider PNG 1920×1080, opaque',
        (b) => kept(work.normalizeOutput(b, own)),
        inputs.providerPng,
      ],
      ['normalizeOutput: cut-out PNG 1632×1224, transparent', (b) => kept(work.normalizeOutput(b, own)), inputs.cutout],
      // What is done before the answer (the rest, the thumbnail and the decode that proves a clean copy, after it).
      ['  of which before the answer: provider JPEG', (b) => work.normalizeOutput(b, own), inputs.providerJpeg],
      ['  of which before the answer: provider PNG', (b) => work.normalizeOutput(b, own), inputs.providerPng],
      ['  of which before the answer: cut-out PNG', (b) => work.normalizeOutput(b, own), inputs.cutout],
      ['reference: decode the phone JPEG in full', (b) => sharp(b).raw().toBuffer(), inputs.upload],
      ['reference: decode the provider PNG in full', (b) => sharp(b).raw().toBuffer(), inputs.providerPng],
    ];
    all.push(steps.map(([label, run, input]) => ({ step: { label, target: tree.label, times: [] }, run, input })));
  }
  for (let round = 0; round < 3 + 15; round++) {
    for (let s = 0; s < all[0]!.length; s++) {
      for (let t = 0; t < all.length; t++) {
        const { step, run, input } = all[(t + round) % all.length]![s]!;
        const given = Buffer.from(input);
        const started = performance.now();
        await run(given);
        if (round >= 3) step.times.push(performance.now() - started);
      }
    }
  }
  // Each step's rows together.
  return all[0]!.flatMap((_, s) => all.map((steps) => steps[s]!.step));
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs: photographs as a phone takes them (JPEG, quality 90, Exif with the camera and GPS).

async function phoneJpeg(width: number, height: number, prompt: string): Promise<Buffer> {
  const { drawImage } = await import('../apps/api/src/test/fake-images.js');
  const png = await drawImage(prompt, width, height, 'png', { photo: true });
  return sharp(png, { limitInputPixels: false })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Parley Phone', Model: 'P1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '52/1 22/1 3400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '4/1 53/1 5700/100',
      },
    })
    .toBuffer();
}

/** A subject on transparency at `width` × `height`: what a background removal returns (a PNG with alpha). */
async function cutoutPng(width: number, height: number): Promise<Buffer> {
  const { drawImage, removeBackground } = await import('../apps/api/src/test/fake-images.js');
  return removeBackground(await drawImage('a green circle', width, height, 'png', { photo: true }));
}

/** What providers send back, drawn by the fake at 1920 × 1080 (PNG: opaque RGB; JPEG: quality 80). */
async function providerImage(format: 'png' | 'jpeg'): Promise<Buffer> {
  const { drawImage } = await import('../apps/api/src/test/fake-images.js');
  return drawImage('a lighthouse on a cliff at dusk', GENERATED.width, GENERATED.height, format, { photo: true });
}

// ---------------------------------------------------------------------------------------------------------------

export type ImagesBenchResult = {
  latency: CaseResult[];
  bursts: BurstResult[];
  limiter: LimiterResult[];
  steps: Step[];
  verdicts: { target: string; measured: string; pass: boolean }[];
};

export async function runImages(): Promise<ImagesBenchResult> {
  const began = performance.now();
  const n = numberOption('requests', 'BENCH_IMAGES_REQUESTS', 50);
  const warmup = numberOption('warmup', 'BENCH_IMAGES_WARMUP', 5);
  const k = numberOption('concurrent', 'BENCH_IMAGES_CONCURRENT', 20);
  const skipLarge = numberOption('skip-large', 'BENCH_IMAGES_SKIP_LARGE', 0) > 0;
  const baselineDir = baselineDirOption();
  // --cases 1,3: only those of the four latency cases (numbered from 1).
  const casesArg = process.argv.find((a, i, all) => all[i - 1] === '--cases' || a.startsWith('--cases='));
  const chosen = casesArg?.replace('--cases=', '').split(',').map(Number);
  const only = (i: number) => !chosen || chosen.includes(i + 1);
  const trees: Tree[] = [
    { label: 'this tree', root: repoRoot },
    ...(baselineDir ? [{ label: 'baseline', root: baselineDir }] : []),
  ];

  console.log(
    `\n== Images: POST /api/ai/imageGeneration and /api/ai/imageEdit vs. straight to the loopback providers ==`,
  );
  console.log(`  before: ${loadSummary()}`);
  if (baselineDir) console.log(`  baseline: ${baselineDir} (its server measured beside this tree's, interleaved)`);
  console.log(`  the fake providers answer ${providerMs() ? `after ${providerMs()} ms` : 'at once, from memory'}`);
  const fake = await startFake();
  const workDir = makeTempDir('images-inputs');
  try {
    process.stdout.write('  inputs: drawing the photographs… ');
    const [upload, largeUpload, largeCutout] = await Promise.all([
      phoneJpeg(UPLOAD.width, UPLOAD.height, 'a harbour with boats'),
      skipLarge
        ? Promise.resolve(Buffer.alloc(0))
        : phoneJpeg(LARGE_UPLOAD.width, LARGE_UPLOAD.height, 'a mountain lake'),
      skipLarge ? Promise.resolve(Buffer.alloc(0)) : cutoutPng(LARGE_UPLOAD.width, LARGE_UPLOAD.height),
    ]);
    console.log(
      `2 MP JPEG ${(upload.length / 1024).toFixed(0)} KiB${skipLarge ? '' : `, 25 MP JPEG ${(largeUpload.length / 2 ** 20).toFixed(1)} MiB, 25 MP cut-out PNG ${(largeCutout.length / 2 ** 20).toFixed(1)} MiB`}`,
    );

    // What Parley sends the provider for an uploaded file is the file as it keeps it: the direct side sends the one
    // this tree keeps.
    let sent: Buffer | null = null;
    const targets: Target[] = [];
    for (const [index, tree] of trees.entries()) {
      const started = await startTarget(tree, index, fake);
      targets.push({ ...started, cases: buildCases(started, upload, () => sent!).filter((_, i) => only(i)) });
    }
    {
      const agent = new http.Agent({ keepAlive: false });
      const mine = targets[0]!;
      const { made } = await buildCases(mine, upload, () => sent!)[2]!.api(agent);
      const kept = await send(`${mine.api}/api/images/file/${made.upload!.id}`, agent, {
        headers: { authorization: `Bearer ${mine.token}` },
      });
      sent = kept.body;
      agent.destroy();
    }

    process.stdout.write(
      `  1. latency: ${targets[0]!.cases.length} cases × (${warmup} warm-up + ${n}) interleaved rounds… `,
    );
    const latency = await measureLatency(targets, n, warmup);
    console.log('done');

    const bursts: BurstResult[] = [];
    const steps: [string, Buffer, number][] = [
      ['2 MP', upload, 1],
      ['2 MP', upload, k],
      ...(skipLarge
        ? []
        : ([
            ['25 MP', largeUpload, 1],
            ['25 MP', largeUpload, k],
          ] as [string, Buffer, number][])),
    ];
    for (const [s, [label, bytes, count]] of steps.entries()) {
      for (let t = 0; t < targets.length; t++) {
        const target = targets[(t + s) % targets.length]!;
        process.stdout.write(
          `  2. ${target.tree.label}: ${count} × ${label} at once (load ${os.loadavg()[0]!.toFixed(2)})… `,
        );
        const r = await burst(target, label, bytes, count);
        bursts.push(r);
        console.log(
          `${r.ok}/${count} in ${(r.wallMs / 1000).toFixed(1)} s, RSS +${mib(r.rssPeakKiB - r.rssBeforeKiB)}`,
        );
        const { server } = target;
        if (server.child.exitCode !== null) throw new Error(`server exited during the run:\n${server.output()}`);
        // What the server logged about the failures (warnings and errors only: LOG_LEVEL=warn).
        if (r.ok < count) console.log(`     server log: ${server.output().slice(-1200).replace(/\n/g, '\n     ')}`);
      }
    }
    for (const target of targets) await target.server.stop();
    await fake.stop();

    let limiter: LimiterResult[] = [];
    if (!skipLarge) {
      process.stdout.write(
        `  3. ${k} cut-outs of 25 MP normalized at once, limit 2 then ${k}, each in a fresh process… `,
      );
      const cutoutFile = path.join(workDir, 'cutout-25mp.png');
      writeFileSync(cutoutFile, largeCutout);
      limiter = await limiterAlone(trees, k, cutoutFile);
      console.log('done');
    }
    process.stdout.write('  4. the image work of one 2 MP image, step by step, 3 warm-up + 15 rounds… ');
    const stepTimes = await imageSteps(trees, {
      upload,
      providerJpeg: await providerImage('jpeg'),
      providerPng: await providerImage('png'),
      cutout: await cutoutPng(UPLOAD.width, UPLOAD.height),
    });
    console.log('done');
    const result = report(trees, latency, bursts, limiter, stepTimes, n);
    console.log(`  after: ${loadSummary()}; ${Math.round((performance.now() - began) / 1000)} s in all`);
    return result;
  } finally {
    await fake.stop();
    removeTempDir(workDir);
  }
}

function report(
  trees: Tree[],
  latency: CaseResult[],
  bursts: BurstResult[],
  limiter: LimiterResult[],
  steps: Step[],
  n: number,
): ImagesBenchResult {
  const side = (label: string) => (trees.length > 1 ? ` (${label})` : '');
  console.log(`\n  Latency (ms; request written → last byte of the answer), ${n} interleaved rounds per case:`);
  const row = (label: string, values: number[]) => [
    label,
    ms(pct(values, 50)),
    ms(pct(values, 90)),
    ms(pct(values, 99)),
    ms(mean(values)),
    values.length,
  ];
  const rows: (string | number)[][] = [];
  for (const r of latency) {
    rows.push([r.label, '', '', '', '', '']);
    rows.push(row('  straight to the provider', r.direct));
    for (const [t, mine] of r.targets.entries()) {
      const label = trees[t]!.label;
      rows.push(
        row(`  via Parley${side(label)}`, mine.api),
        [
          `  added${side(label)}: Parley pct − provider pct`,
          ms(pct(mine.api, 50) - pct(r.direct, 50)),
          ms(pct(mine.api, 90) - pct(r.direct, 90)),
          ms(pct(mine.api, 99) - pct(r.direct, 99)),
          ms(mean(mine.api) - mean(r.direct)),
          mine.api.length,
        ],
        row(`  added${side(label)}, per round`, mine.paired),
        row(`  then GET the image${side(label)} (not in the above)`, mine.file),
        row(`  then GET its thumbnail${side(label)} (not in the above)`, mine.thumb),
      );
    }
  }
  console.log(table(['', 'p50', 'p90', 'p99', 'mean', 'n'], rows));
  console.log(
    table(
      [
        'case',
        'provider answers',
        ...trees.map((t) => `Parley keeps${side(t.label)}`),
        'server CPU per round',
        'server page faults per round',
      ],
      latency.map((r) => [
        r.label,
        r.provider,
        ...r.targets.map((mine) => mine.out),
        r.targets.map((mine) => `${ms(mine.serverCpuMs)} ms`).join(' / '),
        r.targets.map((mine) => Math.round(mine.serverFaults).toLocaleString('en')).join(' / '),
      ]),
    ),
  );

  if (bursts.length) {
    console.log(`\n  Memory: background removals of uploaded JPEGs at once (server RSS sampled every 10 ms):`);
    console.log(
      table(
        [
          ...(trees.length > 1 ? ['server'] : []),
          'uploads',
          'at once',
          'done',
          'RSS before',
          'peak',
          'peak − before',
          'all done in',
          'latency p50',
          'max',
        ],
        bursts.map((b) => [
          ...(trees.length > 1 ? [b.target] : []),
          b.label,
          b.k,
          `${b.ok}/${b.k}`,
          mib(b.rssBeforeKiB),
          mib(b.rssPeakKiB),
          mib(b.rssPeakKiB - b.rssBeforeKiB),
          `${(b.wallMs / 1000).toFixed(2)} s`,
          `${(pct(b.latencies, 50) / 1000).toFixed(2)} s`,
          `${(Math.max(...b.latencies) / 1000).toFixed(2)} s`,
        ]),
      ),
    );
    for (const b of bursts)
      if (b.errors.length) console.log(`  ${b.target}, ${b.k} × ${b.label}: ${b.errors.slice(0, 3).join('; ')}`);
  }
  if (limiter.length) {
    console.log(
      `\n  The limiter alone: 25 MP cut-outs through normalizeOutput and their thumbnail, all started at once, a fresh process each:`,
    );
    console.log(
      table(
        [
          ...(trees.length > 1 ? ['code'] : []),
          'images at a time',
          'images',
          'RSS before',
          'peak',
          'peak − before',
          'all done in',
        ],
        limiter.map((l) => [
          ...(trees.length > 1 ? [l.target] : []),
          l.concurrency,
          l.images,
          mib(l.rssBeforeKiB),
          mib(l.rssPeakKiB),
          mib(l.rssPeakKiB - l.rssBeforeKiB),
          `${(l.wallMs / 1000).toFixed(2)} s`,
        ]),
      ),
    );
  }

  console.log(
    `\n  The image work of one 2 MP image (ms, one at a time, this process; each with its thumbnail, but the rows "before the answer"):`,
  );
  console.log(
    table(
      ['step', ...(trees.length > 1 ? ['code'] : []), 'min', 'p50', 'p90'],
      steps.map((s) => [
        s.label,
        ...(trees.length > 1 ? [s.target] : []),
        ms(Math.min(...s.times)),
        ms(pct(s.times, 50)),
        ms(pct(s.times, 90)),
      ]),
    ),
  );

  // The stricter of two readings: the difference of the percentiles, and the percentile of the per-round differences.
  const verdicts = latency.flatMap((r) =>
    r.targets.flatMap((mine, t) =>
      ([50, 99] as const).map((p) => {
        const added = Math.max(pct(mine.api, p) - pct(r.direct, p), pct(mine.paired, p));
        return {
          target: `${r.label}${side(trees[t]!.label)}: added p${p} ≤ ${TARGET_ADDED_MS} ms`,
          measured: `${ms(added)} ms (difference ${ms(pct(mine.api, p) - pct(r.direct, p))}, per round ${ms(pct(mine.paired, p))})`,
          pass: added <= TARGET_ADDED_MS,
        };
      }),
    ),
  );
  console.log(
    '\n' +
      table(
        ['target', 'measured', 'verdict'],
        verdicts.map((v) => [v.target, v.measured, v.pass ? 'PASS' : 'FAIL']),
      ),
  );
  return { latency, bursts, limiter, steps, verdicts };
}

if (isMain(import.meta.url)) {
  if (process.argv.includes('--fake-child')) await runFakeChild();
  else if (process.argv.includes('--limiter-child')) await runLimiterChild();
  else await runAsScript(() => runImages());
}
