/**
 * A same-site path ('/home?x=1') or null. Rejects absolute URLs, protocol-relative '//host' and backslash tricks,
 * so ?page= can never send the visitor to another site.
 */
export function sameSitePath(value: string | null | undefined, origin: string = window.location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
