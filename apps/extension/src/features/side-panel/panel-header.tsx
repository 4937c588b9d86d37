import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import type { Profile } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { LogoutIcon, SettingsIcon } from '@parley/ui';
import { apiCall, sendMessage } from '../../platform/messaging/messaging';
import { FULL_PAGE_PATH } from '../../platform/tabs/panel-control';
import { ExternalIcon } from '../../ui/icons';
import { iconButton, muted } from '../../ui/styles';

/** Who is signed in and their credits (refreshed from /api/user/profile on open, which also detects a 409). */
export function PanelHeader({ profile, mode }: { profile: Profile | null; mode: 'panel' | 'page' }) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    apiCall('profile').catch(() => undefined);
  }, []);
  const n = (value: number) => formatNumber(value, i18n.language);
  const name = profile ? profile.name || profile.email : t('session.loading');
  const credits = profile && [
    { key: 'daily', label: t('header.daily'), value: profile.credits.dailyCredit },
    { key: 'basic', label: t('header.basic'), value: profile.credits.basicCredit },
    { key: 'advance', label: t('header.advance'), value: profile.credits.advanceCredit },
    { key: 'extraAdvance', label: t('header.extraAdvance'), value: profile.credits.extraAdvanceCredit },
  ];
  return (
    <header className="border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
      <div className={mode === 'page' ? 'mx-auto w-full max-w-3xl px-4 py-2.5' : 'px-3 py-2.5'}>
        <div className="flex items-center gap-2.5">
          <span
            aria-hidden="true"
            className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-blue-500 text-sm font-semibold text-white"
          >
            {name.trim().charAt(0).toUpperCase()}
          </span>
          <div className="min-w-0 flex-1 leading-tight">
            <strong data-testid="user-name" className="block truncate text-sm font-semibold">
              {name}
            </strong>
            {profile && (
              <span data-testid="user-email" className={`block truncate text-xs ${muted}`}>
                {profile.email}
              </span>
            )}
          </div>
          <div className="flex shrink-0 items-center">
            <button
              type="button"
              className={iconButton}
              aria-label={t('header.settings')}
              title={t('header.settings')}
              onClick={() => void browser.runtime.openOptionsPage()}
            >
              <SettingsIcon width="1.15em" height="1.15em" />
            </button>
            {mode === 'panel' && (
              <button
                type="button"
                className={iconButton}
                aria-label={t('header.fullPage')}
                title={t('header.fullPage')}
                onClick={() => void browser.tabs.create({ url: browser.runtime.getURL(FULL_PAGE_PATH) })}
              >
                <ExternalIcon />
              </button>
            )}
            <button
              type="button"
              className={iconButton}
              aria-label={t('session.logout')}
              title={t('session.logout')}
              onClick={() => void sendMessage('LOGOUT').catch(() => undefined)}
            >
              <LogoutIcon width="1.15em" height="1.15em" />
            </button>
          </div>
        </div>
        {credits && (
          <ul className="mt-2 flex flex-wrap gap-1" aria-label={t('header.credits')}>
            {credits.map((c) => (
              <li
                key={c.key}
                className="inline-flex items-center gap-1 rounded-full bg-zinc-100 px-2 py-0.5 text-[0.6875rem] text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"
              >
                {c.label}
                <span className="font-semibold tabular-nums text-zinc-900 dark:text-zinc-100">{n(c.value)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </header>
  );
}
