import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { buttonClasses } from '@parley/ui';

/** errorElement of the routes: 'Unexpected Application Error!' with the status or the message. */
export function RouteError() {
  const error = useRouteError();
  // Translations may be what failed; English is the fallback that always works.
  const { t } = useTranslation('common', { useSuspense: false });
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold text-zinc-900 dark:text-zinc-50">
        {t('errors.unexpected', 'Unexpected Application Error!')}
      </h1>
      <pre className="overflow-auto rounded-md bg-zinc-100 p-4 text-sm text-zinc-800 dark:bg-zinc-900 dark:text-zinc-200">
        {detail}
      </pre>
      <a href="/" className={buttonClasses('secondary', 'self-start')}>
        {t('actions.reload', 'Reload')}
      </a>
    </div>
  );
}
