// @vitest-environment node
// Size guard: site knowledge ships inside each site's content script (Gmail's whole script: <= 40 KB gzip), so each
// site bundled alone — its code, the shared helpers, no dependencies — must stay a small part of that.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const LIMIT_KB = 6;

async function bundledKb(site: string, file = 'index.ts'): Promise<number> {
  const result = await build({
    entryPoints: [path.join(here, site, file)],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  const inputs = Object.keys(result.metafile?.inputs ?? {});
  expect(inputs.some((file) => file.includes('node_modules'))).toBe(false);
  return gzipSync(result.outputFiles[0]!.contents).length / 1024;
}

describe('size', () => {
  for (const site of ['gmail', 'outlook', 'linkedin', 'instagram', 'facebook', 'youtube', 'x', 'search']) {
    it(`${site} bundles to under ${LIMIT_KB} KB gzip with no dependencies`, async () => {
      expect(await bundledKb(site)).toBeLessThan(LIMIT_KB);
    });
  }
  // LinkedIn's post and stats readers ship in the engagement script (linkedin-engage.js), imported on those pages only.
  for (const file of ['posts.ts', 'stats.ts']) {
    it(`linkedin/${file} bundles to under ${LIMIT_KB} KB gzip with no dependencies`, async () => {
      expect(await bundledKb('linkedin', file)).toBeLessThan(LIMIT_KB);
    });
  }
});
