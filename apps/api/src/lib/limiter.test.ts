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

  it('background work takes a place only when nothing else waits, and leaves one free', async () => {
    const limiter = createLimiter(2);
    const order: string[] = [];
    const take = (name: string, background = false) =>
      limiter.acquire({ background }).then((release) => (order.push(name), release));
    const b1 = await take('b1', true);
    // One background holder at most out of two places: the second waits, a request does not.
    const b2 = take('b2', true);
    const r1 = await take('r1');
    await Promise.resolve();
    expect(order).toEqual(['b1', 'r1']);
    expect(limiter).toMatchObject({ active: 2, waiting: 0, waitingBackground: 1 });
    // A request waiting goes before the background work that waited first.
    const r2 = take('r2');
    b1();
    const r2Release = await r2;
    expect(order).toEqual(['b1', 'r1', 'r2']);
    r1();
    const b2Release = await b2;
    expect(order).toEqual(['b1', 'r1', 'r2', 'b2']);
    r2Release();
    b2Release();
    expect(limiter).toMatchObject({ active: 0, waiting: 0, waitingBackground: 0 });
  });

  it('with one place, background work still gets it when nothing else waits', async () => {
    const limiter = createLimiter(1);
    const release = await limiter.acquire({ background: true });
    expect(limiter.active).toBe(1);
    release();
    expect(limiter.active).toBe(0);
  });

  it('work called off while it waits leaves the queue; the next in line gets the place', async () => {
    const limiter = createLimiter(1);
    const first = await limiter.acquire();
    const stop = new AbortController();
    const calledOff = limiter.acquireUnless(stop.signal);
    const after = limiter.acquireUnless(new AbortController().signal);
    expect(limiter).toMatchObject({ active: 1, waiting: 2 });
    stop.abort(new Error('timed out'));
    await expect(calledOff).rejects.toThrow('timed out');
    expect(limiter).toMatchObject({ active: 1, waiting: 1 });
    first();
    const second = await after;
    expect(limiter).toMatchObject({ active: 1, waiting: 0 });
    second();
    // Called off before it asked: never queued.
    await expect(limiter.acquireUnless(stop.signal)).rejects.toThrow('timed out');
    expect(limiter).toMatchObject({ active: 0, waiting: 0 });
  });
});
