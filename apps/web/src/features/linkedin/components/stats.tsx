import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LINKEDIN_METRICS,
  PROFILE_VIEWERS_DAYS,
  STATS_IMPORT_MAX_BYTES,
  type LinkedinMetric,
  type LinkedinStats,
} from '@parley/contract';
import type { StatsImportResult } from '@parley/api-client/linkedin';
import { formatDate, formatFileSize, formatNumber } from '@parley/i18n';
import { Alert, Card, CardTitle, cn, focusRing } from '@parley/ui';
import { toast } from '../../../lib/toast';
import { useWithLoader } from '../../../lib/global-loader';
import { useImportStats, useStats } from '../api/linkedin-api';
import { calendarDay, useLoaderWhile } from '../lib/linkedin-lib';
import { CallError, Empty, LinkedinSection } from './section';

type Point = LinkedinStats['series'][LinkedinMetric][number];

const dayLabel = (day: string, lng: string, options: Intl.DateTimeFormatOptions) =>
  formatDate(calendarDay(day), lng, { ...options, timeZone: 'UTC' });

/**
 * One metric over time, drawn in SVG as the dashboard's usage chart is (no chart library); the same numbers are in
 * a table for screen readers.
 */
export function MetricChart({ metric, points }: { metric: LinkedinMetric; points: Point[] }) {
  const { t, i18n } = useTranslation('linkedin');
  const lng = i18n.language;
  if (points.length === 0) return <p className="text-xs text-zinc-500">{t('stats.noData')}</p>;
  const width = 200;
  const height = 60;
  const values = points.map((p) => p.value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const x = (i: number) => (points.length === 1 ? width / 2 : (i / (points.length - 1)) * width);
  const y = (v: number) => height - 4 - ((v - min) / span) * (height - 8);
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const area = `${line} L${x(points.length - 1).toFixed(1)},${height} L${x(0).toFixed(1)},${height} Z`;
  return (
    <figure className="space-y-1">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        className="h-16 w-full"
        aria-hidden="true"
        data-testid={`chart-${metric}`}
      >
        <path d={area} className="fill-blue-500/10" />
        <path d={line} className="fill-none stroke-blue-500" strokeWidth="2" vectorEffect="non-scaling-stroke" />
        {points.length === 1 && <circle cx={x(0)} cy={y(points[0]!.value)} r="3" className="fill-blue-500" />}
      </svg>
      <figcaption className="flex justify-between text-xs text-zinc-500">
        <span>{dayLabel(points[0]!.day, lng, { month: 'short', day: 'numeric' })}</span>
        <span>{dayLabel(points.at(-1)!.day, lng, { month: 'short', day: 'numeric' })}</span>
      </figcaption>
      <div className="sr-only">
        <table>
          <caption>
            {t('stats.chartOf', { metric: t(`stats.metrics.${metric}`, { days: PROFILE_VIEWERS_DAYS }) })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('stats.day')}</th>
              <th scope="col">{t(`stats.metrics.${metric}`, { days: PROFILE_VIEWERS_DAYS })}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.day}>
                <th scope="row">{dayLabel(p.day, lng, { dateStyle: 'medium' })}</th>
                <td>{formatNumber(p.value, lng)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** The eight metrics (spec §3), latest value and a chart each. */
export function StatsGrid({ stats, charts = true }: { stats: LinkedinStats; charts?: boolean }) {
  const { t, i18n } = useTranslation('linkedin');
  const lng = i18n.language;
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label={t('stats.metricsLabel')}>
      {LINKEDIN_METRICS.map((metric) => {
        const latest = stats.latest[metric];
        return (
          <li key={metric}>
            <Card flush className="h-full min-w-0 space-y-2 p-3 sm:p-5">
              <h3 className="text-sm text-zinc-500">{t(`stats.metrics.${metric}`, { days: PROFILE_VIEWERS_DAYS })}</h3>
              <p className="break-words text-xl font-semibold text-zinc-900 sm:text-2xl dark:text-zinc-50">
                {latest ? formatNumber(latest.value, lng) : '—'}
              </p>
              {latest && (
                <p className="text-xs text-zinc-500">
                  {t('stats.asOf', { date: dayLabel(latest.day, lng, { dateStyle: 'medium' }) })}
                </p>
              )}
              {charts && <MetricChart metric={metric} points={stats.series[metric] ?? []} />}
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

const PERIODS = [30, 90, 365] as const;

/** LinkedIn's analytics export, sent as it is (CSV or XLSX). */
function ImportStats() {
  const { t, i18n } = useTranslation('linkedin');
  const importStats = useImportStats();
  const withLoader = useWithLoader();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<StatsImportResult | null>(null);

  const send = async (file: File | undefined) => {
    setProblem(null);
    setResult(null);
    if (!file) return;
    if (!/\.(csv|xlsx)$/i.test(file.name)) {
      setProblem(t('stats.import.wrongType'));
      return;
    }
    if (file.size > STATS_IMPORT_MAX_BYTES) {
      setProblem(t('stats.import.tooBig', { size: formatFileSize(STATS_IMPORT_MAX_BYTES, i18n.language) }));
      return;
    }
    try {
      const answer = await withLoader('saving', () => importStats.mutateAsync(file));
      setResult(answer);
      toast.success(t('stats.import.done', { count: answer?.imported ?? 0 }));
    } catch {
      // Shown below.
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Card className="space-y-3">
      <CardTitle>{t('stats.import.title')}</CardTitle>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('stats.import.how')}</p>
      <p className="text-xs text-zinc-500">{t('stats.import.columns')}</p>
      <div>
        <label
          htmlFor={id}
          className={cn(
            'inline-flex cursor-pointer items-center rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium text-zinc-900 hover:bg-zinc-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
          )}
        >
          {t('stats.import.choose')}
          <input
            ref={input}
            id={id}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="sr-only"
            onChange={(e) => void send(e.target.files?.[0])}
          />
        </label>
      </div>
      {problem && <Alert tone="error">{problem}</Alert>}
      {importStats.isError && <CallError error={importStats.error} />}
      {result && (
        <Alert tone="success">
          {t('stats.import.result', {
            count: result.imported,
            n: formatNumber(result.imported, i18n.language),
            days: formatNumber(result.days, i18n.language),
          })}
        </Alert>
      )}
      {result?.notes?.includes('followersWithoutTotal') && (
        <Alert tone="info">{t('stats.import.notes.followersWithoutTotal')}</Alert>
      )}
    </Card>
  );
}

/** The stats with a choice of period (the dashboard's Stats tab and the stats page). */
export function StatsView({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('linkedin');
  const [days, setDays] = useState<(typeof PERIODS)[number]>(90);
  const stats = useStats(days);
  useLoaderWhile(stats.isPending, 'general');
  const empty = stats.data && LINKEDIN_METRICS.every((m) => !stats.data.latest[m]);
  return (
    <div className="space-y-4">
      <div role="group" aria-label={t('stats.period')} className="flex flex-wrap gap-2">
        {PERIODS.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={days === p}
            onClick={() => setDays(p)}
            className={cn(
              'rounded-full border px-3 py-1 text-sm',
              focusRing,
              days === p
                ? 'border-blue-500 bg-blue-50 text-blue-700 dark:bg-blue-500/15 dark:text-blue-200'
                : 'border-zinc-300 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300',
            )}
          >
            {t('stats.lastDays', { count: p })}
          </button>
        ))}
      </div>
      {stats.isError && <CallError error={stats.error} />}
      {empty && <Empty>{t('stats.empty')}</Empty>}
      {stats.data && <StatsGrid stats={stats.data} charts={!compact || !empty} />}
    </div>
  );
}

/** /automation/linkedInStatus: the stats, over time, and the import of LinkedIn's export. */
export function StatsPage() {
  const { t } = useTranslation('linkedin');
  return (
    <LinkedinSection title={t('stats.title')} intro={t('stats.intro')}>
      <StatsView />
      <ImportStats />
      <p className="text-xs text-zinc-500">{t('stats.sources')}</p>
    </LinkedinSection>
  );
}
