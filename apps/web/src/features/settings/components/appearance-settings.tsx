import { useTranslation } from 'react-i18next';
import { FONT_SIZES, THEMES } from '@parley/contract/values';
import { SelectField } from '@parley/ui';
import { SettingsSection } from '@parley/ui/settings';
import { setAppearance, useAppearance, type Theme } from '../../../lib/appearance';
import { useSaveSettings } from '../../../lib/save-settings';
import { ChoiceGroup } from './choice-group';

/** Theme and font size: applied at once and kept in this browser; the theme is also saved for the extension. */
export function AppearanceSettings() {
  const { t } = useTranslation('settings');
  const appearance = useAppearance();
  const save = useSaveSettings();

  const onTheme = (theme: Theme) => {
    setAppearance({ theme });
    save.mutate({ theme });
  };

  return (
    <SettingsSection title={t('appearance.sectionTitle')}>
      <div className="space-y-6 pt-3">
        <div>
          <ChoiceGroup
            legend={t('appearance.theme')}
            name="theme"
            value={appearance.theme}
            options={THEMES.map((theme) => ({ value: theme, label: t(`appearance.themes.${theme}`) }))}
            onChange={onTheme}
          />
          <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">{t('appearance.themeHint')}</p>
        </div>
        <div className="max-w-xs">
          <SelectField
            label={t('appearance.fontSize')}
            hint={t('appearance.fontSizeHint')}
            value={String(appearance.fontSize)}
            onChange={(e) => setAppearance({ fontSize: Number(e.target.value) })}
            options={FONT_SIZES.map((size) => ({ value: String(size), label: t('appearance.pixels', { size }) }))}
          />
        </div>
      </div>
    </SettingsSection>
  );
}
