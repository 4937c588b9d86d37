// Chat streaming: what Parley adds on top of the model provider, through `POST /api/ai/chat`.
// A real API server process on 127.0.0.1 (PostgreSQL: a fresh database for the run, dropped afterwards) whose
// OpenAI-compatible provider is the loopback fake (apps/api/src/test/fake-openai.ts) in a child process. The same
// questions go through Parley and straight to the fake's /v1/chat/completions (stream: true), interleaved:
//   1. time to first token (request sent → first `text-delta` / first content delta), added = API − direct, of a new
//      conversation and (1b) of a follow-up turn (the second question of a conversation);
//   2. time added per token: answers of 50 and 1000 tokens (fake token delay 0); the marginal cost of a token is the
//      difference of the differences, so the fixed costs of a turn cancel out;
//   3. concurrent streams (K = 100, 250, 500, 750; a token every 50 ms for ≈ 10 s): gaps, completion, server RSS;
//   4. gzip size of the JavaScript the chat page loads (from apps/web/dist, when built).
//
//   node --import tsx bench/chat-stream.ts [--requests 500] [--warmup 200] [--long 40] [--follow-ups 200]
//                                         [--concurrency 100,250,500,750]
//   BENCH_PG_ADMIN_URL=postgres://user@127.0.0.1:5432/test   (default: tries users postgres, then root)
//   BENCH_SERVER_NODE_OPTIONS='--import /path/to/x.mjs'   (NODE_OPTIONS for the server, e.g. a profiler preload)
import type { ChildProcess } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import {
  cpuMs,
  formatBytes,
  freePort,
  isMain,
  loadSummary,
  LOOPBACK,
  makeTempDir,
  numberOption,
  removeTempDir,
  repoRoot,
  rssKiB,
  runAsScript,
  sleep,
  startHelperChild,
  startServer,
  table,
  waitForHealth,
} from './lib.js';
import { createBenchDatabase, signIn } from './accounts.js';
import { parseIndexHtml } from './web-size.js';

const USER = { email: 'bench-chat@example.com', password: 'bench-password-123', name: 'Bench' };
const MODEL_ID = 'CUSTOM_OPENAI_COMPATIBLE';
const UPSTREAM_MODEL = 'fake-model';
const STALL_MS = 500;
const CONCURRENT_TOKEN_DELAY_MS = 50;
/** Stop starting new concurrency steps past this point, so the whole benchmark stays bounded (≈ 4 min). */
const TIME_BUDGET_MS = 210_000;

const TARGETS = { addedP50Ms: 3, addedP99Ms: 10, perTokenUs: 50, streams: 500 };

/** Wall clock with sub-ms resolution, comparable between processes on the same machine. */
const wallNow = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------------------------
// Numbers.

/** Nearest-rank percentile. */
function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const ms = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

// ---------------------------------------------------------------------------------------------------------------
// The fake OpenAI-compatible server in a child process (own event loop and CPU, like a real provider), which
// records when each streaming request arrives (for the breakdown of the added time).

type FakeMessage = { ready?: number; arrivals?: number[] };

async function runFakeChild(): Promise<void> {
  const { startFakeOpenAI } = await import('../apps/api/src/test/fake-openai.js');
  const fake = await startFakeOpenAI({
    host: LOOPBACK,
    port: Number(process.env.PORT ?? 0),
    tokenDelayMs: Number(process.env.TOKEN_DELAY_MS ?? 0),
  });
  let recording = false;
  let arrivals: number[] = [];
  diagnosticsChannel.subscribe('http.server.request.start', (message) => {
    const request = (message as { request?: http.IncomingMessage }).request;
    if (recording && request?.url?.endsWith('/chat/completions')) arrivals.push(wallNow());
  });
  process.on('message', (raw) => {
    const message = raw as { cmd?: string };
    fake.requests.length = 0; // the fake keeps every request body; not needed here
    if (message.cmd === 'record') {
      arrivals = [];
      recording = true;
      process.send?.({ arrivals: [] });
    } else if (message.cmd === 'dump') {
      recording = false;
      process.send?.({ arrivals });
      arrivals = [];
    }
  });
  process.on('disconnect', () => void fake.close().finally(() => process.exit(0)));
  process.on('SIGTERM', () => void fake.close().finally(() => process.exit(0)));
  process.send?.({ ready: fake.port });
}

type Fake = {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  request: (cmd: 'record' | 'dump') => Promise<number[]>;
  stop: () => Promise<void>;
};

async function startFake(port: number, tokenDelayMs: number): Promise<Fake> {
  const {
    child,
    ready: readyPort,
    stop,
  } = await startHelperChild<number>('bench/chat-stream.ts', ['--fake-child'], {
    what: 'fake provider',
    env: { ...process.env, PORT: String(port), TOKEN_DELAY_MS: String(tokenDelayMs) },
  });
  const request = (cmd: 'record' | 'dump') =>
    new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('fake provider did not answer')), 5000);
      const onMessage = (message: FakeMessage) => {
        if (!message.arrivals) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message.arrivals);
      };
      child.on('message', onMessage);
      child.send({ cmd });
    });
  return { child, port: readyPort, baseUrl: `http://${LOOPBACK}:${readyPort}/v1`, request, stop };
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL database for the run (the server keeps it open, so credits are raised through PostgreSQL).

// ---------------------------------------------------------------------------------------------------------------
// One streaming request over raw node:http, timed on arrival of each chunk.

