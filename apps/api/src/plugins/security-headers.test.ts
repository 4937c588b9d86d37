import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { linkedinPictureOrigins } from '../providers/linkedin/index.js';
import { helmetOptions, securityHeaders } from './security-headers.js';

describe('security headers computed once', () => {
  it('are exactly what helmet sets on a real response', async () => {
    const server = createServer((req, res) => helmet()(req, res, () => res.end('ok')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    server.close();
    const fromHelmet = Object.fromEntries(
      [...(res.headers as unknown as Iterable<[string, string]>)].filter(
        ([name]) => !['content-length', 'date', 'connection', 'keep-alive'].includes(name),
      ),
    );
    expect(securityHeaders({})).toEqual(fromHelmet);
  });

  it('carry Parley’s content security policy', () => {
    const headers = securityHeaders();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain('https://accounts.google.com/gsi/client');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('let pages show a LinkedIn profile picture from LinkedIn’s picture host, and from nowhere else', () => {
    const imgSrc = (csp: string) =>
      csp
        .split(';')
        .find((d) => d.startsWith('img-src'))!
        .split(' ')
        .slice(1);
    expect(imgSrc(securityHeaders()['content-security-policy']!)).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://media.licdn.com',
    ]);
    const linkedin = { authUrl: 'https://www.linkedin.com', apiUrl: 'https://api.linkedin.com' };
    expect(linkedinPictureOrigins(linkedin)).toEqual(['https://media.licdn.com']);
    // A LinkedIn stand-in (configured LINKEDIN_API_URL / LINKEDIN_AUTH_URL) serves its own pictures.
    const standIn = { authUrl: 'http://127.0.0.1:4030', apiUrl: 'http://127.0.0.1:4030/' };
    const csp = securityHeaders(helmetOptions({ pictureOrigins: linkedinPictureOrigins(standIn) }))[
      'content-security-policy'
    ]!;
    expect(imgSrc(csp)).toEqual(["'self'", 'data:', 'blob:', 'https://media.licdn.com', 'http://127.0.0.1:4030']);
  });
});
