import helmet, { type HelmetOptions } from 'helmet';
import { LINKEDIN_PICTURE_ORIGIN } from '../providers/linkedin/index.js';

/**
 * The security headers of every answer: the content security policy for the web app and Google sign-in, and more.
 * Images load from the app itself and from `pictureOrigins`: the person's LinkedIn profile picture, which the page
 * loads from LinkedIn's picture host (providers/linkedin `linkedinPictureOrigins`; decision 032).
 */
export function helmetOptions({
  pictureOrigins = [LINKEDIN_PICTURE_ORIGIN],
}: { pictureOrigins?: string[] } = {}): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        frameSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        connectSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        imgSrc: ["'self'", 'data:', 'blob:', ...pictureOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  };
}
const OPTIONS: HelmetOptions = helmetOptions();

/**
 * The headers helmet sets with OPTIONS, computed once: they are the same on every answer (no per-request nonces),
 * and @fastify/helmet builds helmet's middlewares again on every request (measured: 4 % of the CPU of an
 * authenticated request; bench/profile.ts).
 */
export function securityHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const removed = new Set<string>();
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void removed.add(name.toLowerCase()),
  };
  let done = false;
  helmet(options)({} as never, response as never, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  // `X-Powered-By` is removed by helmet; Fastify does not send it anyway.
  for (const name of removed) delete headers[name];
  return headers;
}

/**
 * The headers of an API answer (`/api/…`: JSON, and a person's own files), which no browser renders as a page: what
 * OWASP's REST security cheat sheet asks of an API, instead of the page's policy. Nothing may load, run or frame it;
 * no cache keeps it (a route that may be cached, such as an image, sets its own `cache-control`); its type is not
 * guessed. The page's other headers (DNS prefetch, opener and origin-agent isolation, IE's download and XSS switches,
 * Flash's cross-domain policy) only mean something for a document: about 600 bytes a request, made, sent and read
 * for nothing (decision 038).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
});
