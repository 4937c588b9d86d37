// Gzip size of the JavaScript the login page, /home and /chat load, read from the built web app (apps/web/dist).
// index.html gives the entry script and its modulepreload links (loaded by every page). If Vite wrote a
// manifest (apps/web/dist/.vite/manifest.json, `build.manifest`), the lazy chunks each page loads are added with
// their static imports; without it only entry + preloads are measured (and said so).
//
// The entry (main.tsx) starts one of two lazy chunks: the stand-alone login page (app/sign-in-app.tsx) for a
// signed-out visit to /login, or the whole app (app/start-app.tsx), then the page's own route chunk. So the login page
// is entry + sign-in app, and /home is entry + app + routes/home. A build without those two chunks (older layouts) is
// measured the earlier way: entry + the route chunk.
//
//   node --import tsx bench/web-size.ts [--login-match <regex>] [--home-match <regex>] [--chat-match <regex>]
//                                       [--sign-in-match <regex>] [--app-match <regex>]
//   BENCH_WEB_DIST=<dir>   another build output instead of apps/web/dist
// The regexes pick lazy chunks by their source path (defaults below).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { formatBytes, isMain, repoRoot, runAsScript, table } from './lib.js';

const DEFAULT_LOGIN_MATCH = '(^|/)(login|sign-?in)[^/]*$|/routes?/login|/pages?/login';
const DEFAULT_CHAT_MATCH = '/routes?/chat\\.tsx$';
const DEFAULT_HOME_MATCH = '(^|/)(home|dashboard)[^/]*$|/routes?/home|/pages?/home|features/home/';
const DEFAULT_SIGN_IN_MATCH = '/app/sign-in-app\\.tsx$';
const DEFAULT_APP_MATCH = '/app/start-app\\.tsx$';