type StreamResult = {
  status: number;
  /** wallNow() just before the request was written. */
  sentAt: number;
  /** wallNow() when the first body bytes arrived (for the API: the `start` chunk, sent before the provider answers). */
  firstByteAt: number;
  firstDeltaAt: number;
  lastDeltaAt: number;
  endAt: number;
  deltas: number;
  /** Largest gap between two consecutive deltas (ms), after the first. */
  maxGap: number;
  gapsOverStall: number;
  /** wallNow() at the end of each gap > STALL_MS. */
  stallsAt: number[];
  finished: boolean;
  /** wallNow() when the `finish` chunk (API) or `[DONE]` (direct) arrived. */
  finishAt: number;
  error?: string;
  text: string;
  /** API: the conversation's id, from the `start` chunk. */
  chatId?: string;
};

type Said = { role: 'user' | 'assistant'; content: string };

/** A question through Parley (in conversation `chatId` when given), or straight to the provider after `earlier`. */
type Target =
  | { kind: 'api'; baseUrl: string; token: string; question: string; chatId?: string }
  | { kind: 'direct'; baseUrl: string; question: string; earlier?: Said[] };

function requestFor(target: Target): { url: URL; headers: http.OutgoingHttpHeaders; body: Buffer } {
  if (target.kind === 'api') {
    const boundary = `----parley-bench-${Math.random().toString(16).slice(2)}`;
    const json = JSON.stringify({
      model: MODEL_ID,
      text: target.question,
      ...(target.chatId ? { chatId: target.chatId } : {}),
    });
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n${json}\r\n--${boundary}--\r\n`,
    );
    return {
      url: new URL('/api/ai/chat', target.baseUrl),
      headers: {
        authorization: `Bearer ${target.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
      },
      body,
    };
  }
  const body = Buffer.from(
    JSON.stringify({
      model: UPSTREAM_MODEL,
      messages: [...(target.earlier ?? []), { role: 'user', content: target.question }],
      stream: true,
      stream_options: { include_usage: true },
    }),
  );
  return {
    url: new URL(`${target.baseUrl}/chat/completions`),
    headers: { 'content-type': 'application/json', 'content-length': body.length },
    body,
  };
}

function streamOnce(
  target: Target,
  agent: http.Agent,
  {
    timeoutMs = 15_000,
    keepText = false,
    signal,
  }: { timeoutMs?: number; keepText?: boolean; signal?: AbortSignal } = {},
): Promise<StreamResult> {
  const { url, headers, body } = requestFor(target);
  const result: StreamResult = {
    status: 0,
    sentAt: 0,
    firstByteAt: NaN,
    firstDeltaAt: NaN,
    lastDeltaAt: NaN,
    endAt: NaN,
    deltas: 0,
    maxGap: 0,
    gapsOverStall: 0,
    stallsAt: [],
    finished: false,
    finishAt: NaN,
    text: '',
  };
  return new Promise((resolve) => {
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      result.endAt = wallNow();
      if (error) result.error = error;
      resolve(result);
    };
    const request = http.request(url, { method: 'POST', agent, headers });
    const timer = setTimeout(() => request.destroy(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => request.destroy(new Error('aborted'));
    signal?.addEventListener('abort', onAbort);
    request.once('error', (error) => finish(error.message));
    request.once('response', (response) => {
      result.status = response.statusCode ?? 0;
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        const now = wallNow();
        if (Number.isNaN(result.firstByteAt)) result.firstByteAt = now;
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trimEnd();
          buffer = buffer.slice(newline + 1);
          if (!line.startsWith('data:')) continue;
          const payload = line.slice(5).trim();
          if (payload === '[DONE]') {
            if (target.kind === 'direct') {
              result.finished = true;
              result.finishAt = now;
            }
            continue;
          }
          let delta = '';
          try {
            const parsed = JSON.parse(payload) as {
              type?: string;
              delta?: string;
              messageMetadata?: { chatId?: string };
              choices?: { delta?: { content?: string } }[];
            };
            if (target.kind === 'api') {
              if (parsed.type === 'text-delta') delta = parsed.delta ?? '';
              else if (parsed.type === 'start') result.chatId = parsed.messageMetadata?.chatId;
              else if (parsed.type === 'finish') {
                result.finished = true;
                result.finishAt = now;
              } else if (parsed.type === 'error') result.error = `error chunk: ${payload.slice(0, 200)}`;
            } else {
              delta = parsed.choices?.[0]?.delta?.content ?? '';
            }
          } catch {
            continue;
          }
          if (!delta) continue;
          if (result.deltas === 0) result.firstDeltaAt = now;
          else {
            const gap = now - result.lastDeltaAt;
            if (gap > result.maxGap) result.maxGap = gap;
            if (gap > STALL_MS) {
              result.gapsOverStall++;
              result.stallsAt.push(now);
            }
          }
          result.lastDeltaAt = now;
          result.deltas++;
          if (keepText) result.text += delta;
        }
      });
      response.once('end', () => finish(result.status === 200 ? undefined : `HTTP ${result.status}`));
      response.once('error', (error) => finish(error.message));
      response.once('aborted', () => finish('response aborted'));
    });
    result.sentAt = wallNow();
    request.end(body);
  });
}

function assertOk(result: StreamResult, what: string): StreamResult {
  if (result.error || result.status !== 200 || !result.finished || result.deltas === 0)
    throw new Error(
      `${what}: status ${result.status}, ${result.deltas} deltas, finished ${result.finished}, error ${result.error ?? '-'}`,
    );
  return result;
}

