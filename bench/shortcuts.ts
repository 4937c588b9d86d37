// Shortcut expansion's cost: the time the extension's keydown listener adds to each keystroke, with the listener on
// (a signed-in person with shortcuts) and off (no shortcuts: no listener at all), side by side in one browser; then
// the content scripts' sizes and the page-load cost with a signed-in person who has shortcuts (bench/extension.ts
// --shortcuts).
//
//   node --import tsx bench/shortcuts.ts [--keys 1000] [--rounds 4] [--no-loads] [--runs 7] [--sites "gmail,…"]
//   BENCH_SC_KEYS, BENCH_SC_ROUNDS   the same as the flags; --no-loads skips the page loads (bench/extension.ts)
//
// 1. Builds the extension into a temp folder (`wxt build`) with the API baked in as a loopback port where a counting
//    HTTP server listens (the keystrokes must never reach it).
// 2. One headless Chromium with the extension, one page on loopback with a textarea and a contenteditable, served
//    cross-origin isolated (COOP + COEP) so that performance.now() is precise to 5 µs instead of 100 µs.
// 3. The page's own listeners time each keydown's dispatch: a capture listener on window (the first to run) to a
//    bubble listener on window (the last), so the span holds every listener in between, the content script's capture
//    listener on document included. Keys are real input (CDP Input.dispatchKeyEvent through Playwright's keyboard):
//    words, spaces, Enter, and `;abc ` (a trigger and a key that is no shortcut, so the whole matching path runs
//    without inserting anything, which keeps both modes' fields alike).
// 4. Modes alternate per round: off (storage without shortcuts) then on (20 shortcuts); in each, `--keys` keys into
//    the textarea and as many into the contenteditable. At the end `;thx ` must expand in both (the listener was on).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { build, listen, measureSizes, runExtension, signedInWithShortcuts } from './extension.js';
import {
  freePort,
  isMain,
  loadSummary,
  LOOPBACK,
  makeTempDir,
  numberOption,
  onCleanup,
  runAsScript,
  sleep,
  table,
} from './lib.js';

const P99_BUDGET_MS = 0.2;
const SIZE_BUDGET = 40 * 1024;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shortcut keystrokes</title>
<script>
  // The page's own timing of every keydown dispatch (first listener to last).
  window.__spans = { textarea: [], editable: [] };
  let started = 0;
  window.addEventListener('keydown', () => { started = performance.now(); }, true);
  window.addEventListener('keydown', (event) => {
    const span = performance.now() - started;
    window.__spans[event.target.localName === 'textarea' ? 'textarea' : 'editable'].push(span);
  });
