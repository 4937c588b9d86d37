import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  COMMENT_LENGTH_WORDS,
  COMMENT_LENGTHS,
  COMMENT_TYPES,
  CREATIVITY_LEVELS,
  CUSTOM_PROMPT_LABEL_MAX,
  CUSTOM_PROMPT_MAX,
  CUSTOM_PROMPTS_MAX,
  WORD_LIST_MAX,
  type CustomPrompt,
  type LinkedinSettings,
} from '@parley/contract';
import { Button, Card, CardTitle, SelectField, TextField, cn, focusRing } from '@parley/ui';
import { SettingSwitch } from '@parley/ui/settings';
import { toast } from '../../../lib/toast';
import { useWithLoader } from '../../../lib/global-loader';
import { useLinkedinSettings, useSaveSettings } from '../api/linkedin-api';
import { joinCommaList, splitCommaList, useLoaderWhile } from '../lib/linkedin-lib';
import { CallError, LinkedinSection, TextArea } from './section';

type Form = Omit<LinkedinSettings, 'avoidWords' | 'includeWords'> & { avoid: string; include: string };

const toForm = (s: LinkedinSettings): Form => ({
  ...s,
  avoid: joinCommaList(s.avoidWords),
  include: joinCommaList(s.includeWords),
});

function CustomizationForm({ settings }: { settings: LinkedinSettings }) {
  const { t } = useTranslation('linkedin');
  const save = useSaveSettings();
  const withLoader = useWithLoader();
  const id = useId();
  const [form, setForm] = useState<Form>(() => toForm(settings));
  const [tried, setTried] = useState(false);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setPrompt = (index: number, change: Partial<CustomPrompt>) =>
    set(
      'customPrompts',
      form.customPrompts.map((p, i) => (i === index ? { ...p, ...change } : p)),
    );
  const avoid = splitCommaList(form.avoid);
  const include = splitCommaList(form.include);
  const tooMany = t('keywords.tooMany', { max: WORD_LIST_MAX });
  const promptErrors = form.customPrompts.map((p) => ({
    label: tried && !p.label.trim() ? t('custom.labelRequired') : undefined,
    prompt: tried && !p.prompt.trim() ? t('custom.promptRequired') : undefined,
  }));
  const creativityIndex = CREATIVITY_LEVELS.indexOf(form.creativity);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (avoid.length > WORD_LIST_MAX || include.length > WORD_LIST_MAX) return;
    if (form.customPrompts.some((p) => !p.label.trim() || !p.prompt.trim())) return;
    try {
      const saved = await withLoader('saving', () =>
        save.mutateAsync({
          customPrompts: form.customPrompts.map((p) => ({ label: p.label.trim(), prompt: p.prompt.trim() })),
          commentType: form.commentType,
          commentLength: form.commentLength,
          creativity: form.creativity,
          allowEmojis: form.allowEmojis,
          allowHashtags: form.allowHashtags,
          avoidWords: avoid,
          includeWords: include,
          displayAiComments: form.displayAiComments,
        }),
      );
      if (saved) setForm(toForm(saved));
      setTried(false);
      toast.success(t('saved'));
    } catch {
      // Shown under the button.
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
      <Card className="space-y-4">
        <CardTitle>{t('custom.styleTitle')}</CardTitle>
        <SelectField
          id={`${id}-type`}
          label={t('custom.commentType')}
          value={form.commentType}
          onChange={(e) => set('commentType', e.target.value as Form['commentType'])}
          options={COMMENT_TYPES.map((v) => ({ value: v, label: t(`custom.types.${v}`) }))}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('custom.length')}</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {COMMENT_LENGTHS.map((length) => (
              <label
                key={length}
                className={cn(
                  'flex cursor-pointer flex-col rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500',
                  form.commentLength === length
                    ? 'border-blue-500 bg-blue-50 dark:bg-blue-500/10'
                    : 'border-zinc-300 dark:border-zinc-700',
                )}
              >
                <span className="flex items-center gap-2 font-medium text-zinc-900 dark:text-zinc-100">
                  <input
                    type="radio"
                    name="commentLength"
                    value={length}
                    checked={form.commentLength === length}
                    onChange={() => set('commentLength', length)}
                    className="size-4"
                  />
                  {t(`custom.lengths.${length}`)}
                </span>
                <span className="text-xs text-zinc-500">
                  {t('custom.words', { count: COMMENT_LENGTH_WORDS[length] })}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-creativity`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('format.label', { label: t('custom.creativity') })}{' '}
            <span className="font-semibold">{t(`custom.levels.${form.creativity}`)}</span>
          </label>
          <input
            id={`${id}-creativity`}
            type="range"
            min={0}
            max={CREATIVITY_LEVELS.length - 1}
            step={1}
            value={creativityIndex}
            aria-valuetext={t(`custom.levels.${form.creativity}`)}
            onChange={(e) => set('creativity', CREATIVITY_LEVELS[Number(e.target.value)]!)}
            className={cn('w-full accent-blue-500', focusRing)}
          />
          <div className="flex justify-between text-xs text-zinc-500" aria-hidden="true">
            {CREATIVITY_LEVELS.map((level) => (
              <span key={level}>{t(`custom.levels.${level}`)}</span>
            ))}
          </div>
        </div>
        <div className="divide-y divide-zinc-100 dark:divide-zinc-800">
          <SettingSwitch
            name="allowEmojis"
            label={t('custom.emojis')}
            checked={form.allowEmojis}
            onChange={(v) => set('allowEmojis', v)}
          />
          <SettingSwitch
            name="allowHashtags"
            label={t('custom.hashtags')}
            checked={form.allowHashtags}
            onChange={(v) => set('allowHashtags', v)}
          />
          <SettingSwitch
            name="displayAiComments"
            label={t('custom.display')}
            hint={t('custom.displayHint')}
            checked={form.displayAiComments}
            onChange={(v) => set('displayAiComments', v)}
          />
        </div>
      </Card>

      <Card className="space-y-3">
        <CardTitle>{t('custom.wordsTitle')}</CardTitle>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('keywords.notGuaranteed')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            id={`${id}-avoid`}
            label={t('custom.avoid')}
            hint={t('keywords.commaHint')}
            value={form.avoid}
            error={avoid.length > WORD_LIST_MAX ? tooMany : undefined}
            onChange={(e) => set('avoid', e.target.value)}
          />
          <TextField
            id={`${id}-include`}
            label={t('custom.include')}
            hint={t('keywords.commaHint')}
            value={form.include}
            error={include.length > WORD_LIST_MAX ? tooMany : undefined}
            onChange={(e) => set('include', e.target.value)}
          />
        </div>
      </Card>

      <Card className="space-y-3">
        <CardTitle>{t('custom.promptsTitle')}</CardTitle>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('custom.promptsIntro')}</p>
        {form.customPrompts.length === 0 && <p className="text-sm text-zinc-500">{t('custom.noPrompts')}</p>}
        <ol className="space-y-3">
          {form.customPrompts.map((p, index) => (
            <li key={index} className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
              <TextField
                id={`${id}-label-${index}`}
                label={t('custom.label', { n: index + 1 })}
                value={p.label}
                maxLength={CUSTOM_PROMPT_LABEL_MAX}
                error={promptErrors[index]?.label}
                onChange={(e) => setPrompt(index, { label: e.target.value })}
              />
              <TextArea
                id={`${id}-prompt-${index}`}
                label={t('custom.prompt', { n: index + 1 })}
                value={p.prompt}
                rows={3}
                maxLength={CUSTOM_PROMPT_MAX}
                error={promptErrors[index]?.prompt}
                onChange={(v) => setPrompt(index, { prompt: v })}
              />
              <Button
                variant="ghost"
                className="px-3 py-1 text-red-600"
                onClick={() =>
                  set(
                    'customPrompts',
                    form.customPrompts.filter((_, i) => i !== index),
                  )
                }
              >
                {t('custom.removePrompt', { n: index + 1 })}
              </Button>
            </li>
          ))}
        </ol>
        {form.customPrompts.length < CUSTOM_PROMPTS_MAX && (
          <Button
            variant="secondary"
            onClick={() => set('customPrompts', [...form.customPrompts, { label: '', prompt: '' }])}
          >
            {t('custom.addPrompt')}
          </Button>
        )}
      </Card>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={save.isPending}>
          {t('custom.save')}
        </Button>
      </div>
      {save.isError && <CallError error={save.error} />}
    </form>
  );
}

/** /automation/customization: AI Customization. */
export function CustomizationPage() {
  const { t } = useTranslation('linkedin');
  const settings = useLinkedinSettings();
  useLoaderWhile(settings.isPending, 'settings');
  return (
    <LinkedinSection title={t('custom.title')} intro={t('custom.intro')}>
      {settings.isError && <CallError error={settings.error} />}
      {settings.data && <CustomizationForm settings={settings.data} />}
    </LinkedinSection>
  );
}
