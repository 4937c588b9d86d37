import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A loopback stand-in for Google's JWKS endpoint and a signer of ID tokens with its key, so the production
 * verifier runs unchanged. `signForeign` signs with a key the JWKS does not publish (a forged token).
 */
export async function startGoogleFixture(clientId: string) {
  const key: KeyPair = await generateKeyPair('RS256', { extractable: true });
  const foreign: KeyPair = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(key.publicKey)), kid: 'parley-test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  type Claims = {
    sub?: string;
    email?: string;
    email_verified?: boolean;
    name?: string;
    aud?: string;
    iss?: string;
    expiresIn?: string | number;
  };
  const sign = (claims: Claims, signingKey = key.privateKey) => {
    const { aud = clientId, iss = 'https://accounts.google.com', expiresIn = '1h', ...rest } = claims;
    return new SignJWT({ email_verified: true, ...rest })
      .setProtectedHeader({ alg: 'RS256', kid: 'parley-test-key', typ: 'JWT' })
      .setIssuer(iss)
      .setAudience(aud)
      .setSubject(rest.sub ?? '1234567890')
      .setIssuedAt(typeof expiresIn === 'number' && expiresIn < 0 ? Math.floor(Date.now() / 1000) - 7200 : undefined)
      .setExpirationTime(typeof expiresIn === 'number' ? Math.floor(Date.now() / 1000) + expiresIn : expiresIn)
      .sign(signingKey);
  };
  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    sign,
    signForeign: (claims: Claims) => sign(claims, foreign.privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
