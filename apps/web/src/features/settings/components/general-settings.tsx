import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LANGUAGES, isLanguage, type Language } from '@parley/i18n';
import { SettingsSection } from '@parley/ui/settings';
import { errorMessage } from '../../../lib/api';
import { useWithLoader } from '../../../lib/global-loader';
import { useChangeLanguage } from '../../../lib/use-change-language';
import { ChoiceGroup } from './choice-group';

/** "Spanish" in English, "espagnol" in French (capitalized); the code itself where Intl cannot say. */
function languageName(language: Language, inLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([inLanguage], { type: 'language' }).of(language);
    if (name) return name.charAt(0).toLocaleUpperCase(inLanguage) + name.slice(1);
  } catch {
    // No display names in this runtime.
  }
  return language;
}

/** Interface language: switches at once, then is saved to the profile and the `lang` cookie. */
export function InterfaceLanguageSettings() {
  const { t, i18n } = useTranslation('settings');
  const changeLanguage = useChangeLanguage();
  const withLoader = useWithLoader();
  // The radio follows the click at once, even while the new language's texts are still loading.
  const [picked, setPicked] = useState<Language | null>(null);
  const current: Language = picked ?? (isLanguage(i18n.language) ? i18n.language : 'en');

  const onChange = (language: Language) => {
    setPicked(language);
    withLoader('settings', () => changeLanguage.mutateAsync(language))
      // i18n.t, not the render's t: the message should be in the language just chosen.
      .then(() => toast.success(i18n.t('settings:general.saved')))
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setPicked(null));
  };

  return (
    <SettingsSection title={t('general.languageTitle')} description={t('general.languageSubtitle')}>
      <div className="pt-3">
        <ChoiceGroup
          legend={t('general.interfaceLanguage')}
          hideLegend
          name="interface-language"
          value={current}
          // Each language under its own name, and under its name in the language in use.
          options={LANGUAGES.map((lng) => {
            const native = t(`general.native.${lng}`);
            const here = languageName(lng, i18n.language);
            return { value: lng, label: native, ...(here !== native ? { description: here } : {}) };
          })}
          onChange={onChange}
        />
      </div>
    </SettingsSection>
  );
}