/** GET /api/user/profile on the same kind of connection: the cost of HTTP + auth alone, for reference. */
function timedGet(url: string, token: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = wallNow();
    const request = http.get(
      url,
      { agent, headers: { authorization: `Bearer ${token}` }, timeout: 15_000 },
      (response) => {
        response.resume();
        response.once('end', () =>
          response.statusCode === 200 ? resolve(wallNow() - started) : reject(new Error(`HTTP ${response.statusCode}`)),
        );
      },
    );
    request.once('timeout', () => request.destroy(new Error('timeout')));
    request.once('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Process figures from /proc (bench/lib.ts), and this process's own CPU.

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

// ---------------------------------------------------------------------------------------------------------------
// 1. Time to first token, 2. time per token.

type LatencyResult = {
  n: number;
  api: number[];
  direct: number[];
  paired: number[];
  profile: number[];
  /** API: sent → first body bytes (the `start` chunk). */
  firstByteApi: number[];
  /** client send → request arrives at the fake (ms), API and direct. */
  toUpstreamApi: number[];
  toUpstreamDirect: number[];
  /** Server CPU time per measured pair (one chat turn with its title request, plus one GET /api/user/profile), ms. */
  serverCpuPerTurnMs: number;
};

async function measureFirstToken(
  apiBase: string,
  fake: Fake,
  token: string,
  n: number,
  warmup: number,
  serverPid: number,
  { followUps = false }: { followUps?: boolean } = {},
): Promise<LatencyResult> {
  const apiAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const profileAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const result: LatencyResult = {
    n,
    api: [],
    direct: [],
    paired: [],
    profile: [],
    firstByteApi: [],
    toUpstreamApi: [],
    toUpstreamDirect: [],
    serverCpuPerTurnMs: NaN,
  };
  let cpuAtStart = NaN;
  const sends: { kind: 'api' | 'direct'; sentAt: number; index: number }[] = [];
  try {
    for (let i = 0; i < warmup + n; i++) {
      const measured = i >= warmup;
      if (i === warmup) {
        await fake.request('record');
        cpuAtStart = cpuMs(serverPid);
      }
      const question = `Benchmark question number ${i}?`;
      // A follow-up goes into a conversation of one turn, made first and not timed; the provider is sent that turn
      // too, as Parley sends it. The new conversation's title request is let pass before the timed pair.
      let chatId: string | undefined;
      let earlier: Said[] | undefined;
      if (followUps) {
        const opening = `Opening question number ${i}?`;
        const first = assertOk(
          await streamOnce({ kind: 'api', baseUrl: apiBase, token, question: opening }, apiAgent, { keepText: true }),
          `API opening request ${i}`,
        );
        if (!first.chatId) throw new Error(`API opening request ${i}: no conversation id in its start chunk`);
        chatId = first.chatId;
        earlier = [
          { role: 'user', content: opening },
          { role: 'assistant', content: first.text },
        ];
        await sleep(20);
      }
      const runApi = async () => {
        const r = assertOk(
          await streamOnce({ kind: 'api', baseUrl: apiBase, token, question, chatId }, apiAgent),
          `API request ${i}`,
        );
        if (measured) {
          sends.push({ kind: 'api', sentAt: r.sentAt, index: i - warmup });
          result.firstByteApi.push(r.firstByteAt - r.sentAt);
        }
        return r.firstDeltaAt - r.sentAt;
      };
      const runDirect = async () => {
        const r = assertOk(
          await streamOnce({ kind: 'direct', baseUrl: fake.baseUrl, question, earlier }, directAgent),
          `direct request ${i}`,
        );
        if (measured) sends.push({ kind: 'direct', sentAt: r.sentAt, index: i - warmup });
        return r.firstDeltaAt - r.sentAt;
      };
      // Alternate the order so neither side always runs right after the other.
      let api: number;
      let direct: number;
      if (i % 2 === 0) {
        api = await runApi();
        direct = await runDirect();
      } else {
        direct = await runDirect();
        api = await runApi();
      }
      const profile = await timedGet(`${apiBase}/api/user/profile`, token, profileAgent);
      if (!measured) continue;
      result.api.push(api);
      result.direct.push(direct);
      result.paired.push(api - direct);
      result.profile.push(profile);
    }
    result.serverCpuPerTurnMs = (cpuMs(serverPid) - cpuAtStart) / n;
    // Match each measured request with the first request the fake saw after it was sent. Requests are sequential;
    // the title request Parley makes for a new chat arrives before that chat's stream ends, so it never matches.
    const arrivals = (await fake.request('dump')).sort((a, b) => a - b);
    const ordered = [...sends].sort((a, b) => a.sentAt - b.sentAt);
    let cursor = 0;
    for (const send of ordered) {
      while (cursor < arrivals.length && arrivals[cursor]! < send.sentAt) cursor++;
      if (cursor >= arrivals.length) break;
      const delay = arrivals[cursor]! - send.sentAt;
      (send.kind === 'api' ? result.toUpstreamApi : result.toUpstreamDirect).push(delay);
    }
  } finally {
    apiAgent.destroy();
    directAgent.destroy();
    profileAgent.destroy();
  }
  return result;
}

type PerTokenResult = {
  n: number;
  /** Tokens in the short and the long answer. */
  shortTokens: number;
  tokens: number;
  apiTotal: number[];
  directTotal: number[];
  apiShort: number[];
  directShort: number[];
  /**
   * Marginal time added per token, per round, µs: ((API long − API short) − (direct long − direct short)) / (long
   * tokens − short tokens). The fixed costs of a turn (first token, settling) cancel out; what is left is what one more
   * token costs through Parley.
   */
  marginal: number[];
  /** (API total − direct total) / tokens of the long answer, per pair, µs: fixed costs spread over the tokens. */
  perTokenTotal: number[];
  /** last token → finish chunk / [DONE], and last token → end of response (ms). */
  tailFinishApi: number[];
  tailEndApi: number[];
  tailEndDirect: number[];
  ttftApi: number[];
};

const SHORT_ANSWER_TOKENS = 50;
const LONG_ANSWER_TOKENS = 1000;

async function measurePerToken(apiBase: string, fake: Fake, token: string, n: number): Promise<PerTokenResult> {
  const apiAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const result: PerTokenResult = {
    n,
    shortTokens: 0,
    tokens: 0,
    apiTotal: [],
    directTotal: [],
    apiShort: [],
    directShort: [],
    marginal: [],
    perTokenTotal: [],
    tailFinishApi: [],
    tailEndApi: [],
    tailEndDirect: [],
    ttftApi: [],
  };
  const warmup = 5;
  /** One answer of `length` words through the API and straight to the provider, in alternating order. */
  const pair = async (i: number, length: number) => {
    const question = `Per-token benchmark question ${i} #tokens${length}`;
    const api = () => streamOnce({ kind: 'api', baseUrl: apiBase, token, question }, apiAgent, { keepText: true });
    const direct = () =>
      streamOnce({ kind: 'direct', baseUrl: fake.baseUrl, question }, directAgent, { keepText: true });
    const [a, d] = i % 2 === 0 ? [await api(), await direct()] : (([x, y]) => [y, x])([await direct(), await api()]);
    assertOk(a!, `API ${length} tokens ${i}`);
    assertOk(d!, `direct ${length} tokens ${i}`);
    if (a!.text !== d!.text) throw new Error(`API and direct answers differ for ${question}`);
    return { a: a!, d: d! };
  };
  try {
    for (let i = 0; i < warmup + n; i++) {
      const short = await pair(i, SHORT_ANSWER_TOKENS);
      const long = await pair(i, LONG_ANSWER_TOKENS);
      if (i < warmup) continue;
      const total = (r: StreamResult) => r.endAt - r.sentAt;
      result.shortTokens = short.d.deltas;
      result.tokens = long.d.deltas;
      result.apiShort.push(total(short.a));
      result.directShort.push(total(short.d));
      result.apiTotal.push(total(long.a));
      result.directTotal.push(total(long.d));
      result.marginal.push(
        ((total(long.a) - total(short.a) - (total(long.d) - total(short.d))) * 1000) / (long.d.deltas - short.d.deltas),
      );
      result.perTokenTotal.push(((total(long.a) - total(long.d)) * 1000) / long.d.deltas);
      result.tailFinishApi.push(long.a.finishAt - long.a.lastDeltaAt);
      result.tailEndApi.push(long.a.endAt - long.a.lastDeltaAt);
      result.tailEndDirect.push(long.d.endAt - long.d.lastDeltaAt);
      result.ttftApi.push(long.a.firstDeltaAt - long.a.sentAt);
    }
  } finally {
    apiAgent.destroy();
    directAgent.destroy();
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Concurrent streams.

type ConcurrencyResult = {
  k: number;
  target: 'API' | 'direct';
  completed: number;
  errors: string[];
  ttftP50: number;
  ttftMax: number;
  maxGap: number;
  gapP99: number;
  stalls: number;
  streamsWithStalls: number;
  /** Stalls that ended after every stream had its first token (i.e. not during the burst of starts). */
  stallsAfterAllStarted: number;
  durationMs: number;
  rssIdleKiB: number;
  rssDuringKiB: number;
  serverCpuPct: number;
  /** Server CPU time over the step / text deltas delivered (includes starting and settling each turn). */
  serverCpuUsPerToken: number;
  fakeCpuPct: number;
  clientCpuPct: number;
  clientLoopDelayMaxMs: number;
};

async function measureConcurrency(
  k: number,
  target: 'API' | 'direct',
  apiBase: string,
  fake: Fake,
  token: string,
  serverPid: number,
): Promise<ConcurrencyResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: k });
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const rssIdleKiB = rssKiB(serverPid);
  const samples: { at: number; rss: number; open: number }[] = [];
  let open = 0;
  let started = 0;
  const cpu0 = { server: cpuMs(serverPid), fake: cpuMs(fake.child.pid!), client: ownCpuMs(), at: performance.now() };
  loopDelay.enable();
  const sampler = setInterval(() => samples.push({ at: performance.now(), rss: rssKiB(serverPid), open }), 250);
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per stream
  // A stream lasts ≈ 10 s; anything past 50 s is counted as not completed.
  const deadline = setTimeout(() => abort.abort(), 50_000);
  const streams: Promise<StreamResult>[] = [];
  for (let i = 0; i < k; i++) {
    const question = `Concurrent stream ${i} of ${k} #long`;
    const t: Target =
      target === 'API'
        ? { kind: 'api', baseUrl: apiBase, token, question }
        : { kind: 'direct', baseUrl: fake.baseUrl, question };
    open++;
    started++;
    streams.push(
      streamOnce(t, agent, { timeoutMs: 60_000, signal: abort.signal }).finally(() => {
        open--;
      }),
    );
  }
  const results = await Promise.all(streams);
  clearTimeout(deadline);
  clearInterval(sampler);
  loopDelay.disable();
  const elapsed = performance.now() - cpu0.at;
  const cpu1 = { server: cpuMs(serverPid), fake: cpuMs(fake.child.pid!), client: ownCpuMs() };
  agent.destroy();

  const ok = results.filter((r) => !r.error && r.status === 200 && r.finished);
  const firstAll = Math.max(...results.map((r) => (Number.isFinite(r.firstDeltaAt) ? r.firstDeltaAt : Infinity)));
  const firstEnd = Math.min(...results.map((r) => r.lastDeltaAt).filter(Number.isFinite));
  // RSS "during": the highest sample while every stream was still open (after the burst of starts).
  const origin = performance.timeOrigin;
  const during = samples.filter((s) => s.open === started && s.at + origin >= firstAll && s.at + origin <= firstEnd);
  const rssDuringKiB = Math.max(...(during.length ? during : samples).map((s) => s.rss));
  const errors = [...new Set(results.filter((r) => r.error || !r.finished).map((r) => r.error ?? 'no finish chunk'))];
  return {
    k,
    target,
    completed: ok.length,
    errors,
    ttftP50: pct(results.map((r) => r.firstDeltaAt - r.sentAt).filter(Number.isFinite), 50),
    ttftMax: Math.max(...results.map((r) => r.firstDeltaAt - r.sentAt).filter(Number.isFinite)),
    maxGap: Math.max(...results.map((r) => r.maxGap)),
    gapP99: pct(
      results.map((r) => r.maxGap),
      99,
    ),
    stalls: results.reduce((sum, r) => sum + r.gapsOverStall, 0),
    streamsWithStalls: results.filter((r) => r.gapsOverStall > 0).length,
    stallsAfterAllStarted: results.reduce((sum, r) => sum + r.stallsAt.filter((at) => at > firstAll).length, 0),
    durationMs: Math.max(...results.map((r) => r.endAt)) - Math.min(...results.map((r) => r.sentAt)),
    rssIdleKiB,
    rssDuringKiB,
    serverCpuPct: target === 'API' ? ((cpu1.server - cpu0.server) / elapsed) * 100 : 0,
    serverCpuUsPerToken:
      target === 'API' ? ((cpu1.server - cpu0.server) * 1000) / results.reduce((sum, r) => sum + r.deltas, 0) : NaN,
    fakeCpuPct: ((cpu1.fake - cpu0.fake) / elapsed) * 100,
    clientCpuPct: ((cpu1.client - cpu0.client) / elapsed) * 100,
    clientLoopDelayMaxMs: loopDelay.max / 1e6,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 4. The chat page's JavaScript.

type ChatPageSize =
  { missing: string } | { built: string; initial: Asset[]; route: Asset[]; lazy: Asset[]; routeChunks: string[] };
type Asset = { file: string; raw: number; gzip: number };

function chatPageSize(): ChatPageSize {
  const dist = process.env.BENCH_WEB_DIST
    ? path.resolve(process.env.BENCH_WEB_DIST)
    : path.join(repoRoot, 'apps/web/dist');
  const indexHtml = path.join(dist, 'index.html');
  if (!existsSync(indexHtml))
    return { missing: `${path.relative(repoRoot, dist)}/index.html not found (run npm run build)` };
  const assetsDir = path.join(dist, 'assets');
  const routeChunks = existsSync(assetsDir)
    ? readdirSync(assetsDir)
        .filter((f) => /^chat-[A-Za-z0-9_-]+\.js$/.test(f))
        .map((f) => `assets/${f}`)
    : [];
  if (!routeChunks.length) return { missing: 'no chat-*.js route chunk in apps/web/dist/assets (chat page not built)' };
  const asset = (file: string): Asset => {
    const bytes = readFileSync(path.join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
  };
  const { scripts, preloads } = parseIndexHtml(readFileSync(indexHtml, 'utf8'));
  const initial = [...new Set([...scripts, ...preloads])];
  // Static imports (`from"./x.js"`, `import"./x.js"`) of the chat chunks, transitively: loaded before the page renders.
  const seen = new Set(initial);
  const route: string[] = [];
  const lazy = new Set<string>();
  const stack = [...routeChunks];
  while (stack.length && route.length < 1000) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    route.push(file);
    const source = readFileSync(path.join(dist, file), 'utf8');
    for (const match of source.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g))
      stack.push(`assets/${match[1]}`);
    // Vite's preload lists name lazily imported chunks as "assets/x.js".
    for (const match of source.matchAll(/["'](assets\/[^"']+\.js)["']/g)) lazy.add(match[1]!);
  }
  return {
    built: statSync(indexHtml).mtime.toISOString(),
    initial: initial.map(asset),
    route: route.map(asset),
    lazy: [...lazy].filter((f) => !seen.has(f) && existsSync(path.join(dist, f))).map(asset),
    routeChunks,
  };
}

// ---------------------------------------------------------------------------------------------------------------

export type ChatStreamResult = {
  firstToken: LatencyResult;
  followUp: LatencyResult | null;
  perToken: PerTokenResult;
  concurrency: ConcurrencyResult[];
  webSize: ChatPageSize;
  verdicts: { target: string; measured: string; pass: boolean }[];
};

export async function runChatStream(): Promise<ChatStreamResult> {
  const began = performance.now();
  const n = numberOption('requests', 'BENCH_CHAT_REQUESTS', 500);
  const warmup = numberOption('warmup', 'BENCH_CHAT_WARMUP', 200);
  const longN = numberOption('long', 'BENCH_CHAT_LONG', 40);
  const followUpN = numberOption('follow-ups', 'BENCH_CHAT_FOLLOW_UPS', 200);
  const levelsArg = process.argv.find((a, i, all) => all[i - 1] === '--concurrency' || a.startsWith('--concurrency='));
  const levels = (levelsArg?.replace('--concurrency=', '') ?? process.env.BENCH_CHAT_CONCURRENCY ?? '100,250,500,750')
    .split(',')
    .map(Number)
    .filter((v) => Number.isInteger(v) && v > 0 && v <= 2000);

  console.log(`\n== Chat streaming: POST /api/ai/chat vs. straight to the loopback provider ==`);
  console.log(`  before: ${loadSummary()}`);
  const created = await createBenchDatabase('chat');
  if ('error' in created) throw new Error(`no PostgreSQL reachable (needed for this benchmark): ${created.error}`);
  const database = created;
  const dataDir = makeTempDir('chat-stream');
  let fake = await startFake(await freePort(), 0);
  const fakePort = fake.port;
  const server = startServer({
    dataDir,
    port: await freePort(),
    watchdog: true,
    databaseUrl: database.url,
    extraEnv: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_IP: '100000',
      AI_RATE_PER_USER: '1000000',
      AI_RATE_PER_IP: '1000000',
      AI_TIMEOUT_SECONDS: '120',
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_MODEL: UPSTREAM_MODEL,
      // Nothing from the caller's shell: no other provider, no search, a generated APP_SECRET (empty = unset).
      OPENAI_COMPATIBLE_API_KEY: '',
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      ANTHROPIC_API_KEY: '',
      GOOGLE_GENERATIVE_AI_API_KEY: '',
      DEEPSEEK_API_KEY: '',
      SEARCH_PROVIDER: '',
      SEARCH_URL: '',
      SEARCH_API_KEY: '',
      APP_SECRET: '',
      ALLOW_PRIVATE_BASE_URLS: 'false',
      // e.g. BENCH_SERVER_NODE_OPTIONS='--import /path/to/profiler.mjs' (--cpu-prof is not allowed there).
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    },
  });
  try {
    await waitForHealth(server);
    const token = await signIn(server, dataDir, USER);
    // Each chat costs 1 credit (new users get 3 daily and 30 basic): raise the basic balance, as an administrator
    // would (with its ledger row), so that metering stays on the path measured.
    const db = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 3000 });
    await db.connect();
    try {
      const updated = await db.query(
        `WITH w AS (
           UPDATE wallets SET basic_credit = basic_credit + 1000000
            WHERE user_id = (SELECT id FROM users WHERE email = $1) RETURNING id, user_id
         )
         INSERT INTO wallet_ledger (wallet_id, user_id, balance, amount, kind) SELECT id, user_id, 'basic', 1000000, 'adjust' FROM w`,
        [USER.email],
      );
      if (updated.rowCount !== 1) throw new Error('could not raise the benchmark user’s credits');
    } finally {
      await db.end();
    }
    const pid = server.child.pid!;

    process.stdout.write(`  1. time to first token: ${warmup} warm-up + ${n} interleaved pairs… `);
    const firstToken = await measureFirstToken(server.baseUrl, fake, token, n, warmup, pid);
    console.log('done');
    let followUp: LatencyResult | null = null;
    if (followUpN > 0) {
      process.stdout.write(
        `  1b. follow-up turns: 20 warm-up + ${followUpN} pairs, each in a conversation of one turn… `,
      );
      followUp = await measureFirstToken(server.baseUrl, fake, token, followUpN, 20, pid, { followUps: true });
      console.log('done');
    }
    process.stdout.write(`  2. per token: 5 warm-up + ${longN} rounds of 50- and 1000-token answers, each via both… `);
    const perToken = await measurePerToken(server.baseUrl, fake, token, longN);
    console.log(`done (${perToken.tokens} tokens per answer)`);

    // The fake again on the same port, now with a token every 50 ms (#long ≈ 200 tokens ≈ 10 s per stream).
    await fake.stop();
    fake = await startFake(fakePort, CONCURRENT_TOKEN_DELAY_MS);
    for (let i = 0; i < 3; i++)
      assertOk(
        await streamOnce(
          { kind: 'api', baseUrl: server.baseUrl, token, question: `after restart ${i}` },
          new http.Agent(),
        ),
        'request after the provider restart',
      );
    const concurrency: ConcurrencyResult[] = [];
    for (const k of levels) {
      if (performance.now() - began > TIME_BUDGET_MS) {
        console.log(`  3. K=${k}: skipped, time budget of ${TIME_BUDGET_MS / 1000} s used up`);
        continue;
      }
      await sleep(1500); // let the previous step's sockets close and the server settle
      process.stdout.write(`  3. ${k} concurrent streams via the API (load ${os.loadavg()[0]!.toFixed(2)})… `);
      const r = await measureConcurrency(k, 'API', server.baseUrl, fake, token, pid);
      concurrency.push(r);
      console.log(`${r.completed}/${k} completed, max gap ${Math.round(r.maxGap)} ms`);
      if (server.child.exitCode !== null) throw new Error(`server exited during the run:\n${server.output()}`);
    }
    const maxK = Math.max(...levels);
    if (levels.length && performance.now() - began < TIME_BUDGET_MS + 20_000) {
      await sleep(1500);
      process.stdout.write(`  3. control: ${maxK} concurrent streams straight to the provider… `);
      const r = await measureConcurrency(maxK, 'direct', server.baseUrl, fake, token, pid);
      concurrency.push(r);
      console.log(`${r.completed}/${maxK} completed, max gap ${Math.round(r.maxGap)} ms`);
    }
    const webSize = chatPageSize();
    const result = report(firstToken, followUp, perToken, concurrency, webSize);
    console.log(`  after: ${loadSummary()}; ${Math.round((performance.now() - began) / 1000)} s in all`);
    return result;
  } finally {
    await server.stop();
    await fake.stop();
    await database.drop();
    removeTempDir(dataDir);
  }
}

