import { useTranslation } from 'react-i18next';
import { InstantReplySites, SettingsSection, WritingFields } from '@parley/ui/settings';
import { AccountSettings } from './account-settings';

/** /setting/instant-reply: how replies are written (language, tone, length, reply option) and on which sites. */
export function InstantReplySettings() {
  const { t } = useTranslation('settings');
  return (
    <AccountSettings>
      {(settings, save) => (
        <>
          <SettingsSection title={t('instantReply.writingTitle')} description={t('instantReply.writingSubtitle')}>
            <WritingFields settings={settings} save={save} />
          </SettingsSection>
          <SettingsSection title={t('instantReply.sitesTitle')} description={t('instantReply.sitesSubtitle')}>
            <InstantReplySites settings={settings} save={save} />
          </SettingsSection>
        </>
      )}
    </AccountSettings>
  );
}
