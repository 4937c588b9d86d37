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
    const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    if (!payload.sub || !email || !verified) throw new DomainError('GOOGLE_TOKEN_INVALID');
    const name =
      typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim().slice(0, 80) : email.split('@')[0]!;
    return { sub: payload.sub, email, name };
  };
}
