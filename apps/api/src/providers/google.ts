import { cleanLine, emailSchema, NAME_MAX } from '@parley/contract';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { DomainError } from '../lib/errors.js';

export type GoogleIdentity = { sub: string; email: string; name: string };
export type GoogleVerifier = (idToken: string) => Promise<GoogleIdentity>;

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Verifies a Google ID token: RS256 signature against Google's JWKS (cached by jose), audience = our client id,
 * issuer, expiry, and a verified e-mail. Network trouble reaching the JWKS is a 503, a bad token a 401.
 */
export function createGoogleVerifier(options: { clientId: string | undefined; jwksUrl: string }): GoogleVerifier {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  return async (idToken) => {
    if (!options.clientId) throw new DomainError('GOOGLE_DISABLED');
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, jwks, {
        issuer: GOOGLE_ISSUERS,
        audience: options.clientId,
        algorithms: ['RS256'],
        clockTolerance: 5,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout) throw new DomainError('SERVICE_UNAVAILABLE');
      if (error instanceof joseErrors.JOSEError) throw new DomainError('GOOGLE_TOKEN_INVALID');
      throw new DomainError('SERVICE_UNAVAILABLE');
    }
    // Claims are text from outside, as a request's fields are: the same schema for the address, the same cleaning
    // for the name (no control or direction characters; at most NAME_MAX characters, never half of one).
    const email = emailSchema.safeParse(payload.email);
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    // Google's subject is at most 255 ASCII characters (OpenID Connect Core, 2).
    const sub = /^[\x21-\x7e]{1,255}$/.test(payload.sub ?? '') ? payload.sub! : '';
    if (!sub || !email.success || !verified) throw new DomainError('GOOGLE_TOKEN_INVALID');
    const given = typeof payload.name === 'string' ? cleanLine(payload.name).trim() : '';
    const name = Array.from(given || cleanLine(email.data.split('@')[0]!))
      .slice(0, NAME_MAX)
      .join('');
    return { sub, email: email.data, name };
  };
}