</script></head><body>
<textarea id="area" rows="8" cols="80"></textarea>
<div id="editable" contenteditable="true" style="min-height: 8em; border: 1px solid #999"><div><br></div></div>
</body></html>`;

const WORDS = 'the tide rises twice a day and the boats leave the harbour an hour before high water'.split(' ');

/** `count` keys of ordinary typing: words, spaces, now and then Enter or `;abc ` (no shortcut). */
function keystrokes(count: number, seed: number): string[] {
  const keys: string[] = [];
  let i = seed;
  while (keys.length < count) {
    i = (i * 1103515245 + 12345) % 2 ** 31;
    if (i % 23 === 0) keys.push(...';abc'.split(''), ' ');
    else if (i % 17 === 0) keys.push('Enter');
    else keys.push(...WORDS[i % WORDS.length]!.split(''), ' ');
  }
  return keys.slice(0, count);
}

async function typeKeys(page: Page, keys: string[]) {
  for (const key of keys) {
    if (key.length === 1) await page.keyboard.type(key);
    else await page.keyboard.press(key);
  }
}

type Stats = { n: number; p50: number; p99: number; mean: number; max: number };

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    n: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
    max: sorted.at(-1) ?? NaN,
  };
}

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

export type ShortcutsResult = {
  resolutionUs: number;
  crossOriginIsolated: boolean;
  rows: { field: string; off: Stats; on: Stats }[];
  apiRequests: number;
};

export async function runShortcuts(): Promise<ShortcutsResult> {
  const perBlock = Math.max(100, Math.round(numberOption('keys', 'BENCH_SC_KEYS', 1000)));
  const rounds = Math.max(1, Math.round(numberOption('rounds', 'BENCH_SC_ROUNDS', 4)));
  console.log(`\n=== Shortcuts: time added per keystroke (${rounds} rounds × ${perBlock} keys per field and mode) ===`);
  console.log(loadSummary());

  let apiRequests = 0;
  const api = http.createServer((_req, res) => {
    apiRequests++;
    res.statusCode = 503;
    res.end();
  });
  const apiUrl = `http://${LOOPBACK}:${await listen(api, await freePort())}`;
  const outDir = makeTempDir('sc-build');
  const started = performance.now();
  build(outDir, apiUrl);
  console.log(`built into a temp folder in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const extDir = path.join(outDir, 'chrome-mv3');

  const lazy = readFileSync(path.join(extDir, 'shortcuts.js'));
  const sizes = [
    ...measureSizes(extDir).filter((r) => r.file.startsWith('content-scripts/')),
    // Imported by a page's script only while the person has shortcuts.
    { file: 'shortcuts.js (lazy)', raw: lazy.length, gzip9: gzipSync(lazy, { level: 9 }).length },
  ];
  console.log(
    '\n' +
      table(
        ['file', 'bytes', 'gzip -9', '≤ 40 KiB'],
        sizes.map((r) => [r.file, r.raw, `${r.gzip9} B`, r.gzip9 <= SIZE_BUDGET ? 'PASS' : 'FAIL']),
      ),
  );

  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    res.setHeader('cross-origin-embedder-policy', 'require-corp');
    res.setHeader('cache-control', 'no-store');
    res.end(PAGE);
  });
  const pageUrl = `http://${LOOPBACK}:${await listen(server)}/keys`;

  const context: BrowserContext = await chromium.launchPersistentContext(makeTempDir('sc-profile'), {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1000, height: 700 },
    args: [
      '--no-first-run',
      '--disable-background-networking',
      `--disable-extensions-except=${extDir}`,
      `--load-extension=${extDir}`,
    ],
  });
  onCleanup(() => context.close().catch(() => undefined));
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  type Chrome = {
    chrome: { storage: { local: { set(v: unknown): Promise<void>; remove(k: string): Promise<void> } } };
  };
  const seed = signedInWithShortcuts();
  await worker.evaluate((value) => (globalThis as unknown as Chrome).chrome.storage.local.set(value), {
    session: seed.session,
  });
  const setMode = async (on: boolean) => {
    if (on) {
      await worker.evaluate(
        (value) => (globalThis as unknown as Chrome).chrome.storage.local.set({ shortcuts: value }),
        seed.shortcuts,
      );
    } else {
      await worker.evaluate(() => (globalThis as unknown as Chrome).chrome.storage.local.remove('shortcuts'));
    }
    await sleep(300); // the content script follows storage (and imports shortcuts.js the first time)
  };

  const page = await context.newPage();
  await page.goto(pageUrl);
  const clock = await page.evaluate(() => {
    let smallest = Infinity;
    let last = performance.now();
    for (let i = 0; i < 200_000; i++) {
      const now = performance.now();
      if (now > last) smallest = Math.min(smallest, now - last);
      last = now;
    }
    return { isolated: self.crossOriginIsolated, resolution: smallest };
  });
  console.log(`\npage cross-origin isolated: ${clock.isolated}; performance.now() step ${us(clock.resolution)}`);

  const samples = {
    textarea: { off: [] as number[], on: [] as number[] },
    editable: { off: [] as number[], on: [] as number[] },
  };
  const fields = [
    ['textarea', '#area'],
    ['editable', '#editable'],
  ] as const;
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['off', 'on'] as const) {
      await setMode(mode === 'on');
      for (const [name, selector] of fields) {
        await page.evaluate((s) => {
          const el = document.querySelector<HTMLElement>(s)!;
          if (el instanceof HTMLTextAreaElement) el.value = '';
          else el.innerHTML = '<div><br></div>';
          (window as unknown as { __spans: Record<string, number[]> }).__spans[
            s === '#area' ? 'textarea' : 'editable'
          ] = [];
        }, selector);
        await page.click(selector);
        // A few keys first (the first keys after a focus change are slower in both modes).
        await typeKeys(page, keystrokes(20, round * 7 + 1));
        await page.evaluate(
          (n) => ((window as unknown as { __spans: Record<string, number[]> }).__spans[n] = []),
          name,
        );
        await typeKeys(page, keystrokes(perBlock, round * 31 + (mode === 'on' ? 3 : 5)));
        const spans = await page.evaluate(
          (n) => (window as unknown as { __spans: Record<string, number[]> }).__spans[n]!,
          name,
        );
        samples[name][mode].push(...spans);
      }
    }
  }

  // The listener was really on: ;thx expands in both fields.
  await setMode(true);
  const expanded: string[] = [];
  for (const [, selector] of fields) {
    await page.click(selector);
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ;thx ');
    expanded.push(
      await page.evaluate((s) => {
        const el = document.querySelector<HTMLElement>(s)!;
        return el instanceof HTMLTextAreaElement ? el.value : el.innerText;
      }, selector),
    );
  }
  const listenerRan = expanded.every((text) => text.includes('Shortcut text number 0.'));

  const rows = fields.map(([name]) => ({ field: name, off: stats(samples[name].off), on: stats(samples[name].on) }));
  console.log(
    '\nkeydown dispatch, first page listener to last (µs): the extension’s listener off (no shortcuts) and on\n' +
      table(
        [
          'field',
          'keys',
          'p50 off',
          'p50 on',
          'p99 off',
          'p99 on',
          'mean off',
          'mean on',
          '+mean',
          `+p99 ≤ ${P99_BUDGET_MS} ms`,
        ],
        rows.map((r) => [
          r.field,
          `${r.off.n} / ${r.on.n}`,
          us(r.off.p50),
          us(r.on.p50),
          us(r.off.p99),
          us(r.on.p99),
          us(r.off.mean),
          us(r.on.mean),
          us(r.on.mean - r.off.mean),
          r.on.p99 - r.off.p99 <= P99_BUDGET_MS ? 'PASS' : 'FAIL',
        ]),
      ),
  );
  console.log(
    `listener on during the "on" rounds (;thx expanded in both fields): ${listenerRan ? 'yes' : 'NO — the figures mean nothing'}`,
  );
  console.log(`API requests while typing: ${apiRequests} — target 0: ${apiRequests === 0 ? 'PASS' : 'FAIL'}`);
  console.log(loadSummary());
  await context.close();
  if (!listenerRan) throw new Error('the shortcut listener did not run');
  return { resolutionUs: clock.resolution * 1000, crossOriginIsolated: clock.isolated, rows, apiRequests };
}

if (isMain(import.meta.url)) {
  await runAsScript(async () => {
    await runShortcuts();
    if (!process.argv.includes('--no-loads')) await runExtension({ shortcuts: true });
  });
}
