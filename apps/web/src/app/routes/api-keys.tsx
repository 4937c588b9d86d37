import { useTranslation } from 'react-i18next';
import { ApiKeysSettings } from '../../features/api-keys';
import { SettingsPage } from '../../features/settings';

/** Settings → API keys (/setting/api-keys). */
export function ApiKeysPage() {
  const { t } = useTranslation('apiKeys');
  return (
    <SettingsPage title={t('title')} description={t('subtitle')}>
      <ApiKeysSettings />
    </SettingsPage>
  );
}
