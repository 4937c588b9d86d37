import { useTranslation } from 'react-i18next';
import type { Usage } from '@parley/contract';
import { formatDate, formatNumber } from '@parley/i18n';

const TIERS = ['basic', 'advance', 'extraAdvance'] as const;
const COLORS: Record<(typeof TIERS)[number], string> = {
  basic: 'fill-sky-500',
  advance: 'fill-violet-500',
  extraAdvance: 'fill-amber-500',
};
const SWATCH: Record<(typeof TIERS)[number], string> = {
  basic: 'bg-sky-500',
  advance: 'bg-violet-500',
  extraAdvance: 'bg-amber-500',
};

/** A calendar date (YYYY-MM-DD) as a day of the person's language, without shifting it through a time zone. */
const dayLabel = (date: string, lng: string, options: Intl.DateTimeFormatOptions) =>
  formatDate(`${date}T12:00:00Z`, lng, { ...options, timeZone: 'UTC' });

/**
 * Credits used each day of the last 30, stacked by the tier of the model that answered. Drawn in SVG (no chart
 * library); the same numbers are in a table for screen readers.
 */
export function UsageChart({ days }: { days: Usage['days'] }) {
  const { t, i18n } = useTranslation('home');
  const lng = i18n.language;
  const max = Math.max(1, ...days.map((d) => d.basic + d.advance + d.extraAdvance));
  const width = 300;
  const height = 100;
  const slot = width / days.length;
  const bar = slot * 0.7;
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-32 w-full"
        preserveAspectRatio="none"
        aria-hidden="true"
        data-testid="usage-chart"
      >
        <line x1="0" x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-zinc-200 dark:stroke-zinc-700" />
        {days.map((day, i) => {
          let y = height;
          return (
            <g key={day.date}>
              <title>
                {`${dayLabel(day.date, lng, { month: 'short', day: 'numeric' })}: ${TIERS.map((tier) => `${t(`usage.${tier}`)} ${formatNumber(day[tier], lng)}`).join(', ')}`}
              </title>
              {TIERS.map((tier) => {
                const h = (day[tier] / max) * (height - 4);
                y -= h;
                return h > 0 ? (
                  <rect
                    key={tier}
                    x={i * slot + (slot - bar) / 2}
                    y={y}
                    width={bar}
                    height={h}
                    className={COLORS[tier]}
                  />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap items-center justify-between gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <span>{dayLabel(days[0]!.date, lng, { month: 'short', day: 'numeric' })}</span>
        <span className="flex flex-wrap gap-3">
          {TIERS.map((tier) => (
            <span key={tier} className="inline-flex items-center gap-1">
              <span className={`inline-block size-2.5 rounded-sm ${SWATCH[tier]}`} aria-hidden="true" />
              {t(`usage.${tier}`)}
            </span>
          ))}
        </span>
        <span>{dayLabel(days.at(-1)!.date, lng, { month: 'short', day: 'numeric' })}</span>
      </figcaption>
      {/* A table ignores the overflow that hides a .sr-only box: the box around it hides the table's width. */}
      <div className="sr-only">
        <table>
          <caption>{t('usage.chartTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('usage.day')}</th>
              {TIERS.map((tier) => (
                <th key={tier} scope="col">
                  {t(`usage.${tier}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{dayLabel(day.date, lng, { dateStyle: 'medium' })}</th>
                {TIERS.map((tier) => (
                  <td key={tier}>{formatNumber(day[tier], lng)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
