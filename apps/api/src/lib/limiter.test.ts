import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.js';

describe('createLimiter', () => {
  it('lets at most max through, then the others in arrival order, one per release', async () => {
    const limiter = createLimiter(2);
    const order: number[] = [];
    const releases = await Promise.all([limiter.acquire(), limiter.acquire()]);
    const later = [3, 4, 5].map((n) => limiter.acquire().then((release) => (order.push(n), release)));
    await Promise.resolve();
    expect(limiter).toMatchObject({ active: 2, waiting: 3 });

    releases[0]!();
    releases[0]!(); // a second call changes nothing
    const third = await later[0]!;
    expect(order).toEqual([3]);
    expect(limiter).toMatchObject({ active: 2, waiting: 2 });

    releases[1]!();
    third();
    const [fourth, fifth] = await Promise.all([later[1]!, later[2]!]);
    expect(order).toEqual([3, 4, 5]);
    fourth();
    fifth();
    expect(limiter).toMatchObject({ active: 0, waiting: 0 });
  });
});
