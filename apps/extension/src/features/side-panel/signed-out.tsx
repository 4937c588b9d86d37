import { useTranslation } from 'react-i18next';
import { browser } from 'wxt/browser';
import { Button, LogoMark } from '@parley/ui';
import { webUrl } from '../../config';
import type { EndReason } from '../../platform/storage/session-store';
import { muted, notice } from '../../ui/styles';

/**
 * Spec §8: 'Kindly login...' with a way to the web app's login; after a 409, 'You have been logged out' with the
 * server's reason when it gave one.
 */
export function SignedOut({ endReason, endMessage }: { endReason: EndReason | null; endMessage?: string | null }) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 p-5 dark:bg-zinc-950">
      <div className="w-full max-w-sm space-y-4 rounded-2xl border border-zinc-200 bg-white p-6 text-center shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <LogoMark className="mx-auto inline-flex h-12 w-12 items-center justify-center rounded-2xl bg-blue-500 text-2xl text-white" />
        {endReason === 'forced' && (
          <p role="alert" className={notice}>
            {endMessage || t('session.loggedOut')}
          </p>
        )}
        <div className="space-y-1.5">
          <h1 className="text-lg font-semibold">{t('session.kindlyLogin')}</h1>
          <p className={`text-sm ${muted}`}>{t('session.loginHint')}</p>
        </div>
        <Button className="w-full" onClick={() => void browser.tabs.create({ url: webUrl('/login') })}>
          {t('session.login')}
        </Button>
      </div>
    </main>
  );
}
