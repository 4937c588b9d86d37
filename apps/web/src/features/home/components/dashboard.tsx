import { useTranslation } from 'react-i18next';
import type { Profile, Usage } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';
import { Card, SkeletonBar } from '@parley/ui';
import { useRecentChats } from '../api/recent-chats-api';
import { useUsage } from '../api/usage-api';
import { PlansOverview } from './plans-overview';
import { RecentConversations } from './recent-conversations';
import { StartActions, type StartLinks } from './start-actions';
import { UsageChart } from './usage-chart';

const CREDIT_KEYS = ['dailyCredit', 'basicCredit', 'advanceCredit', 'extraAdvanceCredit'] as const;
const USAGE_KEYS = ['basicUse', 'advanceUse', 'extraAdvanceUse'] as const;

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card flush className="min-w-0 space-y-1 p-4 sm:p-5">
      <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="break-words text-2xl font-semibold tabular-nums tracking-tight text-zinc-900 dark:text-zinc-50">
        {value}
      </dd>
      {hint && <dd className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</dd>}
    </Card>
  );
}

/** The free tier's daily uses left, per gated capability. */
function FreeTier({ gates }: { gates: Usage['gates'] }) {
  const { t, i18n } = useTranslation('home');
  const limit = gates[0]?.limit ?? 0;
  return (
    <section aria-labelledby="free-tier-heading" className="space-y-3">
      <h2
        id="free-tier-heading"
        className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
      >
        {t('freeTier.title')}
      </h2>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('freeTier.hint', { limit })}</p>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        {gates.map((gate) => (
          <li key={gate.capability}>
            <Card
              flush
              className="flex h-full flex-col justify-between gap-1 p-4 sm:flex-row sm:items-center sm:gap-3 sm:p-5"
            >
              <span className="text-sm text-zinc-700 dark:text-zinc-200">
                {t(`freeTier.capabilities.${gate.capability}`)}
              </span>
              <span className="text-sm font-medium tabular-nums text-zinc-900 dark:text-zinc-50">
                {t('freeTier.left', {
                  left: formatNumber(gate.left, i18n.language),
                  limit: formatNumber(gate.limit, i18n.language),
                })}
              </span>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

export type DashboardLinks = StartLinks & {
  /** The address of one conversation. */
  conversation: (id: string) => string;
};

/**
 * The AI dashboard, a place to start: a welcome (the first time) or a greeting, the ways to begin, the latest
 * conversations, remaining credits, the last 30 days of use, the free tier's uses left today, and the plans.
 */
export function Dashboard({ user, links }: { user: Profile; links: DashboardLinks }) {
  const { t, i18n } = useTranslation('home');
  const lng = i18n.language;
  const usage = useUsage();
  const recent = useRecentChats();
  // A first visit: the first session, and nothing written yet. Until the conversations are known, nothing is said
  // rather than the wrong greeting.
  const firstSession = user.loginCount <= 1;
  const firstVisit = firstSession && recent.data?.length === 0;
  const greetingKnown = !firstSession || !recent.isPending;
  const credits = usage.data?.credits ?? user.credits;
  const totals = usage.data?.totals ?? {
    basic: user.basicUse,
    advance: user.advanceUse,
    extraAdvance: user.extraAdvanceUse,
  };
  const used = { basicUse: totals.basic, advanceUse: totals.advance, extraAdvanceUse: totals.extraAdvance };
  // monthlyUse is defined as the sum of the three counters (spec §3); computed here so it always adds up.
  const monthlyUse = used.basicUse + used.advanceUse + used.extraAdvanceUse;
  const hint = (key: (typeof CREDIT_KEYS)[number]) =>
    key === 'dailyCredit' && usage.data
      ? `${t('credits.dailyCreditHint', { allowance: formatNumber(usage.data.dailyAllowance, lng) })} · ${t(
          'credits.renewsAt',
          { when: formatDate(usage.data.dailyRenewsAt, lng, { weekday: 'short', hour: 'numeric', minute: '2-digit' }) },
        )}`
      : t(key === 'dailyCredit' ? 'credits.dailyCreditEveryDay' : `credits.${key}Hint`);

  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-6 sm:p-6">
      <section className="space-y-1">
        {greetingKnown ? (
          <>
            <h1 className="break-words text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
              {firstVisit ? t('welcome.title', { name: user.name }) : t('greeting', { name: user.name })}
            </h1>
            <p className="text-sm text-zinc-600 dark:text-zinc-300">
              {firstVisit ? t('welcome.subtitle') : t('welcome.calmSubtitle')}
            </p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              {t('memberSince', { date: formatDate(user.joinDate, lng) })}
            </p>
          </>
        ) : (
          <div className="space-y-2" role="status" aria-label={t('title')}>
            <SkeletonBar className="h-8 w-2/3" />
            <SkeletonBar className="h-4 w-1/2" />
          </div>
        )}
      </section>

      <StartActions links={links} />

      <RecentConversations
        chats={recent.data}
        error={recent.error}
        chatPath={links.conversation}
        allPath={links.chat}
      />

      <section aria-labelledby="credits-heading" className="space-y-3">
        <h2
          id="credits-heading"
          className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
        >
          {t('credits.title')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {CREDIT_KEYS.map((key) => (
            <Stat key={key} label={t(`credits.${key}`)} value={formatNumber(credits[key], lng)} hint={hint(key)} />
          ))}
        </dl>
      </section>

      <section aria-labelledby="usage-heading" className="space-y-3">
        <h2
          id="usage-heading"
          className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
        >
          {t('usage.title')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {USAGE_KEYS.map((key) => (
            <Stat key={key} label={t(`usage.${key}`)} value={formatNumber(used[key], lng)} />
          ))}
          <Stat label={t('usage.monthlyUse')} value={formatNumber(monthlyUse, lng)} hint={t('usage.monthlyUseHint')} />
        </dl>
        {usage.data && (
          <Card>
            <UsageChart days={usage.data.days} />
          </Card>
        )}
      </section>

      {usage.data && usage.data.gates.length > 0 && <FreeTier gates={usage.data.gates} />}

      <PlansOverview current={usage.data?.plan} plansPath={links.plans} />
    </div>
  );
}
