import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatNumber } from '@parley/i18n';
import { Card, cn, focusRing } from '@parley/ui';
import { useAutomations, useConnection, useDrafts, useKeywords, useProfiles } from '../api/linkedin-api';
import { useLoaderWhile } from '../lib/linkedin-lib';
import { LINKEDIN_PATHS } from '../paths';
import { AutomationList } from './automations';
import { AccountCard, SetupHelp } from './connection';
import { DraftReview } from './drafts';
import { ProfilesManager } from './profiles';
import { CallError, LinkedinSection } from './section';
import { StatsView } from './stats';
import { Tabs } from './tabs';

const TABS = ['overview', 'history', 'stats', 'accounts', 'profiles'] as const;
type TabId = (typeof TABS)[number];

function Overview() {
  const { t, i18n } = useTranslation('linkedin');
  const connection = useConnection();
  const keywords = useKeywords();
  const profiles = useProfiles();
  const automations = useAutomations();
  const drafts = useDrafts('pending');
  useLoaderWhile(drafts.isPending, 'getPosts');
  const n = (value: number | undefined) => (value === undefined ? '—' : formatNumber(value, i18n.language));
  const counts = [
    { key: 'keywords', value: keywords.data?.filter((k) => k.active).length, to: LINKEDIN_PATHS.keywords },
    { key: 'profiles', value: profiles.data?.filter((p) => p.active).length, to: LINKEDIN_PATHS.profiles },
    { key: 'drafts', value: drafts.data?.length, to: undefined },
    {
      key: 'scheduled',
      value: automations.data?.filter((a) => a.kind === 'post' && a.status === 'Pending').length,
      to: LINKEDIN_PATHS.posts,
    },
  ] as const;
  return (
    <div className="space-y-5">
      {connection.data && !connection.data.configured && <SetupHelp />}
      {connection.data && connection.data.configured && <AccountCard connection={connection.data} />}
      {connection.isError && <CallError error={connection.error} />}
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {counts.map((c) => (
          <Card key={c.key} className="space-y-1">
            <dt className="text-sm text-zinc-500">
              {c.to ? (
                <Link to={c.to} className={cn('underline-offset-2 hover:underline', focusRing)}>
                  {t(`dashboard.counts.${c.key}`)}
                </Link>
              ) : (
                t(`dashboard.counts.${c.key}`)
              )}
            </dt>
            <dd className="text-2xl font-semibold text-zinc-900 dark:text-zinc-50">{n(c.value)}</dd>
          </Card>
        ))}
      </dl>
      <section className="space-y-3" aria-labelledby="drafts-title">
        <h2 id="drafts-title" className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">
          {t('drafts.title')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('drafts.intro')}</p>
        {drafts.isError && <CallError error={drafts.error} />}
        {drafts.data && <DraftReview drafts={drafts.data} />}
      </section>
    </div>
  );
}

function History() {
  const automations = useAutomations();
  useLoaderWhile(automations.isPending, 'automation');
  return (
    <>
      {automations.isError && <CallError error={automations.error} />}
      {automations.data && <AutomationList automations={automations.data} />}
    </>
  );
}

function Accounts() {
  const { t } = useTranslation('linkedin');
  const connection = useConnection();
  useLoaderWhile(connection.isPending, 'general');
  return (
    <div className="space-y-3">
      {connection.isError && <CallError error={connection.error} />}
      {connection.data && !connection.data.configured && <SetupHelp />}
      {connection.data && connection.data.configured && <AccountCard connection={connection.data} />}
      <p className="text-xs text-zinc-500">{t('dashboard.oneAccount')}</p>
    </div>
  );
}

/** /automation/dashboard-linkedin: Overview, History, Stats, Accounts, Manage profiles. */
export function LinkedinDashboardPage() {
  const { t } = useTranslation('linkedin');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: TabId = (TABS as readonly string[]).includes(asked ?? '') ? (asked as TabId) : 'overview';
  const content: Record<TabId, ReactNode> = {
    overview: <Overview />,
    history: <History />,
    stats: <StatsView compact />,
    accounts: <Accounts />,
    profiles: <ProfilesManager />,
  };
  return (
    <LinkedinSection title={t('dashboard.title')}>
      <Tabs
        label={t('dashboard.tabsLabel')}
        value={tab}
        onChange={(next) => setParams(next === 'overview' ? {} : { tab: next }, { replace: true })}
        tabs={TABS.map((id) => ({ id, label: t(`dashboard.tabs.${id}`), content: content[id] }))}
      />
    </LinkedinSection>
  );
}
