import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings, SettingsUpdate } from '@parley/contract';
import { Alert, Button, Card, SkeletonBar } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useSaveSettings } from '../../../lib/save-settings';
import { useSettings } from '../../../lib/settings';

/**
 * The account's settings (the ones the extension uses too), loaded once for a settings page: a skeleton while they
 * load, the reason and "Try again" when they cannot, then the page's sections with the values and a save function.
 */
export function AccountSettings({
  children,
}: {
  children: (settings: Settings, save: (update: SettingsUpdate) => void) => ReactNode;
}) {
  const { t } = useTranslation('settings');
  const settings = useSettings();
  const saver = useSaveSettings();

  if (settings.isPending) {
    return (
      <div className="space-y-6" role="status" aria-label={t('title')}>
        {[0, 1].map((i) => (
          <Card key={i} className="space-y-4">
            <SkeletonBar className="h-5 w-40" />
            <SkeletonBar className="h-4 w-3/4" />
            <SkeletonBar className="h-9 w-full" />
            <SkeletonBar className="h-9 w-full" />
          </Card>
        ))}
      </div>
    );
  }
  if (settings.isError) {
    return (
      <Alert tone="error">
        <p>
          {t('loadFailed')} {errorMessage(settings.error)}
        </p>
        <Button variant="secondary" className="mt-3" onClick={() => void settings.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  }
  return <>{children(settings.data, (update) => saver.mutate(update))}</>;
}
