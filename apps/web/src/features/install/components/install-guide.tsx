import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses, Card, LogoMark } from '@parley/ui';

/** How to install the browser extension. `continueTo` is /home when signed in, /login otherwise. */
export function InstallGuide({ continueTo, source }: { continueTo: string; source?: string | undefined }) {
  const { t } = useTranslation('common');
  const steps = t('install.steps', { returnObjects: true }) as unknown;
  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center p-6">
      <Card className="space-y-5 p-8">
        <LogoMark />
        <div className="space-y-2">
          <h1 className="text-xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('install.title')}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('install.intro')}</p>
        </div>
        <ol className="list-decimal space-y-2 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
          {(Array.isArray(steps) ? (steps as string[]) : []).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        {source && <p className="text-xs text-zinc-500">{t('install.reference', { id: source })}</p>}
        <Link to={continueTo} className={buttonClasses('primary', 'w-full')}>
          {t('actions.continue')}
        </Link>
      </Card>
    </div>
  );
}
