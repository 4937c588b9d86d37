import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChatIcon, ChevronRightIcon, PuzzleIcon, cn, focusRing } from '@parley/ui';
import { Icon, type IconProps } from '@parley/ui/icons';

const PlansIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3l9 5-9 5-9-5z" />
    <path d="M3 13l9 5 9-5" />
  </Icon>
);

export type StartLinks = { chat: string; install: string; plans: string };

function Action({ to, icon, title, hint }: { to: string; icon: ReactNode; title: string; hint: string }) {
  // An in-page address (#plans) is a plain link, so the browser scrolls to it.
  const className = cn(
    'group flex h-full items-start gap-3 rounded-xl border border-zinc-200 bg-white p-4 shadow-xs transition-colors hover:border-blue-300 hover:bg-blue-50/40 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-blue-500/50 dark:hover:bg-blue-500/5',
    focusRing,
  );
  const body = (
    <>
      <span className="inline-flex shrink-0 rounded-lg bg-blue-50 p-2 text-[1.25em] text-blue-600 dark:bg-blue-500/15 dark:text-blue-300">
        {icon}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-1 font-medium text-zinc-900 dark:text-zinc-50">
          {title}
          <ChevronRightIcon className="shrink-0 text-zinc-400 transition-transform group-hover:translate-x-0.5" />
        </span>
        <span className="mt-0.5 block text-sm text-zinc-500 dark:text-zinc-400">{hint}</span>
      </span>
    </>
  );
  return to.startsWith('#') ? (
    <a href={to} className={className}>
      {body}
    </a>
  ) : (
    <Link to={to} className={className}>
      {body}
    </Link>
  );
}

/** The three ways to begin: a chat, the browser extension, the plans. */
export function StartActions({ links }: { links: StartLinks }) {
  const { t } = useTranslation('home');
  return (
    <section aria-labelledby="start-heading" className="space-y-3">
      <h2 id="start-heading" className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        {t('start.title')}
      </h2>
      <ul className="grid gap-3 md:grid-cols-3">
        <li>
          <Action to={links.chat} icon={<ChatIcon />} title={t('start.chat')} hint={t('start.chatHint')} />
        </li>
        <li>
          <Action to={links.install} icon={<PuzzleIcon />} title={t('start.install')} hint={t('start.installHint')} />
        </li>
        <li>
          <Action to={links.plans} icon={<PlansIcon />} title={t('start.plans')} hint={t('start.plansHint')} />
        </li>
      </ul>
    </section>
  );
}
