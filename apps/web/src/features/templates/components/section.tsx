import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { cn, focusRing, PageSection } from '@parley/ui';
import { ApiError } from '../../../lib/api';
import { TEMPLATE_PATHS } from '../paths';
import { ShortcutIcon, SignatureIcon, TemplateIcon } from './icons';

const SECTIONS = [
  { to: TEMPLATE_PATHS.list, key: 'templates', icon: <TemplateIcon width="1.1em" height="1.1em" />, end: true },
  { to: TEMPLATE_PATHS.signatures, key: 'signatures', icon: <SignatureIcon width="1.1em" height="1.1em" /> },
  { to: TEMPLATE_PATHS.shortcuts, key: 'shortcuts', icon: <ShortcutIcon width="1.1em" height="1.1em" /> },
] as const;

/** A page of the feature: its heading, the links between templates, signatures and shortcuts, its actions. */
export function TemplatesSection({
  title,
  actions,
  nav = true,
  children,
}: {
  title: string;
  actions?: ReactNode;
  nav?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('templates');
  return (
    <PageSection title={title} actions={actions}>
      {nav && (
        <nav aria-label={t('nav.label')} className="-mt-1 border-b border-zinc-200 dark:border-zinc-800">
          <ul className="flex flex-wrap gap-x-1">
            {SECTIONS.map((section) => (
              <li key={section.key}>
                <NavLink
                  to={section.to}
                  end={'end' in section ? section.end : false}
                  className={({ isActive }) =>
                    cn(
                      '-mb-px flex items-center gap-2 whitespace-nowrap rounded-t-md border-b-2 px-2.5 py-2.5 text-sm font-medium sm:px-3',
                      focusRing,
                      isActive
                        ? 'border-blue-500 text-blue-700 dark:text-blue-300'
                        : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
                    )
                  }
                >
                  <span aria-hidden="true">{section.icon}</span>
                  {t(`nav.${section.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {children}
    </PageSection>
  );
}

/** A refused AI call: the server's words, and the plans when it was refused for credits or the daily uses (402). */
export function AiRefusal({ error, plansPath }: { error: unknown; plansPath: string }) {
  const { t } = useTranslation('templates');
  const message =
    error instanceof ApiError && error.message
      ? error.message
      : error instanceof ApiError && error.status === 0
        ? t('common:errors.network')
        : t('common:errors.generic');
  return (
    <div
      role="alert"
      className="space-y-1 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200"
    >
      <p>{message}</p>
      {error instanceof ApiError && error.status === 402 && (
        <Link to={plansPath} className={cn('inline-block font-medium underline', focusRing)}>
          {t('ai.seePlans')}
        </Link>
      )}
    </div>
  );
}

/** Bordered label of what a template is for. */
export function Badge({
  children,
  tone = 'zinc',
}: {
  children: ReactNode;
  tone?: 'zinc' | 'blue' | 'violet' | 'emerald';
}) {
  const tones = {
    zinc: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
    blue: 'bg-blue-50 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300',
    violet: 'bg-violet-50 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300',
    emerald: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  };
  return (
    <span className={cn('inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium', tones[tone])}>
      {children}
    </span>
  );
}

export const KIND_TONES = { mail: 'blue', message: 'violet', customReply: 'emerald' } as const;

/** Classes of a plain multi-line field, like the shared TextField's input. */
export const textareaClasses =
  'block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';
export const invalidClasses = 'border-red-500 focus:border-red-500 focus:ring-red-500/40 dark:border-red-400';
