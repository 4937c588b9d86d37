import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import { webUrl } from '../../config';
import type { EndReason } from '../auth/session-store';

/** Spec §8: 'Kindly login...' with a way to the web app's login; 'You have been logged out' after a 409. */
export function SignedOut({ endReason }: { endReason: EndReason | null }) {
  const { t } = useTranslation();
  return (
    <main className="stack" style={{ padding: 24 }}>
      {endReason === 'forced' && (
        <p role="alert" className="notice">
          {t('session.loggedOut')}
        </p>
      )}
      <h1 style={{ fontSize: 18, margin: 0 }}>{t('session.kindlyLogin')}</h1>
      <p className="muted">{t('session.loginHint')}</p>
      <div>
        <button className="primary" onClick={() => void browser.tabs.create({ url: webUrl('/login') })}>
          {t('session.login')}
        </button>
      </div>
    </main>
  );
}
