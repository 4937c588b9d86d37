import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createRedisStore, type RateLimitStore } from './rate-limit.js';

async function exercise(store: RateLimitStore, key: string) {
  expect((await store.peek(key)).count).toBe(0);
  expect((await store.hit(key, 60_000)).count).toBe(1);
  const second = await store.hit(key, 60_000);
  expect(second.count).toBe(2);
  expect(second.resetInMs).toBeGreaterThan(50_000);
  expect((await store.peek(key)).count).toBe(2);
  await store.reset(key);
  expect((await store.peek(key)).count).toBe(0);
}

describe('memory rate-limit store', () => {
  it('counts within a window and forgets after it', async () => {
    let now = 1_000_000;
    const store = createMemoryStore(() => now);
    await exercise(store, 'k');
    await store.hit('w', 1000);
    now += 1001;
    expect((await store.hit('w', 1000)).count).toBe(1);
    await store.close();
  });
});

// Runs where a Redis server is available (CI sets TEST_REDIS_URL to the machine's Redis).
describe.runIf(process.env.TEST_REDIS_URL)('Redis rate-limit store', () => {
  it('shares counts between instances', async () => {
    const a = createRedisStore(new Redis(process.env.TEST_REDIS_URL!), 'parley-test:');
    const b = createRedisStore(new Redis(process.env.TEST_REDIS_URL!), 'parley-test:');
    const key = `shared-${Date.now()}-${Math.random()}`;
    await exercise(a, key);
    await a.hit(key, 60_000);
    expect((await b.hit(key, 60_000)).count).toBe(2);
    await Promise.all(Array.from({ length: 20 }, () => b.hit(key, 60_000)));
    expect((await a.peek(key)).count).toBe(22);
    await a.reset(key);
    await a.close();
    await b.close();
  });
});
