import { useTranslation } from 'react-i18next';
import { LENGTHS, TONES, WRITING_LANGUAGES, type TemplateInput } from '@parley/contract';
import { writingLanguageName } from '@parley/i18n';
import { SelectField } from '@parley/ui';

export type Style = {
  language: NonNullable<TemplateInput['language']> | null;
  tone: NonNullable<TemplateInput['tone']> | null;
  length: NonNullable<TemplateInput['length']> | null;
};

export const NO_STYLE: Style = { language: null, tone: null, length: null };

/** Language, tone and length of a template, each 'Any' (null) unless chosen. */
export function StyleFields({ value, onChange }: { value: Style; onChange: (next: Style) => void }) {
  const { t, i18n } = useTranslation('templates');
  const any = { value: '', label: t('editor.any') };
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <SelectField
        label={t('editor.language')}
        value={value.language ?? ''}
        onChange={(e) => onChange({ ...value, language: (e.target.value || null) as Style['language'] })}
        options={[
          any,
          ...WRITING_LANGUAGES.map((id) => ({ value: id, label: writingLanguageName(id, i18n.language) })),
        ]}
      />
      <SelectField
        label={t('editor.tone')}
        value={value.tone ?? ''}
        onChange={(e) => onChange({ ...value, tone: (e.target.value || null) as Style['tone'] })}
        options={[any, ...TONES.map((id) => ({ value: id, label: t(`settings:tones.${id}`) }))]}
      />
      <SelectField
        label={t('editor.length')}
        value={value.length ?? ''}
        onChange={(e) => onChange({ ...value, length: (e.target.value || null) as Style['length'] })}
        options={[any, ...LENGTHS.map((id) => ({ value: id, label: t(`settings:lengths.${id}`) }))]}
      />
    </div>
  );
}