type ManifestChunk = {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

type Asset = { file: string; raw: number; gzip: number };
export type WebSizeRow = { page: string; files: Asset[]; raw: number; gzip: number; note?: string };
export type WebSizeResult =
  | { distDir: string; manifest: boolean; rows: WebSizeRow[]; others: Asset[]; css: Asset[]; notes: string[] }
  | { missing: string };

function stringOption(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}` && argv[i + 1]) return argv[i + 1]!;
    if (argv[i]!.startsWith(`--${name}=`)) return argv[i]!.slice(name.length + 3);
  }
  return fallback;
}

/** Attribute value of a tag, whatever the attribute order and quoting. */
function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[2] ?? match[3] ?? match[4]) : undefined;
}

/** Entry scripts, modulepreloads and stylesheets named by index.html, as paths relative to dist. */
export function parseIndexHtml(html: string): { scripts: string[]; preloads: string[]; styles: string[] } {
  const local = (url: string | undefined) =>
    url && !/^([a-z]+:)?\/\//i.test(url) ? url.replace(/^\.?\//, '').split(/[?#]/)[0]! : undefined;
  const scripts: string[] = [];
  const preloads: string[] = [];
  const styles: string[] = [];
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = local(attr(tag, 'src'));
    if (src && attr(tag, 'type') === 'module') scripts.push(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attr(tag, 'rel')?.toLowerCase();
    const href = local(attr(tag, 'href'));
    if (!href) continue;
    if (rel === 'modulepreload') preloads.push(href);
    else if (rel === 'stylesheet') styles.push(href);
  }
  return { scripts, preloads, styles };
}

/** The chunk and everything it imports statically (what the browser must load with it). */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length && seen.size < 10_000) {
    const key = stack.pop()!;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

/** Every lazy chunk reachable from the entry through dynamic imports (and their static imports). */
function reachableDynamicEntries(manifest: Manifest, entryKeys: string[]): string[] {
  const found = new Set<string>();
  const visited = new Set<string>();
  const stack = [...entryKeys];
  while (stack.length && visited.size < 10_000) {
    const key = stack.pop()!;
    if (visited.has(key) || !manifest[key]) continue;
    visited.add(key);
    for (const imported of manifest[key].imports ?? []) stack.push(imported);
    for (const dynamic of manifest[key].dynamicImports ?? []) {
      found.add(dynamic);
      stack.push(dynamic);
    }
  }
  return [...found];
}

export async function runWebSize(): Promise<WebSizeResult> {
  const distDir = path.resolve(process.env.BENCH_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'));
  const indexPath = path.join(distDir, 'index.html');
  console.log(
    `\n== JavaScript loaded by the login page, /home and /chat (${path.relative(repoRoot, distDir) || distDir}, gzip level 6) ==`,
  );
  if (!existsSync(indexPath)) {
    const missing = `${path.relative(repoRoot, indexPath)} not found: run \`npm run build\` first (builds apps/web), then run this benchmark again.`;
    console.log(`  ${missing}`);
    return { missing };
  }

  const sizes = new Map<string, Asset>();
  const sizeOf = (file: string): Asset => {
    let asset = sizes.get(file);
    if (!asset) {
      const content = readFileSync(path.join(distDir, file));
      asset = { file, raw: content.length, gzip: gzipSync(content, { level: 6 }).length };
      sizes.set(file, asset);
    }
    return asset;
  };
  const row = (page: string, files: Iterable<string>, note?: string): WebSizeRow => {
    const assets = [...new Set(files)].filter((f) => f.endsWith('.js') || f.endsWith('.mjs')).map(sizeOf);
    return {
      page,
      files: assets,
      raw: assets.reduce((s, a) => s + a.raw, 0),
      gzip: assets.reduce((s, a) => s + a.gzip, 0),
      ...(note ? { note } : {}),
    };
  };

  console.log(`  build: index.html written ${statSync(indexPath).mtime.toISOString()}`);
  const html = readFileSync(indexPath, 'utf8');
  const { scripts, preloads, styles } = parseIndexHtml(html);
  if (!scripts.length) throw new Error('no <script type="module" src> in apps/web/dist/index.html');
  const initial = [...scripts, ...preloads];
  const notes: string[] = [];
  const rows: WebSizeRow[] = [row('every page: entry + modulepreload (index.html)', initial)];

  const manifestPath = path.join(distDir, '.vite/manifest.json');
  const hasManifest = existsSync(manifestPath);
  if (!hasManifest) {
    notes.push(
      'apps/web/dist/.vite/manifest.json is absent (Vite `build.manifest` is off), so the lazy route chunks could not be attributed: ' +
        'the login page and /home figures are entry + modulepreload only, a lower bound.',
    );
    rows.push(row('login page (entry + preloads only)', initial), row('/home (entry + preloads only)', initial));
  } else {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const entryKeys = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
    const entryClosure = staticClosure(manifest, entryKeys);
    const initialFiles = new Set([...initial, ...[...entryClosure].map((k) => manifest[k]!.file)]);
    const lazy = reachableDynamicEntries(manifest, entryKeys);
    const lazyMatching = (pattern: string) => {
      const regex = new RegExp(pattern, 'i');
      return lazy.filter((k) => regex.test(manifest[k]!.src ?? k));
    };
    const signIn = lazyMatching(stringOption('sign-in-match', DEFAULT_SIGN_IN_MATCH));
    const app = lazyMatching(stringOption('app-match', DEFAULT_APP_MATCH));
    const pages: [page: string, boot: string[], pattern: string | null][] = signIn.length
      ? [
          ['login page (signed out)', signIn, null],
          ['login page inside the app', app, stringOption('login-match', DEFAULT_LOGIN_MATCH)],
        ]
      : [['login page', [], stringOption('login-match', DEFAULT_LOGIN_MATCH)]];
    pages.push(
      ['/home', app, stringOption('home-match', DEFAULT_HOME_MATCH)],
      ['/chat (target <= 180 KB)', app, stringOption('chat-match', DEFAULT_CHAT_MATCH)],
    );
    for (const [page, boot, pattern] of pages) {
      const matched = pattern ? lazyMatching(pattern).filter((k) => !signIn.includes(k)) : [];
      const loaded = [...boot, ...matched];
      const files = new Set(initialFiles);
      for (const key of staticClosure(manifest, loaded)) files.add(manifest[key]!.file);
      const note = loaded.length
        ? `lazy chunks: ${loaded.map((k) => manifest[k]!.src ?? k).join(', ')}`
        : `no lazy chunk matched /${pattern}/: entry + preloads only`;
      if (pattern && !matched.length) notes.push(`${page}: no lazy chunk matched /${pattern}/`);
      rows.push(row(page, files, note));
    }
  }

  console.log();
  console.log(
    table(
      ['page', 'JS files', 'raw', 'gzip', 'gzip bytes'],
      rows.map((r) => [r.page, r.files.length, formatBytes(r.raw), formatBytes(r.gzip), r.gzip]),
    ),
  );
  for (const r of rows) if (r.note) console.log(`  ${r.page}: ${r.note}`);
  console.log('\n  files (raw / gzip):');
  for (const asset of [...sizes.values()].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`    ${asset.file}  ${formatBytes(asset.raw)} / ${formatBytes(asset.gzip)}`);
  }
  const counted = new Set(sizes.keys());
  const assetsDir = path.join(distDir, 'assets');
  const others = (existsSync(assetsDir) ? readdirSync(assetsDir) : [])
    .filter((f) => /\.m?js$/.test(f))
    .map((f) => `assets/${f}`)
    .filter((f) => !counted.has(f))
    .map(sizeOf)
    .sort((a, b) => b.gzip - a.gzip);
  if (others.length) {
    console.log(
      `\n  other JS chunks in ${path.basename(distDir)}/assets, loaded on demand, not counted above (raw / gzip):`,
    );
    for (const asset of others)
      console.log(`    ${asset.file}  ${formatBytes(asset.raw)} / ${formatBytes(asset.gzip)}`);
  }
  const css = styles.filter((f) => existsSync(path.join(distDir, f))).map(sizeOf);
  if (css.length)
    console.log(
      `  (not counted, CSS from index.html: ${css.map((c) => `${c.file} ${formatBytes(c.gzip)} gzip`).join(', ')})`,
    );
  for (const note of notes) console.log(`  NOTE: ${note}`);
  return { distDir, manifest: hasManifest, rows, others, css, notes };
}

if (isMain(import.meta.url)) await runAsScript(() => runWebSize());
