import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClasses, cn } from '@parley/ui';
import { SettingsSection } from '@parley/ui/settings';
import {
  isValidTrigger,
  setShortcutTrigger,
  watchShortcuts,
  type LocalSettings,
  type ShortcutList,
} from '../../platform/storage/templates-store';
import { control, muted } from '../../ui/styles';

/**
 * Shortcuts on the options page: the trigger typed before a key (a setting of this browser only, not one of the
 * account's §3 settings; see docs/decisions) and how many shortcuts are ready. The shortcuts themselves are made on the
 * web; the background fetches them.
 */
export function ShortcutsSection({ signedIn, onSaved }: { signedIn: boolean; onSaved: (ok: boolean) => void }) {
  const { t } = useTranslation('extension');
  const id = useId();
  const [local, setLocal] = useState<LocalSettings | null>(null);
  const [shortcuts, setShortcuts] = useState<ShortcutList | null>(null);
  const [trigger, setTrigger] = useState('');
  const [invalid, setInvalid] = useState(false);

  useEffect(
    () =>
      watchShortcuts((list, next) => {
        setShortcuts(list);
        setLocal(next);
      }),
    [],
  );
  // The field shows the stored trigger, and follows it when it changes.
  const stored = local?.shortcutTrigger;
  useEffect(() => {
    if (stored) setTrigger(stored);
  }, [stored]);

  const submit = () => {
    const value = trigger.trim();
    if (!isValidTrigger(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setShortcutTrigger(value).then(
      () => onSaved(true),
      () => onSaved(false),
    );
  };
  const described = [invalid ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');
  const count = shortcuts?.items.length ?? 0;

  return (
    <SettingsSection title={t('options.shortcutsTitle')} description={t('options.shortcutsSubtitle')}>
      <form
        className="space-y-1.5 py-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('options.trigger')}
        </label>
        <p id={`${id}-hint`} className={`text-xs ${muted}`}>
          {t('options.triggerHint')}
        </p>
        <div className="flex gap-2">
          <input
            id={id}
            name="shortcutTrigger"
            value={trigger}
            maxLength={6}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={invalid || undefined}
            aria-describedby={described}
            onChange={(e) => {
              setTrigger(e.target.value);
              if (invalid) setInvalid(false);
            }}
            className={cn(control, 'w-24 font-mono', invalid && 'border-red-500 focus:border-red-500')}
          />
          <button
            type="submit"
            disabled={!local || trigger.trim() === local.shortcutTrigger}
            className={buttonClasses('secondary', 'shrink-0 disabled:opacity-50')}
          >
            {t('options.triggerSave')}
          </button>
        </div>
        {invalid && (
          <p id={`${id}-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
            {t('options.triggerInvalid')}
          </p>
        )}
      </form>
      {signedIn && (
        <p className={`py-3 text-sm ${muted}`}>
          {count > 0 ? t('options.shortcutsReady', { count }) : t('options.noShortcuts')}
        </p>
      )}
    </SettingsSection>
  );
}
