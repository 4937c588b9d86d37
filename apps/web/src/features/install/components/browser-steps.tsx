import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { cn, focusRing } from '@parley/ui';
import { BROWSERS, EXTENSIONS_PAGE, type BrowserId } from '../browsers';
import {
  AddressBarDrawing,
  DeveloperModeDrawing,
  LoadUnpackedDrawing,
  PinDrawing,
  UnzipDrawing,
} from './illustrations';

const code =
  'rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100';

function Step({ n, title, body, drawing }: { n: number; title: string; body: ReactNode; drawing: ReactNode }) {
  return (
    <li className="grid gap-4 rounded-xl border border-zinc-200 bg-white p-4 sm:p-5 md:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] md:items-center dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex gap-3">
        <span
          aria-hidden="true"
          className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-blue-500 text-sm font-semibold text-white"
        >
          {n}
        </span>
        <div className="min-w-0 space-y-1.5">
          <h3 className="font-semibold text-zinc-900 dark:text-zinc-50">{title}</h3>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{body}</p>
        </div>
      </div>
      {drawing}
    </li>
  );
}

/**
 * How to add the downloaded extension to Chrome, Edge or Brave: a tab per browser (this one first), five steps, each
 * with a drawing of the screen it talks about.
 */
export function BrowserSteps({
  browser,
  onBrowserChange,
  fileName,
}: {
  browser: BrowserId;
  onBrowserChange: (browser: BrowserId) => void;
  fileName: string;
}) {
  const { t } = useTranslation('common');
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const ui = (key: string) => t(`install.browserUi.${browser}.${key}`);

  // Arrow keys move between tabs (WAI-ARIA tabs pattern); only the selected tab is in the tab order.
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    let next: BrowserId | undefined;
    if (event.key in moves) {
      const index = BROWSERS.indexOf(browser) + moves[event.key]!;
      next = BROWSERS[(index + BROWSERS.length) % BROWSERS.length];
    } else if (event.key === 'Home') next = BROWSERS[0];
    else if (event.key === 'End') next = BROWSERS[BROWSERS.length - 1];
    if (!next) return;
    event.preventDefault();
    onBrowserChange(next);
    tabs.current[next]?.focus();
  };

  return (
    <section aria-labelledby="install-steps-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="install-steps-title" className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
          {t('install.steps.title', { browser: t(`install.browsers.${browser}`) })}
        </h2>
        <div
          role="tablist"
          aria-label={t('install.browsers.label')}
          onKeyDown={onKeyDown}
          className="inline-flex rounded-lg border border-zinc-200 bg-zinc-100 p-1 dark:border-zinc-800 dark:bg-zinc-900"
        >
          {BROWSERS.map((id) => (
            <button
              key={id}
              ref={(el) => {
                tabs.current[id] = el;
              }}
              type="button"
              role="tab"
              id={`install-tab-${id}`}
              aria-selected={id === browser}
              aria-controls="install-steps"
              tabIndex={id === browser ? 0 : -1}
              onClick={() => onBrowserChange(id)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
                focusRing,
                id === browser
                  ? 'bg-white text-zinc-900 shadow-xs dark:bg-zinc-700 dark:text-zinc-50'
                  : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
              )}
            >
              {t(`install.browsers.${id}`)}
            </button>
          ))}
        </div>
      </div>
      <ol id="install-steps" role="tabpanel" aria-labelledby={`install-tab-${browser}`} className="space-y-3">
        <Step
          n={1}
          title={t('install.steps.unzip.title')}
          body={
            <Trans
              t={t}
              i18nKey="install.steps.unzip.body"
              values={{ file: fileName }}
              components={{ code: <code className={code} /> }}
            />
          }
          drawing={<UnzipDrawing fileName={fileName} />}
        />
        <Step
          n={2}
          title={t('install.steps.open.title')}
          body={
            <Trans
              t={t}
              i18nKey="install.steps.open.body"
              values={{ url: EXTENSIONS_PAGE[browser], menu: ui('menu') }}
              components={{ code: <code className={code} /> }}
            />
          }
          drawing={<AddressBarDrawing browser={browser} />}
        />
        <Step
          n={3}
          title={t('install.steps.devMode.title', { label: ui('devMode') })}
          body={t('install.steps.devMode.body', { where: ui('where') })}
          drawing={<DeveloperModeDrawing browser={browser} />}
        />
        <Step
          n={4}
          title={t('install.steps.load.title', { label: ui('loadUnpacked') })}
          body={t('install.steps.load.body')}
          drawing={<LoadUnpackedDrawing browser={browser} fileName={fileName} />}
        />
        <Step
          n={5}
          title={t('install.steps.pin.title')}
          body={t('install.steps.pin.body')}
          drawing={<PinDrawing browser={browser} />}
        />
      </ol>
    </section>
  );
}
