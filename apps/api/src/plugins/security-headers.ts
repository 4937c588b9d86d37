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
