import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { STREAM_PATHS } from '@parley/contract';
import type { FastifyBaseLogger, FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../lib/errors.js';
import { defineRoute } from '../lib/route.js';
import { createZip, type ZipEntry } from '../lib/zip.js';

export type ExtensionPackage = {
  zip: Buffer;
  version: string;
  fileName: string;
  etag: string;
};

type Manifest = { manifest_version?: unknown; version?: unknown; host_permissions?: unknown };

/** Every file under `dir`, with paths relative to it (forward slashes), sorted so the same build gives the same zip. */
async function filesUnder(dir: string): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  const walk = async (relative: string) => {
    for (const item of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${item.name}` : item.name;
      if (item.isDirectory()) await walk(name);
      else if (item.isFile()) {
        const full = path.join(dir, name);
        const [data, info] = await Promise.all([readFile(full), stat(full)]);
        entries.push({ name, data, modified: info.mtime });
      }
    }
  };
  await walk('');
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The built extension folder as a zip, made on the first request that needs it and kept in memory until the folder
 * holds a new build (its manifest.json changes). Start-up does no work for it.
 */
export function createExtensionPackager(options: { dist: string; publicUrl: string; log: FastifyBaseLogger }) {
  const { dist, publicUrl, log } = options;
  let cached: { key: string; pkg: Promise<ExtensionPackage | null> } | null = null;

  const build = async (): Promise<ExtensionPackage | null> => {
    const manifest = JSON.parse(await readFile(path.join(dist, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.manifest_version !== 3 || typeof manifest.version !== 'string') {
      log.warn(`${dist}/manifest.json is not a Manifest V3 extension's: /install offers no download`);
      return null;
    }
    const origin = new URL(publicUrl).origin;
    const hosts = Array.isArray(manifest.host_permissions) ? manifest.host_permissions : [];
    if (!hosts.includes(`${origin}/*`)) {
      log.warn(
        `the extension in ${dist} was built for another server (${hosts.join(', ') || 'none'}); ` +
          `rebuild it with PARLEY_API_URL=${origin} for this one`,
      );
    }
    const started = performance.now();
    const entries = await filesUnder(dist);
    const zip = await createZip(entries);
    const version = manifest.version.replace(/[^0-9A-Za-z.-]/g, '') || 'build';
    log.info(
      { files: entries.length, bytes: zip.length, ms: Math.round(performance.now() - started) },
      'packaged the browser extension for /install',
    );
    return {
      zip,
      version,
      fileName: `parley-extension-${version}.zip`,
      etag: `"${createHash('sha256').update(zip).digest('base64url').slice(0, 27)}"`,
    };
  };

  return {
    /** The packaged extension, or null when the folder holds no build. */
    async get(): Promise<ExtensionPackage | null> {
      let key: string;
      try {
        const info = await stat(path.join(dist, 'manifest.json'));
        key = `${info.mtimeMs}:${info.size}`;
      } catch {
        return null;
      }
      if (cached?.key !== key) {
        const pkg = build().catch((error: unknown) => {
          // A build being written while we read it: try again on the next request.
          log.warn({ err: error }, `could not package the extension in ${dist}`);
          if (cached?.key === key) cached = null;
          return null;
        });
        cached = { key, pkg };
      }
      return cached.pkg;
    },
  };
}

export type ExtensionPackager = ReturnType<typeof createExtensionPackager>;

/**
 * /install's calls: what the server offers (GET /api/extension) and the download itself. Both are public on purpose:
 * the page is read before anyone signs in, and the package holds nothing but the extension's own code.
 */
export function registerExtensionDownload(
  app: FastifyInstance,
  deps: { packager: ExtensionPackager; storeUrl: string | undefined; requireAuth: onRequestAsyncHookHandler },
) {
  const { packager, storeUrl, requireAuth } = deps;

  defineRoute(app, 'extensionInfo', requireAuth, async () => {
    const pkg = await packager.get();
    return {
      data: {
        available: pkg !== null,
        version: pkg?.version ?? null,
        fileName: pkg?.fileName ?? null,
        size: pkg?.zip.length ?? null,
        storeUrl: storeUrl ?? null,
      },
    };
  });

  app.get(
    STREAM_PATHS.extensionDownload,
    { schema: { summary: 'The packaged browser extension (zip)', tags: ['extension'] } },
    async (request, reply) => {
      const pkg = await packager.get();
      if (!pkg) throw new DomainError('EXTENSION_NOT_BUILT');
      reply.header('etag', pkg.etag);
      // Revalidated each time: a new build on the server must reach the next download.
      reply.header('cache-control', 'no-cache');
      reply.header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === pkg.etag) return reply.code(304).send();
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', `attachment; filename="${pkg.fileName}"`);
      return reply.send(pkg.zip);
    },
  );
}
