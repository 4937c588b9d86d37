import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Card, SkeletonBar } from '@parley/ui';
import { ModelSelectField } from '@parley/ui/chat';
import { SettingsSection } from '@parley/ui/settings';
import { errorMessage } from '../../../lib/api';
import { useModels } from '../../../lib/models';
import { AccountSettings } from './account-settings';

/**
 * The default AI model: the catalogue as this server offers it to this person (unavailable models disabled, with
 * the reason), and a note when the stored choice cannot run here and another model answers.
 */
export function ModelSettings({ apiKeysPath }: { apiKeysPath: string }) {
  const { t } = useTranslation('settings');
  const models = useModels();
  return (
    <AccountSettings>
      {(settings, save) =>
        models.isPending ? (
          <Card className="space-y-3" aria-busy="true">
            <SkeletonBar className="h-5 w-32" />
            <SkeletonBar className="h-9 w-full" />
          </Card>
        ) : (
          <SettingsSection title={t('general.modelTitle')} description={t('general.modelSubtitle')}>
            <div className="pt-3">
              {models.isError ? (
                <Alert tone="error">{errorMessage(models.error)}</Alert>
              ) : (
                <ModelSelectField
                  models={models.data}
                  value={settings.model}
                  onChange={(model) => save({ model })}
                  label={t('fields.model.label')}
                  addKeyLink={(className, label) => (
                    <Link to={apiKeysPath} className={className}>
                      {label}
                    </Link>
                  )}
                />
              )}
            </div>
          </SettingsSection>
        )
      }
    </AccountSettings>
  );
}
