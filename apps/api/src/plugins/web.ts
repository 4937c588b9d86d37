import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.js';

/** Folders of the build whose files are fetched by the page itself (scripts, styles, translations). */
const ASSET_FOLDERS = ['/assets/', '/locales/'];
/** Files browsers and crawlers ask for on their own at the root of a site. */
const WELL_KNOWN_FILE =
  /^\/(favicon\.ico|favicon\.svg|favicon-[\w-]+\.png|apple-touch-icon[\w-]*\.png|robots\.txt|sitemap\.xml|manifest\.json|site\.webmanifest|manifest\.webmanifest|browserconfig\.xml|sw\.js|service-worker\.js)$/i;

/**
 * A missing file under a path the browser fetches as a resource (not a page a person opened): a plain 404. Anything
 * else outside /api is a page, even with a dot in it (/report.pdf typed by hand, /extensionIndex.html), and gets the
 * app, whose router shows that page or sends the visitor to /not-found?page=<path>.
 */
export function isAssetRequest(pathname: string, accept: string | undefined): boolean {
  if (ASSET_FOLDERS.some((folder) => pathname.startsWith(folder))) return true;
  if (WELL_KNOWN_FILE.test(pathname)) return true;
  // A script, style, image or fetch() asks for `*/*` or its own type; a page opened in the browser asks for HTML.
  return path.posix.extname(pathname) !== '' && !(accept ?? '').includes('text/html');
}

/**
 * Serves the built web app. Hashed assets are cached for a year; index.html is revalidated every time.
 * Unknown non-API paths get index.html so the client-side router decides (it sends them to /not-found).
 */
export async function registerWeb(app: FastifyInstance, webDist: string | null) {
  const index = webDist ? path.join(webDist, 'index.html') : null;
  const hasWeb = !!index && existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'no-cache');
      },
    });
  } else if (webDist) {
    app.log.warn(`web app not built (${index} missing): run "npm run build" to serve it`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split(/[?#]/)[0]!;
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && pathname !== '/api' && !pathname.startsWith('/api/');
    if (hasWeb && wantsPage) {
      if (isAssetRequest(pathname, request.headers.accept)) return sendError(request, reply, 'NOT_FOUND');
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return sendError(request, reply, 'NOT_FOUND');
  });
}
