import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A web page on loopback that takes a second to answer, for tests of a client that leaves while its page is read:
 * `givenUp` counts the requests closed before the page answered them. Allow `host` in FETCH_ALLOW_HOSTS.
 */
export async function startSlowPage() {
  let givenUp = 0;
  const server = createServer((_req, res) => {
    res.once('close', () => {
      if (!res.writableEnded) givenUp++;
    });
    setTimeout(() => {
      if (res.destroyed) return;
      res.setHeader('content-type', 'text/html');
      res.end('<html><head><title>Slow page</title></head><body><p>Slow but steady.</p></body></html>');
    }, 1000);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    url: `http://${host}/slow`,
    givenUp: () => givenUp,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
