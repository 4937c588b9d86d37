import { useTranslation } from 'react-i18next';
import { FONT_SIZES, THEMES } from '@parley/contract/values';
import { Card, CardTitle, SelectField } from '@parley/ui';
import { setAppearance, useAppearance, type Theme } from '../../../lib/appearance';
import { getToken } from '../../../lib/session';
import { useUpdateSettings } from '../../../lib/settings';
import { ChoiceGroup } from './choice-group';

/** Theme and font size: applied at once and kept in this browser; the theme is also sent to the shared settings. */
export function AppearanceSettings() {
  const { t } = useTranslation('settings');
  const appearance = useAppearance();
  const update = useUpdateSettings();

  const onTheme = (theme: Theme) => {
    setAppearance({ theme });
    // Best effort: the extension reads the theme from the shared settings; the browser keeps its own copy anyway.
    if (getToken()) update.mutate({ theme });
  };

  return (
    <Card className="space-y-6">
      <div>
        <CardTitle>{t('appearance.title')}</CardTitle>
        <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{t('appearance.subtitle')}</p>
      </div>
      <ChoiceGroup
        legend={t('appearance.theme')}
        name="theme"
        value={appearance.theme}
        options={THEMES.map((theme) => ({ value: theme, label: t(`appearance.themes.${theme}`) }))}
        onChange={onTheme}
      />
      <div className="max-w-xs">
        <SelectField
          label={t('appearance.fontSize')}
          hint={t('appearance.fontSizeHint')}
          value={String(appearance.fontSize)}
          onChange={(e) => setAppearance({ fontSize: Number(e.target.value) })}
          options={FONT_SIZES.map((size) => ({ value: String(size), label: t('appearance.pixels', { size }) }))}
        />
      </div>
    </Card>
  );
}
