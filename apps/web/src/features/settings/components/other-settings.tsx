import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { KeyIcon, buttonClasses } from '@parley/ui';
import { DisabledSitesField, PageTools, QuickAccessFields, SettingsSection, SummarizeSites } from '@parley/ui/settings';
import { AccountSettings } from './account-settings';

/**
 * /setting/other: what the extension adds to pages (Quick Access and its shortcut, the Summarize button, the tools
 * on every page) and where it adds nothing (disabled sites); own API keys, which were here, are one link away.
 */
export function OtherSettings({ apiKeysPath }: { apiKeysPath: string }) {
  const { t } = useTranslation('settings');
  return (
    <>
      <AccountSettings>
        {(settings, save) => (
          <>
            <SettingsSection title={t('other.quickAccessTitle')}>
              <QuickAccessFields settings={settings} save={save} />
            </SettingsSection>
            <SettingsSection title={t('other.summarizeTitle')} description={t('other.summarizeSubtitle')}>
              <SummarizeSites settings={settings} save={save} />
            </SettingsSection>
            <SettingsSection title={t('other.pageToolsTitle')}>
              <PageTools settings={settings} save={save} />
            </SettingsSection>
            <SettingsSection title={t('other.disabledSitesTitle')} description={t('fields.disabledSites.hint')}>
              <DisabledSitesField settings={settings} save={save} />
            </SettingsSection>
          </>
        )}
      </AccountSettings>
      <SettingsSection title={t('other.apiKeysTitle')} description={t('other.apiKeysText')}>
        <div className="pt-3">
          <Link to={apiKeysPath} className={buttonClasses('secondary')}>
            <KeyIcon />
            {t('other.apiKeysLink')}
          </Link>
        </div>
      </SettingsSection>
    </>
  );
}
