import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '@parley/contract';
import { DEFAULT_SETTINGS, MODEL_IDS, TONES, WRITING_LANGUAGES } from '@parley/contract/values';
import { writingLanguageName } from '@parley/i18n';
import { SelectField } from '@parley/ui';

export type Preferences = Pick<Settings, 'language' | 'tone' | 'model'>;

/** Product names; only the custom entry is words that need translating. */
const MODEL_NAMES: Record<(typeof MODEL_IDS)[number], string | null> = {
  GPT_4O_MINI: 'GPT-4o mini',
  GPT_4O: 'GPT-4o',
  GPT_4_1: 'GPT-4.1',
  CLAUDE_3_5_HAIKU: 'Claude 3.5 Haiku',
  CLAUDE_SONNET_4: 'Claude Sonnet 4',
  GEMINI_2_0_FLASH: 'Gemini 2.0 Flash',
  GEMINI_2_5_PRO: 'Gemini 2.5 Pro',
  DEEPSEEK_CHAT: 'DeepSeek Chat',
  DEEPSEEK_REASONER: 'DeepSeek Reasoner',
  CUSTOM_OPENAI_COMPATIBLE: null,
};

/** Step 2: writing language, tone and model. */
export function PreferencesStep({
  initial,
  onChange,
}: {
  initial: Preferences | undefined;
  onChange: (value: Preferences) => void;
}) {
  const { t, i18n } = useTranslation('onboarding');
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
      <SelectField
        label={t('preferences.model')}
        hint={t('preferences.modelHint')}
        value={value.model}
        onChange={(e) => set({ model: e.target.value as Preferences['model'] })}
        options={MODEL_IDS.map((id) => ({ value: id, label: MODEL_NAMES[id] ?? t('preferences.customModel') }))}
      />
    </div>
  );
}
