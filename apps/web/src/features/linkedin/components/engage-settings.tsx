import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENTS_PER_KEYWORD_MAX, ENGAGE_EVERY_HOURS, type LinkedinSettings } from '@parley/contract';
import { WRITING_LANGUAGES } from '@parley/contract/values';
import { writingLanguageName } from '@parley/i18n';
import { Button, Card, CardTitle, cn, focusRing } from '@parley/ui';
import { SettingSwitch } from '@parley/ui/settings';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useWithLoader } from '../../../lib/global-loader';
import { useSaveSettings } from '../api/linkedin-api';
import { CallError, UpgradePrompt } from './section';

/**
 * Auto-engage (spec §6: Pro or Plus). Turning it on asks the server, which answers UPGRADE_REQUIRED (402) for a plan
 * without it: the upgrade prompt shows and the switch stays off.
 */
export function AutoEngageSwitch({ settings }: { settings: LinkedinSettings }) {
  const { t } = useTranslation('linkedin');
  const save = useSaveSettings();
  const withLoader = useWithLoader();
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const [other, setOther] = useState<unknown>(null);

  const change = async (on: boolean) => {
    setRefusal(null);
    setOther(null);
    try {
      await withLoader('automation', () => save.mutateAsync({ autoEngage: on }));
      toast.success(on ? t('engage.autoOn') : t('engage.autoOff'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) setRefusal(error);
      else setOther(error);
    }
  };

  return (
    <div className="space-y-2">
      <SettingSwitch
        name="autoEngage"
        label={t('engage.auto')}
        hint={t('engage.autoHint', { hours: ENGAGE_EVERY_HOURS })}
        checked={settings.autoEngage}
        onChange={(on) => void change(on)}
      />
      {refusal && <UpgradePrompt message={refusal.message} />}
      {other ? <CallError error={other} /> : null}
    </div>
  );
}

/** Languages of the posts to engage with, and comments per keyword per day. */
export function EngageSettings({ settings }: { settings: LinkedinSettings }) {
  const { t, i18n } = useTranslation('linkedin');
  const save = useSaveSettings();
  const withLoader = useWithLoader();
  const id = useId();
  const [languages, setLanguages] = useState<string[]>(settings.languages);
  const [perDay, setPerDay] = useState(String(settings.commentsPerKeywordPerDay));
  const [showAll, setShowAll] = useState(false);
  const count = Number(perDay);
  const countError =
    !Number.isInteger(count) || count < 1 || count > COMMENTS_PER_KEYWORD_MAX
      ? t('engage.perDayRange', { max: COMMENTS_PER_KEYWORD_MAX })
      : undefined;
  const shown = showAll ? WRITING_LANGUAGES : WRITING_LANGUAGES.filter((l, i) => i < 8 || languages.includes(l));

  const submit = async () => {
    if (countError) return;
    try {
      await withLoader('settings', () =>
        save.mutateAsync({
          languages: languages as LinkedinSettings['languages'],
          commentsPerKeywordPerDay: count,
        }),
      );
      toast.success(t('saved'));
    } catch {
      // Shown under the button.
    }
  };

  return (
    <Card className="space-y-4">
      <CardTitle>{t('engage.title')}</CardTitle>
      <AutoEngageSwitch settings={settings} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('engage.languages')}</legend>
        <p className="text-xs text-zinc-500">{t('engage.languagesHint')}</p>
        <div className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
          {shown.map((language) => (
            <label key={language} className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <input
                type="checkbox"
                checked={languages.includes(language)}
                onChange={(e) =>
                  setLanguages((list) => (e.target.checked ? [...list, language] : list.filter((l) => l !== language)))
                }
                className={cn('size-4 rounded border-zinc-300', focusRing)}
              />
              {writingLanguageName(language, i18n.language)}
            </label>
          ))}
        </div>
        {!showAll && (
          <button
            type="button"
            onClick={() => setShowAll(true)}
            className={cn('text-sm font-medium text-blue-600 underline', focusRing)}
          >
            {t('engage.moreLanguages')}
          </button>
        )}
      </fieldset>
      <div className="max-w-xs space-y-1.5">
        <label htmlFor={`${id}-per-day`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('engage.perDay')}
        </label>
        <input
          id={`${id}-per-day`}
          type="number"
          inputMode="numeric"
          min={1}
          max={COMMENTS_PER_KEYWORD_MAX}
          value={perDay}
          aria-invalid={countError ? true : undefined}
          aria-describedby={countError ? `${id}-per-day-error` : undefined}
          onChange={(e) => setPerDay(e.target.value)}
          className="block w-28 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-700 dark:bg-zinc-900"
        />
        {countError && (
          <p id={`${id}-per-day-error`} role="alert" className="text-xs text-red-600">
            {countError}
          </p>
        )}
      </div>
      <Button onClick={() => void submit()} loading={save.isPending} disabled={Boolean(countError)}>
        {t('engage.save')}
      </Button>
      {save.isError && !(save.error instanceof ApiError && save.error.status === 402) && (
        <CallError error={save.error} />
      )}
    </Card>
  );
}
