import { useTranslation } from 'react-i18next';
import { ApiKeysSettings } from '../../features/api-keys';

/** Settings → API keys (/setting/other). */
export function ApiKeysPage() {
  const { t } = useTranslation('settings');
  return (
    <div className="mx-auto max-w-3xl space-y-6 p-6">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('title')}</h1>
      <ApiKeysSettings />
    </div>
  );
}
