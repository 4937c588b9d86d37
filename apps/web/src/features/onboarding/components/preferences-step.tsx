import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS, TONES, WRITING_LANGUAGES } from '@parley/contract/values';
import { writingLanguageName } from '@parley/i18n';
import { SelectField, SkeletonBar } from '@parley/ui';
import { ModelSelectField } from '@parley/ui/chat';
import { useModels } from '../../../lib/models';

export type Preferences = Pick<Settings, 'language' | 'tone' | 'model'>;

/** Step 2: writing language, tone and model. */
export function PreferencesStep({
  initial,
  onChange,
}: {
  initial: Preferences | undefined;
  onChange: (value: Preferences) => void;
}) {
  const { t, i18n } = useTranslation('onboarding');
  const models = useModels();
  const [value, setValue] = useState<Preferences>(
    initial ?? { language: DEFAULT_SETTINGS.language, tone: DEFAULT_SETTINGS.tone, model: DEFAULT_SETTINGS.model },
  );

  // Seed from the stored settings once, when they arrive; later renders must not undo the person's choices.
  const seeded = useRef(initial !== undefined);
  useEffect(() => {
    if (initial && !seeded.current) {
      seeded.current = true;
      setValue(initial);
    }
  }, [initial]);

  const set = (patch: Partial<Preferences>) => {
    const next = { ...value, ...patch };
    setValue(next);
    onChange(next);
  };

  const languages = WRITING_LANGUAGES.map((l) => ({
    value: l,
    label: writingLanguageName(l, i18n.language),
  })).sort((a, b) => a.label.localeCompare(b.label, i18n.language));

  return (
    <div className="grid gap-4">
      <SelectField
        label={t('preferences.language')}
        hint={t('preferences.languageHint')}
        value={value.language}
        onChange={(e) => set({ language: e.target.value as Preferences['language'] })}
        options={languages}
      />
      <SelectField
        label={t('preferences.tone')}
        value={value.tone}
        onChange={(e) => set({ tone: e.target.value as Preferences['tone'] })}
        options={TONES.map((tone) => ({ value: tone, label: t(`tones.${tone}`) }))}
      />
      {/* The models as the chat names them, with what this server can run (the settings page uses the same field). */}
      {!models.isPending ? (
        <ModelSelectField
          models={models.data ?? []}
          value={value.model}
          onChange={(model) => set({ model })}
          label={t('preferences.model')}
          hint={t('preferences.modelHint')}
        />
      ) : (
        <SkeletonBar className="h-16 w-full" />
      )}
    </div>
  );
}
