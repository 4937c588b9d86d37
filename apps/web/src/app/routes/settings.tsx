import { useTranslation } from 'react-i18next';
import { AppearanceSettings, GeneralSettings } from '../../features/settings';

function SettingsPage({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation('settings');
  return (
    <div className="mx-auto max-w-3xl space-y-6 p-6">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('title')}</h1>
      {children}
    </div>
  );
}

export function AppearancePage() {
  return (
    <SettingsPage>
      <AppearanceSettings />
    </SettingsPage>
  );
}

export function GeneralSettingsPage() {
  return (
    <SettingsPage>
      <GeneralSettings />
    </SettingsPage>
  );
}
