import { createServer } from 'node:http';
import { listen } from './servers.js';

/**
 * A web page to chat about and a SearXNG instance, both on loopback. The API may read this one private host
 * (FETCH_ALLOW_HOSTS), exactly as an operator would allow an intranet wiki.
 */
export async function startWebFixtures() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/article') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="en"><head><title>Tidal energy explained</title></head><body>
<header><nav><a href="/">Home</a></nav></header>
<article><h1>Tidal energy explained</h1>
<p>Tidal power converts the energy of rising and falling seas into electricity. Barrages and underwater turbines
are the two main designs, and the largest plant, Sihwa Lake in South Korea, produces 254 megawatts.</p>
<p>Unlike wind and sunshine, tides are predictable years ahead, which makes them attractive to grid operators.</p>
</article><footer>Example Science</footer></body></html>`);
      return;
    }
    if (url.pathname === '/search') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          query: url.searchParams.get('q') ?? '',
          results: [
            {
              title: 'Mars facts – Space Agency',
              url: 'https://science.example.org/mars',
              content: 'Mars is the fourth planet from the Sun and has two small moons, Phobos and Deimos.',
            },
            {
              title: 'Olympus Mons',
              url: 'https://encyclopedia.example.com/olympus-mons',
              content: 'Olympus Mons on Mars is the tallest volcano in the solar system.',
            },
          ],
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  const port = await listen(server);
  return {
    articleUrl: `http://127.0.0.1:${port}/article`,
    env: { SEARCH_PROVIDER: 'searxng', SEARCH_URL: `http://127.0.0.1:${port}`, FETCH_ALLOW_HOSTS: `127.0.0.1:${port}` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
