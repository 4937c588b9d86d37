import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import type { Profile } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { apiCall, sendMessage } from '../../messaging/messaging';
import { FULL_PAGE_PATH } from './panel-control';

/** Who is signed in and their credits (refreshed from /api/user/profile on open, which also detects a 409). */
export function PanelHeader({ profile, mode }: { profile: Profile | null; mode: 'panel' | 'page' }) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    apiCall('profile').catch(() => undefined);
  }, []);
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <header>
      <div className="stack" style={{ gap: 4 }}>
        <strong data-testid="user-name">{profile ? profile.name || profile.email : t('session.loading')}</strong>
        {profile && (
          <>
            <span className="muted" data-testid="user-email">
              {profile.email}
            </span>
            <div className="credits" aria-label={t('header.credits')}>
              <span>
                {t('header.daily')}: {n(profile.credits.dailyCredit)}
              </span>
              <span>
                {t('header.basic')}: {n(profile.credits.basicCredit)}
              </span>
              <span>
                {t('header.advance')}: {n(profile.credits.advanceCredit)}
              </span>
              <span>
                {t('header.extraAdvance')}: {n(profile.credits.extraAdvanceCredit)}
              </span>
            </div>
          </>
        )}
      </div>
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <button onClick={() => void browser.runtime.openOptionsPage()}>{t('header.settings')}</button>
        {mode === 'panel' && (
          <button onClick={() => void browser.tabs.create({ url: browser.runtime.getURL(FULL_PAGE_PATH) })}>
            {t('header.fullPage')}
          </button>
        )}
        <button onClick={() => void sendMessage('LOGOUT').catch(() => undefined)}>{t('session.logout')}</button>
      </div>
    </header>
  );
}
