import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LANGUAGES, isLanguage, type Language } from '@parley/i18n';
import { Card, CardTitle } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useWithLoader } from '../../../lib/global-loader';
import { useChangeLanguage } from '../../../lib/use-change-language';
import { ChoiceGroup } from './choice-group';

/** Interface language: switches at once, then is saved to the profile and the `lang` cookie. */
export function GeneralSettings() {
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
    <Card className="space-y-6">
      <div>
        <CardTitle>{t('general.title')}</CardTitle>
        <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{t('general.subtitle')}</p>
      </div>
      <ChoiceGroup
        legend={t('general.interfaceLanguage')}
        name="interface-language"
        value={current}
        options={LANGUAGES.map((lng) => ({
          value: lng,
          label: t(`shell:languages.${lng}`),
          description: t(`general.native.${lng}`),
        }))}
        onChange={onChange}
      />
    </Card>
  );
}
