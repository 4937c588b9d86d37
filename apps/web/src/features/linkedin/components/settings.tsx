import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, CardTitle, cn, focusRing } from '@parley/ui';
import { useConnection, useLinkedinSettings } from '../api/linkedin-api';
import { useLoaderWhile } from '../lib/linkedin-lib';
import { LINKEDIN_PATHS } from '../paths';
import { AccountCard, SetupHelp } from './connection';
import { EngageSettings } from './engage-settings';
import { CallError, LinkedinSection } from './section';

/** /automation/linkedInSetting: the account, engagement settings, and where the rest lives. */
export function LinkedinSettingsPage() {
  const { t } = useTranslation('linkedin');
  const settings = useLinkedinSettings();
  const connection = useConnection();
  useLoaderWhile(settings.isPending, 'settings');
  const links = [
    { to: LINKEDIN_PATHS.customization, key: 'customization' },
    { to: LINKEDIN_PATHS.keywords, key: 'keywords' },
    { to: LINKEDIN_PATHS.profiles, key: 'profiles' },
    { to: LINKEDIN_PATHS.automations, key: 'automations' },
  ] as const;
  return (
    <LinkedinSection title={t('settingsPage.title')} intro={t('settingsPage.intro')}>
      {connection.data && !connection.data.configured && <SetupHelp />}
      {connection.data && connection.data.configured && <AccountCard connection={connection.data} />}
      {settings.isError && <CallError error={settings.error} />}
      {settings.data && <EngageSettings settings={settings.data} />}
      <Card className="space-y-2">
        <CardTitle>{t('settingsPage.more')}</CardTitle>
        <ul className="space-y-1">
          {links.map((l) => (
            <li key={l.key}>
              <Link to={l.to} className={cn('text-sm font-medium text-blue-600 underline', focusRing)}>
                {t(`nav.${l.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </Card>
    </LinkedinSection>
  );
}
