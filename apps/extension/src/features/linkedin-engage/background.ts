import { LINKEDIN_METRICS, type LinkedinMetric } from '@parley/contract';
import type { ApiClient } from '@parley/api-client';
import type { LinkedinReading, LinkedinWatch } from '../../platform/messaging/protocol';
import { MessageError, type Handler } from '../../platform/messaging/router';

/** How long the watch lists are kept before LinkedIn's script gets them fetched again. */
export const WATCH_FRESH_MS = 5 * 60_000;
/** Where the day each metric was last sent is kept (storage.local), per person. */
export const STATS_SENT_KEY = 'linkedinStatsSent';

type Store = { get(key: string): Promise<unknown>; set(key: string, value: unknown): Promise<void> };
type Badge = { set(tabId: number, text: string, title: string): Promise<void> };

/**
 * The background's part of LinkedIn engagement: the watch lists (keywords, followed profiles, LinkedIn settings),
 * fetched with the token and kept a few minutes for the person they belong to; the toolbar badge when auto-engage
 * prepared drafts; and the person's numbers read on their own pages, sent at most once a day per metric.
 */
export function createLinkedinEngage(deps: {
  client: Pick<ApiClient, 'call'>;
  ready: Promise<unknown>;
  /** The signed-in person (null signed out). */
  who: () => Promise<string | null>;
  store: Store;
  badge: Badge;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  let cached: { userId: string; at: number; watch: LinkedinWatch } | null = null;
  let loading: { userId: string; promise: Promise<LinkedinWatch> } | null = null;

  const signedIn = async () => {
    await deps.ready;
    const userId = await deps.who();
    if (!userId) throw new MessageError('UNAUTHENTICATED', 'Kindly login...', 401);
    return userId;
  };

  const fetchWatch = async (): Promise<LinkedinWatch> => {
    const [keywords, profiles, settings] = await Promise.all([
      deps.client.call('linkedinKeywords'),
      deps.client.call('linkedinProfiles'),
      deps.client.call('linkedinSettings'),
    ]);
    return { keywords: keywords.keywords, profiles: profiles.profiles, settings };
  };

  const watch: Handler<'LINKEDIN_WATCH'> = async (data) => {
    const userId = await signedIn();
    const at = now().getTime();
    if (!data?.fresh && cached?.userId === userId && at - cached.at < WATCH_FRESH_MS) return cached.watch;
    if (loading?.userId !== userId) {
      const promise = fetchWatch().finally(() => {
        if (loading?.promise === promise) loading = null;
      });
      loading = { userId, promise };
    }
    const fetched = await loading.promise;
    cached = { userId, at, watch: fetched };
    return fetched;
  };

  const ready: Handler<'LINKEDIN_DRAFTS_READY'> = async (data, { sender }) => {
    const count = Math.floor(Number(data?.count));
    const tabId = sender.tab?.id;
    if (!Number.isFinite(count) || count < 1 || tabId === undefined) return { shown: false };
    await deps.badge.set(tabId, count > 99 ? '99+' : String(count), `Parley: ${count}`);
    return { shown: true };
  };

  const stats: Handler<'LINKEDIN_STATS'> = async (data) => {
    const userId = await signedIn();
    const readings = (Array.isArray(data?.readings) ? data.readings : []).filter(isReading);
    const sent = ((await deps.store.get(STATS_SENT_KEY)) ?? {}) as {
      userId?: string;
      days?: Partial<Record<LinkedinMetric, string>>;
    };
    const days = sent.userId === userId ? { ...sent.days } : {};
    // One reading per metric and day: the first of this batch, and none already sent for that day.
    const fresh = readings.filter(
      (reading, i) =>
        days[reading.metric] !== reading.day && readings.findIndex((r) => r.metric === reading.metric) === i,
    );
    if (fresh.length === 0) return { saved: 0 };
    await deps.client.call('addLinkedinStats', { body: { readings: fresh } });
    for (const reading of fresh) days[reading.metric] = reading.day;
    await deps.store.set(STATS_SENT_KEY, { userId, days });
    return { saved: fresh.length };
  };

  return {
    handlers: { LINKEDIN_WATCH: watch, LINKEDIN_DRAFTS_READY: ready, LINKEDIN_STATS: stats },
    /** Signed out or someone else signed in: nothing of the last person is kept. */
    forget() {
      cached = null;
      loading = null;
    },
  };
}

function isReading(value: unknown): value is LinkedinReading {
  const r = value as LinkedinReading | null;
  return (
    !!r &&
    (LINKEDIN_METRICS as readonly string[]).includes(r.metric) &&
    typeof r.value === 'number' &&
    Number.isFinite(r.value) &&
    r.value >= 0 &&
    typeof r.day === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(r.day)
  );
}
