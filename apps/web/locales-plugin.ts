import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Namespaces read only by the API server; the browser never loads them. */
const SERVER_ONLY = new Set(['api', 'mail']);
const URL_PATTERN = /^\/locales\/([a-z]{2})\/([a-zA-Z-]+)\.json(?:\?.*)?$/;

/**
 * Serves packages/i18n/locales/<lng>/<ns>.json at /locales/<lng>/<ns>.json in dev and emits them into the build
 * output, so the translations live in one place only.
 */
export function localesPlugin(localesDir: string): Plugin {
  const clientFiles = () =>
    readdirSync(localesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(path.join(localesDir, d.name))
          .filter((f) => f.endsWith('.json') && !SERVER_ONLY.has(f.slice(0, -5)))
          .map((f) => ({ lng: d.name, file: f })),
      );

  return {
    name: 'parley-locales',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = req.url ? URL_PATTERN.exec(req.url) : null;
        if (!match || SERVER_ONLY.has(match[2]!)) return next();
        const file = path.join(localesDir, match[1]!, `${match[2]}.json`);
        if (!existsSync(file)) {
          res.statusCode = 404;
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('cache-control', 'no-cache');
        res.end(readFileSync(file));
      });
      server.watcher.add(localesDir);
    },
    generateBundle() {
      for (const { lng, file } of clientFiles()) {
        // Minified on the way out; the source stays readable.
        const json = JSON.stringify(JSON.parse(readFileSync(path.join(localesDir, lng, file), 'utf8')));
        this.emitFile({ type: 'asset', fileName: `locales/${lng}/${file}`, source: json });
      }
    },
  };
}
