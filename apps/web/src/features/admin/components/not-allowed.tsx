import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses, Card } from '@parley/ui';
import { NoEntryIcon } from './icons';

/** What someone who is not a site admin sees at /admin-portal (the server refuses them every admin call anyway). */
export function NotAllowed() {
  const { t } = useTranslation('admin');
  return (
    <div className="mx-auto max-w-lg p-6">
      <Card className="space-y-3 text-center">
        <NoEntryIcon className="mx-auto h-10 w-10 text-zinc-400" aria-hidden="true" />
        <h1 className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">{t('notAllowed.title')}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('notAllowed.body')}</p>
        <Link to="/home" className={buttonClasses('primary')}>
          {t('notAllowed.home')}
        </Link>
      </Card>
    </div>
  );
}
