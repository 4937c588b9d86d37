import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A settings page: its name, one line on what it holds, then its sections. */
export function SettingsPage({
  title,
  description,
  shared = false,
  children,
}: {
  title: string;
  description: string;
  /** The page edits account settings that the extension uses too: say so once. */
  shared?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('settings');
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-6 sm:px-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{title}</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
        {shared && <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('sharedNote')}</p>}
      </div>
      {children}
    </div>
  );
}
