import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ExtensionInfo } from '@parley/contract';
import { formatFileSize } from '@parley/i18n';
import { Button, buttonClasses, Card, cn, LogoMark, SkeletonBar, Spinner } from '@parley/ui';
import type { ExtensionPresence } from '../../../lib/extension-bridge';
import { useExtensionPresence } from '../../../lib/use-extension-presence';
import { EXTENSION_DOWNLOAD_URL, useExtensionInfo } from '../api/extension-api';
import { detectBrowser, type BrowserId } from '../browsers';
import { BrowserSteps } from './browser-steps';

const DEFAULT_FILE_NAME = 'parley-extension.zip';

function CheckIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      aria-hidden="true"
    >
      <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function DownloadIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
      <path d="M12 4v11m0 0l-4.5-4.5M12 15l4.5-4.5M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Whether this browser already has the extension, as its bridge content script says. */
function PresenceStatus({ presence }: { presence: ExtensionPresence }) {
  const { t } = useTranslation('common');
  if (presence.status === 'checking') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
        <Spinner className="h-4 w-4" />
        {t('install.checking')}
      </p>
    );
  }
  if (presence.status === 'absent') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
        <span aria-hidden="true" className="h-2 w-2 rounded-full bg-zinc-300 dark:bg-zinc-600" />
        {t('install.absent')}
      </p>
    );
  }
  return (
    <div
      role="status"
      className="flex gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
    >
      <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-emerald-500 text-white">
        <CheckIcon className="h-5 w-5" />
      </span>
      <div className="min-w-0 space-y-1">
        <p className="font-semibold">{t('install.installed.title')}</p>
        <p className="text-sm">{t('install.installed.body')}</p>
        {presence.version && (
          <p className="text-xs text-emerald-700 dark:text-emerald-300">
            {t('install.installed.version', { version: presence.version })}
          </p>
        )}
      </div>
    </div>
  );
}

function StoreCard({ url }: { url: string }) {
  const { t } = useTranslation('common');
  return (
    <Card className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="space-y-1">
        <h2 className="font-semibold text-zinc-900 dark:text-zinc-50">{t('install.store.title')}</h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('install.store.body')}</p>
      </div>
      <a href={url} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary', 'shrink-0')}>
        {t('install.store.action')}
      </a>
    </Card>
  );
}

function DownloadCard({ info, secondary }: { info: ExtensionInfo; secondary: boolean }) {
  const { t, i18n } = useTranslation('common');
  const fileName = info.fileName ?? DEFAULT_FILE_NAME;
  return (
    <Card className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h2 className="font-semibold text-zinc-900 dark:text-zinc-50">
            {secondary ? t('install.store.manual') : t('install.download.title')}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('install.download.body')}</p>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            {t('install.download.meta', {
              version: info.version ?? '',
              size: formatFileSize(info.size ?? 0, i18n.language),
            })}
          </p>
        </div>
        <a
          href={EXTENSION_DOWNLOAD_URL}
          download={fileName}
          className={buttonClasses(secondary ? 'secondary' : 'primary', 'shrink-0')}
        >
          <DownloadIcon className="h-4 w-4" />
          {t('install.download.action')}
        </a>
      </div>
      <p className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:bg-blue-950/50 dark:text-blue-100">
        {t('install.download.unzip')}
      </p>
    </Card>
  );
}

function NotBuiltCard({ onRetry, busy }: { onRetry: () => void; busy: boolean }) {
  const { t } = useTranslation('common');
  return (
    <div
      role="status"
      className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <h2 className="font-semibold">{t('install.notBuilt.title')}</h2>
      <p className="text-sm">{t('install.notBuilt.body')}</p>
      <Button variant="secondary" onClick={onRetry} loading={busy}>
        {t('install.notBuilt.again')}
      </Button>
    </div>
  );
}

/**
 * /install: the extension this server offers (its store page first when there is one, then the download), how to add
 * it to Chrome, Edge or Brave, and whether this browser already has it. `continueTo` is where Continue leads.
 */
export function InstallGuide({ continueTo, source }: { continueTo: string; source?: string | undefined }) {
  const { t } = useTranslation('common');
  const info = useExtensionInfo();
  const presence = useExtensionPresence();
  const [browser, setBrowser] = useState<BrowserId>(() => detectBrowser());

  let offer: ReactNode;
  if (info.isPending) {
    offer = (
      <Card className="space-y-3" aria-busy="true">
        <span className="sr-only">{t('install.download.loading')}</span>
        <SkeletonBar className="h-4 w-48" />
        <SkeletonBar className="h-3 w-72 max-w-full" />
        <SkeletonBar className="h-9 w-40" />
      </Card>
    );
  } else if (info.isError) {
    offer = (
      <div
        role="alert"
        className="space-y-3 rounded-xl border border-red-200 bg-red-50 p-5 text-red-900 dark:border-red-900 dark:bg-red-950/50 dark:text-red-100"
      >
        <p className="text-sm">{t('install.download.failed')}</p>
        <Button variant="secondary" onClick={() => void info.refetch()} loading={info.isFetching}>
          {t('install.download.retry')}
        </Button>
      </div>
    );
  } else {
    const storeUrl = info.data.storeUrl;
    offer = (
      <>
        {storeUrl && <StoreCard url={storeUrl} />}
        {info.data.available ? (
          <DownloadCard info={info.data} secondary={!!storeUrl} />
        ) : (
          <NotBuiltCard onRetry={() => void info.refetch()} busy={info.isFetching} />
        )}
      </>
    );
  }

  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-8 sm:px-6 sm:py-12">
      <header className="space-y-4">
        <LogoMark />
        <div className="space-y-2">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
            {t('install.title')}
          </h1>
          <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">{t('install.intro')}</p>
        </div>
        <PresenceStatus presence={presence} />
        {presence.status === 'installed' && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('install.installed.otherBrowser')}</p>
        )}
      </header>

      <div className="space-y-4">{offer}</div>

      <BrowserSteps
        browser={browser}
        onBrowserChange={setBrowser}
        fileName={(info.data?.available && info.data.fileName) || DEFAULT_FILE_NAME}
      />

      <footer
        className={cn(
          'flex flex-col-reverse gap-4 border-t border-zinc-200 pt-6 sm:flex-row sm:items-center dark:border-zinc-800',
          presence.status === 'absent' ? 'sm:justify-between' : 'sm:justify-end',
        )}
      >
        {presence.status === 'absent' && (
          <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
            {t('install.reload')}
            <Button variant="ghost" className="px-2 py-1" onClick={() => window.location.reload()}>
              {t('install.reloadAction')}
            </Button>
          </p>
        )}
        <Link to={continueTo} className={buttonClasses('primary', 'sm:w-auto')}>
          {t('actions.continue')}
        </Link>
      </footer>
      {source && <p className="text-xs text-zinc-500">{t('install.reference', { id: source })}</p>}
    </div>
  );
}