/** A first-token table's row of added time: the API's percentile less the direct one's. */
const addedRow = ({ api, direct }: LatencyResult) => [
  'added (API pct − direct pct)',
  ms(pct(api, 50) - pct(direct, 50)),
  ms(pct(api, 90) - pct(direct, 90)),
  ms(pct(api, 99) - pct(direct, 99)),
  ms(mean(api) - mean(direct)),
  api.length,
];

/**
 * The first-token targets for one kind of turn, at the p50 and the p99. Added time is the stricter of two readings:
 * the difference of the percentiles, and the percentile of the per-pair differences.
 */
function ttftVerdicts(kind: string, { api, direct, paired }: LatencyResult) {
  return (
    [
      [50, TARGETS.addedP50Ms],
      [99, TARGETS.addedP99Ms],
    ] as const
  ).map(([p, target]) => {
    const added = Math.max(pct(api, p) - pct(direct, p), pct(paired, p));
    return {
      target: `${kind}added TTFT p${p} ≤ ${target} ms`,
      measured: `${ms(added)} ms (p${p} difference ${ms(pct(api, p) - pct(direct, p))}, paired ${ms(pct(paired, p))})`,
      pass: added <= target,
    };
  });
}

function report(
  firstToken: LatencyResult,
  followUp: LatencyResult | null,
  perToken: PerTokenResult,
  concurrency: ConcurrencyResult[],
  webSize: ChatPageSize,
): ChatStreamResult {
  const { api, direct, paired, profile } = firstToken;
  const row = (label: string, values: number[]) => [
    label,
    ms(pct(values, 50)),
    ms(pct(values, 90)),
    ms(pct(values, 99)),
    ms(mean(values)),
    values.length,
  ];
  console.log(
    `\n  Time to first token (ms; request sent → first text-delta / first content delta), ${firstToken.n} pairs:`,
  );
  console.log(
    table(
      ['', 'p50', 'p90', 'p99', 'mean', 'n'],
      [
        row('via Parley API', api),
        row('direct to provider', direct),
        addedRow(firstToken),
        row('added, per pair (API − direct)', paired),
        row('ref: GET /api/user/profile', profile),
        row('API: sent → first bytes (start chunk)', firstToken.firstByteApi),
        row('sent → request at provider, API', firstToken.toUpstreamApi),
        row('sent → request at provider, direct', firstToken.toUpstreamDirect),
      ],
    ),
  );
  if (followUp) {
    console.log(
      `\n  Time to first token of a follow-up turn (ms; the second question of a conversation; the provider gets the first turn too), ${followUp.n} pairs:`,
    );
    console.log(
      table(
        ['', 'p50', 'p90', 'p99', 'mean', 'n'],
        [
          row('via Parley API', followUp.api),
          row('direct to provider', followUp.direct),
          addedRow(followUp),
          row('added, per pair (API − direct)', followUp.paired),
          row('sent → request at provider, API', followUp.toUpstreamApi),
          row('sent → request at provider, direct', followUp.toUpstreamDirect),
        ],
      ),
    );
  }
  const beforeUpstream = pct(firstToken.toUpstreamApi, 50) - pct(firstToken.toUpstreamDirect, 50);
  console.log(
    `  of the added p50, ≈ ${ms(beforeUpstream)} ms pass before Parley's request reaches the provider (HTTP, auth, multipart, ` +
      `database writes, credit reservation, building the provider request), ≈ ${ms(pct(api, 50) - pct(direct, 50) - beforeUpstream)} ms after (provider stream → UI message stream → client).`,
  );

  console.log(
    `\n  Time per token (answers of ${perToken.shortTokens} and ${perToken.tokens} tokens, provider token delay 0), ${perToken.n} rounds:`,
  );
  const line = (label: string, values: number[], digits = 2) => [
    label,
    ms(mean(values), digits),
    ms(pct(values, 50), digits),
    ms(pct(values, 99), digits),
  ];
  const medianMarginal =
    ((pct(perToken.apiTotal, 50) -
      pct(perToken.apiShort, 50) -
      (pct(perToken.directTotal, 50) - pct(perToken.directShort, 50))) *
      1000) /
    (perToken.tokens - perToken.shortTokens);
  console.log(
    table(
      ['', 'mean', 'p50', 'p99'],
      [
        line(`${perToken.shortTokens}-token answer, total ms via API`, perToken.apiShort),
        line(`${perToken.shortTokens}-token answer, total ms direct`, perToken.directShort),
        line(`${perToken.tokens}-token answer, total ms via API`, perToken.apiTotal),
        line(`${perToken.tokens}-token answer, total ms direct`, perToken.directTotal),
        line('added µs per extra token (marginal, per round)', perToken.marginal, 1),
        line(`(API − direct) / ${perToken.tokens} tokens, µs (fixed costs included)`, perToken.perTokenTotal, 1),
        line('API: sent → first token ms', perToken.ttftApi),
        line('API: last token → finish chunk ms', perToken.tailFinishApi),
        line('API: last token → end of response ms', perToken.tailEndApi),
        line('direct: last token → end of response ms', perToken.tailEndDirect),
      ],
    ),
  );
  console.log(`  marginal from the medians of the four totals: ${ms(medianMarginal, 1)} µs per token`);

  console.log(
    `\n  Concurrent streams (a token every ${CONCURRENT_TOKEN_DELAY_MS} ms, #long ≈ 10 s; stall = gap > ${STALL_MS} ms):`,
  );
  console.log(
    table(
      [
        'streams',
        'to',
        'completed',
        'TTFT p50 ms',
        'TTFT max ms',
        'max gap ms',
        'p99 of max gaps',
        'stalls (streams) [after all started]',
        'server RSS idle → during',
        'KiB/stream',
        'CPU % server / provider / client',
        'server CPU µs/token',
        'client loop delay max ms',
      ],
      concurrency.map((c) => [
        c.k,
        c.target,
        `${c.completed}/${c.k}`,
        Math.round(c.ttftP50),
        Math.round(c.ttftMax),
        Math.round(c.maxGap),
        Math.round(c.gapP99),
        `${c.stalls} (${c.streamsWithStalls}) [${c.stallsAfterAllStarted}]`,
        c.target === 'API' ? `${(c.rssIdleKiB / 1024).toFixed(0)} → ${(c.rssDuringKiB / 1024).toFixed(0)} MiB` : '-',
        c.target === 'API' ? ((c.rssDuringKiB - c.rssIdleKiB) / c.k).toFixed(0) : '-',
        `${c.target === 'API' ? Math.round(c.serverCpuPct) : '-'} / ${Math.round(c.fakeCpuPct)} / ${Math.round(c.clientCpuPct)}`,
        c.target === 'API' ? Math.round(c.serverCpuUsPerToken) : '-',
        Math.round(c.clientLoopDelayMaxMs),
      ]),
    ),
  );
  const perTurn = firstToken.serverCpuPerTurnMs;
  console.log(
    `  server CPU per chat turn (phase 1, incl. its title request and one profile GET): ${ms(perTurn)} ms; ` +
      `so per token at K streams ≈ (CPU µs/token − ${Math.round((perTurn * 1000) / Math.max(1, perToken.tokens))} µs): ` +
      concurrency
        .filter((c) => c.target === 'API')
        .map(
          (c) => `K=${c.k} ${Math.round(c.serverCpuUsPerToken - (perTurn * 1000) / Math.max(1, perToken.tokens))} µs`,
        )
        .join(', '),
  );
  for (const c of concurrency)
    if (c.errors.length) console.log(`  K=${c.k} ${c.target}: ${c.errors.slice(0, 3).join('; ')}`);

  console.log('\n  JavaScript of the chat page:');
  if ('missing' in webSize) console.log(`  skipped: ${webSize.missing}`);
  else {
    const sum = (assets: Asset[], key: 'raw' | 'gzip') => assets.reduce((s, a) => s + a[key], 0);
    const all = [...webSize.initial, ...webSize.route];
    console.log(
      table(
        ['', 'JS files', 'raw', 'gzip', 'gzip bytes'],
        [
          [
            'entry + modulepreload (every page)',
            webSize.initial.length,
            formatBytes(sum(webSize.initial, 'raw')),
            formatBytes(sum(webSize.initial, 'gzip')),
            sum(webSize.initial, 'gzip'),
          ],
          [
            '+ chat route chunks & static imports',
            webSize.route.length,
            formatBytes(sum(webSize.route, 'raw')),
            formatBytes(sum(webSize.route, 'gzip')),
            sum(webSize.route, 'gzip'),
          ],
          [
            'chat page total',
            all.length,
            formatBytes(sum(all, 'raw')),
            formatBytes(sum(all, 'gzip')),
            sum(all, 'gzip'),
          ],
          [
            'lazy, imported later by the chat chunks',
            webSize.lazy.length,
            formatBytes(sum(webSize.lazy, 'raw')),
            formatBytes(sum(webSize.lazy, 'gzip')),
            sum(webSize.lazy, 'gzip'),
          ],
        ],
      ),
    );
    console.log(
      `  build of ${webSize.built}; route chunks: ${webSize.route.map((a) => `${path.basename(a.file)} ${formatBytes(a.gzip)} gzip`).join(', ')}; lazy: ${webSize.lazy.map((a) => `${path.basename(a.file)} ${formatBytes(a.gzip)}`).join(', ') || 'none'}`,
    );
  }

  const perTokenUs = pct(perToken.marginal, 50);
  const apiLevels = concurrency.filter((c) => c.target === 'API');
  const clean = apiLevels.filter((c) => c.completed === c.k && c.stalls === 0);
  const held = clean.length ? Math.max(...clean.map((c) => c.k)) : 0;
  const verdicts = [
    ...ttftVerdicts('', firstToken),
    ...(followUp ? ttftVerdicts('follow-up turn: ', followUp) : []),
    {
      target: `added time per token ≤ ${TARGETS.perTokenUs} µs`,
      measured: `${ms(perTokenUs, 1)} µs marginal, p50 of ${perToken.n} rounds (fixed costs spread over ${perToken.tokens} tokens: ${ms(mean(perToken.perTokenTotal), 1)} µs)`,
      pass: perTokenUs <= TARGETS.perTokenUs,
    },
    {
      target: `≥ ${TARGETS.streams} concurrent streams, no stalls`,
      measured: apiLevels.length
        ? `largest clean K: ${held || 'none'} (${apiLevels.map((c) => `${c.k}: ${c.completed === c.k ? 'all done' : `${c.completed} done`}, ${c.stalls} stalls`).join('; ')})`
        : 'not measured',
      pass: held >= TARGETS.streams,
    },
  ];
  console.log(
    '\n' +
      table(
        ['target', 'measured', 'verdict'],
        verdicts.map((v) => [v.target, v.measured, v.pass ? 'PASS' : 'FAIL']),
      ),
  );
  return { firstToken, followUp, perToken, concurrency, webSize, verdicts };
}

if (isMain(import.meta.url)) {
  if (process.argv.includes('--fake-child')) await runFakeChild();
  else await runAsScript(() => runChatStream());
}
