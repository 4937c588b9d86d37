import { useTranslation } from 'react-i18next';
import {
  AppearanceSettings,
  InstantReplySettings,
  InterfaceLanguageSettings,
  ModelSettings,
  OtherSettings,
  SettingsPage,
} from '../../features/settings';

/** Where own API keys are managed (their own page; /setting/other links there). */
export const API_KEYS_PATH = '/setting/api-keys';

/** /setting: theme and font size. */
export function AppearancePage() {
  const { t } = useTranslation('settings');
  return (
    <SettingsPage title={t('appearance.pageTitle')} description={t('appearance.subtitle')}>
      <AppearanceSettings />
    </SettingsPage>
  );
}

/** /setting/general: interface language and the default AI model. */
export function GeneralSettingsPage() {
  const { t } = useTranslation('settings');
  return (
    <SettingsPage title={t('general.pageTitle')} description={t('general.subtitle')}>
      <InterfaceLanguageSettings />
      <ModelSettings apiKeysPath={API_KEYS_PATH} />
    </SettingsPage>
  );
}

/** /setting/instant-reply: writing language, tone, length, reply option, and instant reply site by site. */
export function InstantReplyPage() {
  const { t } = useTranslation('settings');
  return (
    <SettingsPage title={t('instantReply.pageTitle')} description={t('instantReply.subtitle')} shared>
      <InstantReplySettings />
    </SettingsPage>
  );
}

/** /setting/other: Quick Access, the Summarize button, tools on every page, disabled sites. */
export function OtherSettingsPage() {
  const { t } = useTranslation('settings');
  return (
    <SettingsPage title={t('other.pageTitle')} description={t('other.subtitle')} shared>
      <OtherSettings apiKeysPath={API_KEYS_PATH} />
    </SettingsPage>
  );
}
