import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { Alert, cn, Field, focusRing, PageSection } from '@parley/ui';
import { ApiError } from '../../../lib/api';
import { LINKEDIN_PATHS, PLANS_PATH } from '../paths';

const SECTIONS = [
  { to: LINKEDIN_PATHS.dashboard, key: 'dashboard' },
  { to: LINKEDIN_PATHS.keywords, key: 'keywords' },
  { to: LINKEDIN_PATHS.profiles, key: 'profiles' },
  { to: LINKEDIN_PATHS.customization, key: 'customization' },
  { to: LINKEDIN_PATHS.posts, key: 'posts' },
  { to: LINKEDIN_PATHS.stats, key: 'stats' },
  { to: LINKEDIN_PATHS.automations, key: 'automations' },
  { to: LINKEDIN_PATHS.settings, key: 'settings' },
] as const;

/** A page of the LinkedIn assistant: its heading, the links between its pages, its actions. */
export function LinkedinSection({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('linkedin');
  return (
    <PageSection title={title} actions={actions}>
      {intro && <p className="-mt-2 text-sm text-zinc-600 dark:text-zinc-400">{intro}</p>}
      {/* On a narrow screen the links wrap onto more lines: none is hidden or cut. */}
      <nav aria-label={t('nav.label')} className="border-b border-zinc-200 dark:border-zinc-800">
        <ul className="flex flex-wrap gap-x-1">
          {SECTIONS.map((section) => (
            <li key={section.key}>
              <NavLink
                to={section.to}
                className={({ isActive }) =>
                  cn(
                    '-mb-px inline-flex items-center border-b-2 px-3 py-2 text-sm font-medium',
                    focusRing,
                    isActive
                      ? 'border-blue-500 text-blue-700 dark:text-blue-300'
                      : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
                  )
                }
              >
                {t(`nav.${section.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </PageSection>
  );
}

/** The message of a failed call: the server's localized words when it sent some. */
export function useErrorText() {
  const { t } = useTranslation('linkedin');
  return (error: unknown) =>
    error instanceof ApiError && error.status !== 0 && error.message
      ? error.message
      : error instanceof ApiError && error.status === 0
        ? t('common:errors.network')
        : t('common:errors.generic');
}

/** A refused call, with the plans when the plan was not enough (402) and the connection when LinkedIn needs it. */
export function CallError({ error, className }: { error: unknown; className?: string }) {
  const { t } = useTranslation('linkedin');
  const text = useErrorText();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : '';
  return (
    <Alert tone="error" className={className}>
      <p>{text(error)}</p>
      {error instanceof ApiError && error.status === 402 && (
        <Link to={PLANS_PATH} className={cn('mt-1 inline-block font-medium underline', focusRing)}>
          {t('upgrade.seePlans')}
        </Link>
      )}
      {(code === 'LINKEDIN_NOT_CONNECTED' || code === 'LINKEDIN_LOGIN_NEEDED') && (
        <Link to={LINKEDIN_PATHS.connect} className={cn('mt-1 inline-block font-medium underline', focusRing)}>
          {t('connect.action')}
        </Link>
      )}
    </Alert>
  );
}

/** Spec §6: automatic engagement needs Pro or Plus. */
export function UpgradePrompt({ message }: { message?: string }) {
  const { t } = useTranslation('linkedin');
  return (
    <div
      role="alert"
      className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="font-medium">{t('upgrade.title')}</p>
      <p>{message || t('upgrade.text')}</p>
      <Link
        to={PLANS_PATH}
        className={cn(
          'inline-flex rounded-md bg-amber-600 px-3 py-1.5 font-medium text-white hover:bg-amber-700',
          focusRing,
        )}
      >
        {t('upgrade.seePlans')}
      </Link>
    </div>
  );
}

const STATUS_TONES = {
  Pending: 'bg-amber-50 text-amber-800 dark:bg-amber-500/15 dark:text-amber-200',
  Completed: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-200',
  Error: 'bg-red-50 text-red-800 dark:bg-red-500/15 dark:text-red-200',
} as const;

/** An automation's status (spec §3: Pending, Completed, Error). */
export function StatusBadge({ status }: { status: keyof typeof STATUS_TONES }) {
  const { t } = useTranslation('linkedin');
  return (
    <span className={cn('inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-medium', STATUS_TONES[status])}>
      {t(`status.${status}`)}
    </span>
  );
}

/** An empty list's words. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
      {children}
    </p>
  );
}

/** A labelled multi-line field. */
export function TextArea({
  id,
  label,
  hint,
  value,
  onChange,
  rows = 4,
  maxLength,
  error,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  maxLength?: number;
  error?: string | undefined;
}) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        rows={rows}
        value={value}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={cn(
          'block w-full rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs focus:outline-none focus:ring-2 dark:bg-zinc-900 dark:text-zinc-100',
          error
            ? 'border-red-500 focus:ring-red-500/40'
            : 'border-zinc-300 focus:border-blue-500 focus:ring-blue-500/40 dark:border-zinc-700',
        )}
      />
    </Field>
  );
}
