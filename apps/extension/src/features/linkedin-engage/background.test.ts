import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LINKEDIN_SETTINGS } from '@parley/contract';
import { createLinkedinEngage, STATS_SENT_KEY, WATCH_FRESH_MS } from './background';

function setup(userId: string | null = 'user-1') {
  const calls: Array<[string, unknown]> = [];
  const client = {
    call: vi.fn(async (name: string, input?: unknown) => {
      calls.push([name, input]);
      if (name === 'linkedinKeywords') return { keywords: [] };
      if (name === 'linkedinProfiles') return { profiles: [] };
      if (name === 'linkedinSettings') return DEFAULT_LINKEDIN_SETTINGS;
      return { saved: 1 };
    }),
  };
  const stored = new Map<string, unknown>();
  const badge = { set: vi.fn(async () => undefined) };
  let now = new Date('2026-11-26T10:00:00Z');
  let who = userId;
  const engage = createLinkedinEngage({
    client: client as never,
    ready: Promise.resolve(),
    who: async () => who,
    store: { get: async (key) => stored.get(key), set: async (key, value) => void stored.set(key, value) },
    badge,
    now: () => now,
  });
  const context = { kind: 'content-script' as const, sender: { tab: { id: 7 } } };
  return {
    engage,
    calls,
    stored,
    badge,
    context,
    later: (ms: number) => (now = new Date(now.getTime() + ms)),
    signIn: (id: string | null) => (who = id),
  };
}

describe('LinkedIn engagement in the background', () => {
  it('keeps the watch lists a few minutes for the person they belong to', async () => {
    const { engage, calls, context, later, signIn } = setup();
    const watch = await engage.handlers.LINKEDIN_WATCH(undefined, context);
    expect(watch).toEqual({ keywords: [], profiles: [], settings: DEFAULT_LINKEDIN_SETTINGS });
    await engage.handlers.LINKEDIN_WATCH(undefined, context);
    expect(calls).toHaveLength(3);
    await engage.handlers.LINKEDIN_WATCH({ fresh: true }, context);
    expect(calls).toHaveLength(6);
    later(WATCH_FRESH_MS + 1);
    await engage.handlers.LINKEDIN_WATCH(undefined, context);
    expect(calls).toHaveLength(9);
    signIn('user-2');
    await engage.handlers.LINKEDIN_WATCH(undefined, context);
    expect(calls).toHaveLength(12);
    signIn(null);
    await expect(engage.handlers.LINKEDIN_WATCH(undefined, context)).rejects.toMatchObject({ status: 401 });
  });

  it('sends each metric once a day, and only well-formed readings', async () => {
    const { engage, calls, stored, context } = setup();
    const day = '2026-11-26';
    const first = await engage.handlers.LINKEDIN_STATS(
      {
        readings: [
          { metric: 'followers', value: 1204, day },
          { metric: 'followers', value: 1300, day },
          { metric: 'connections', value: 500, day },
          { metric: 'nonsense' as never, value: 1, day },
          { metric: 'ssiScore', value: -1, day },
        ],
      },
      context,
    );
    expect(first).toEqual({ saved: 2 });
    expect(calls).toEqual([
      [
        'addLinkedinStats',
        {
          body: {
            readings: [
              { metric: 'followers', value: 1204, day },
              { metric: 'connections', value: 500, day },
            ],
          },
        },
      ],
    ]);
    expect(stored.get(STATS_SENT_KEY)).toEqual({ userId: 'user-1', days: { followers: day, connections: day } });
    expect(
      await engage.handlers.LINKEDIN_STATS({ readings: [{ metric: 'followers', value: 1210, day }] }, context),
    ).toEqual({
      saved: 0,
    });
    expect(
      await engage.handlers.LINKEDIN_STATS(
        { readings: [{ metric: 'followers', value: 1210, day: '2026-11-27' }] },
        context,
      ),
    ).toEqual({ saved: 1 });
  });

  it('puts the number of drafts ready on the tab’s badge', async () => {
    const { engage, badge, context } = setup();
    expect(await engage.handlers.LINKEDIN_DRAFTS_READY({ count: 3 }, context)).toEqual({ shown: true });
    expect(badge.set).toHaveBeenCalledWith(7, '3', 'Parley: 3');
    expect(await engage.handlers.LINKEDIN_DRAFTS_READY({ count: 0 }, context)).toEqual({ shown: false });
    expect(await engage.handlers.LINKEDIN_DRAFTS_READY({ count: 2 }, { ...context, sender: {} })).toEqual({
      shown: false,
    });
  });
});
