import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses, Card, LogoMark, PuzzleIcon } from '@parley/ui';
import { useExtensionPresence } from '../../../lib/use-extension-presence';

/**
 * /extensionIndex.html opened as a web address: it is the extension's own full-page chat, which only the extension can
 * open. Says where it lives and how to get there, and offers the install page or the web chat instead.
 */
export function ExtensionPageNotice({ path }: { path: string }) {
  const { t } = useTranslation('common');
  const presence = useExtensionPresence();
  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center px-4 py-8 sm:px-6">
      <Card className="space-y-5 p-6 sm:p-8">
        <LogoMark />
        <div className="space-y-2">
          <h1 className="text-xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
            {t('install.extensionPage.title')}
          </h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            <Trans
              t={t}
              i18nKey="install.extensionPage.body"
              values={{ path }}
              components={{
                code: (
                  <code className="break-all rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100" />
                ),
              }}
            />
          </p>
        </div>
        <p className="flex gap-3 rounded-lg bg-zinc-50 p-3 text-sm text-zinc-800 dark:bg-zinc-800/60 dark:text-zinc-200">
          <PuzzleIcon className="mt-0.5 h-4 w-4 shrink-0 text-blue-500" />
          <span>{t('install.extensionPage.howTo')}</span>
        </p>
        {presence.status === 'installed' ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            {t('install.extensionPage.installed')}
          </p>
        ) : presence.status === 'absent' ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('install.extensionPage.notInstalled')}</p>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row">
          {presence.status !== 'installed' && (
            <Link to="/install" className={buttonClasses('primary')}>
              {t('install.extensionPage.install')}
            </Link>
          )}
          <Link to="/chat" className={buttonClasses(presence.status === 'installed' ? 'primary' : 'secondary')}>
            {t('install.extensionPage.webChat')}
          </Link>
        </div>
      </Card>
    </div>
  );
}
