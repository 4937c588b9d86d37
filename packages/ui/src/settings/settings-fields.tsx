import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  INSTANT_REPLY_SITES,
  LENGTHS,
  REPLY_OPTIONS,
  SUMMARIZE_SITES,
  TONES,
  WRITING_LANGUAGES,
  siteHostFromInput,
  type SettingFlag,
} from '@parley/contract/values';
import type { Settings, SettingsUpdate } from '@parley/contract';
import { writingLanguageName } from '@parley/i18n';
import { buttonClasses, focusRing } from '../button.js';
import { Card } from '../card.js';
import { cn } from '../cn.js';
import { CloseIcon } from '../icons.js';

/**
 * The settings of spec §3 as form pieces, shared by the web app's settings pages and the extension's options page:
 * both edit the same account settings, under the same names (the `settings` namespace), with the same controls.
 * Each piece shows a value and reports a change; saving and its feedback belong to the page.
 */
export type SettingsFieldProps = {
  settings: Settings;
  save: (update: SettingsUpdate) => void;
};

const DISABLED_SITES_MAX = 200;
const SHORTCUT_MAX = 40;

const selectClasses =
  'block w-full min-w-0 text-ellipsis rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';
const inputClasses = cn(selectClasses, 'placeholder:text-zinc-400');

/** An on/off checkbox drawn as a switch (it stays a checkbox: name, checked state and label are unchanged). */
export const switchClasses = cn(
  "relative inline-block h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-zinc-300 transition-colors before:absolute before:left-0.5 before:top-0.5 before:h-4 before:w-4 before:rounded-full before:bg-white before:shadow-sm before:transition-transform before:content-[''] checked:bg-blue-500 checked:before:translate-x-4 dark:bg-zinc-700 dark:checked:bg-blue-500",
  focusRing,
);

/** A card with a title and one line saying what its settings do. */
export function SettingsSection({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <Card className={cn('space-y-1', className)}>
      <section aria-labelledby={id}>
        <h2 id={id} className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{description}</p>}
        <div className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">{children}</div>
      </section>
    </Card>
  );
}

/** A switch with its label and, under it, what it does. */
export function SettingSwitch({
  name,
  label,
  hint,
  checked,
  onChange,
}: {
  name: string;
  label: string;
  hint?: string | undefined;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <label htmlFor={id} className="block cursor-pointer text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
            {hint}
          </p>
        )}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.checked)}
        className={cn(switchClasses, 'mt-0.5')}
      />
    </div>
  );
}

/** A select with its label and what it does. */
export function SettingSelect<V extends string>({
  name,
  label,
  hint,
  value,
  options,
  onChange,
}: {
  name: string;
  label: string;
  hint?: string | undefined;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5 py-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,18rem)] sm:items-center sm:gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
            {hint}
          </p>
        )}
      </div>
      <select
        id={id}
        name={name}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value as V)}
        className={cn(selectClasses, 'min-w-0 pr-8')}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const flagOf = (settings: Settings, key: SettingFlag) => settings[key] === '1';
const flagValue = (on: boolean) => (on ? '1' : '0');

/** Writing language, tone, length and reply option: how Parley writes for the person. */
export function WritingFields({ settings, save }: SettingsFieldProps) {
  const { t, i18n } = useTranslation('settings');
  const languages = WRITING_LANGUAGES.map((id) => ({ value: id, label: writingLanguageName(id, i18n.language) })).sort(
    (a, b) => a.label.localeCompare(b.label, i18n.language),
  );
  return (
    <>
      <SettingSelect
        name="language"
        label={t('fields.language.label')}
        hint={t('fields.language.hint')}
        value={settings.language}
        options={languages}
        onChange={(language) => save({ language })}
      />
      <SettingSelect
        name="tone"
        label={t('fields.tone.label')}
        hint={t('fields.tone.hint')}
        value={settings.tone}
        options={TONES.map((id) => ({ value: id, label: t(`tones.${id}`) }))}
        onChange={(tone) => save({ tone })}
      />
      <SettingSelect
        name="length"
        label={t('fields.length.label')}
        hint={t('fields.length.hint')}
        value={settings.length}
        options={LENGTHS.map((id) => ({ value: id, label: t(`lengths.${id}`) }))}
        onChange={(length) => save({ length })}
      />
      <SettingSelect
        name="replyOption"
        label={t('fields.replyOption.label')}
        hint={t('fields.replyOption.hint')}
        value={settings.replyOption}
        options={REPLY_OPTIONS.map((id) => ({ value: id, label: t(`replyOptions.${id}`) }))}
        onChange={(replyOption) => save({ replyOption })}
      />
    </>
  );
}

/** One switch per site, in two columns where there is room. */
function SiteSwitches<S extends string>({
  sites,
  keyOf,
  settings,
  save,
}: SettingsFieldProps & { sites: readonly S[]; keyOf: (site: S) => SettingFlag }) {
  const { t } = useTranslation('settings');
  return (
    <div className="grid gap-x-6 sm:grid-cols-2">
      {sites.map((site) => (
        <SettingSwitch
          key={site}
          name={keyOf(site)}
          label={t(`sites.${site}`)}
          checked={flagOf(settings, keyOf(site))}
          onChange={(on) => save({ [keyOf(site)]: flagValue(on) })}
        />
      ))}
    </div>
  );
}

/** Instant reply, site by site. */
export function InstantReplySites(props: SettingsFieldProps) {
  return <SiteSwitches {...props} sites={INSTANT_REPLY_SITES} keyOf={(site) => `instantReply${site}`} />;
}

/** The Summarize button, site by site. */
export function SummarizeSites(props: SettingsFieldProps) {
  return <SiteSwitches {...props} sites={SUMMARIZE_SITES} keyOf={(site) => `summarize${site}`} />;
}

/** The tools offered on every page: the mini menu, search with AI, chat with image. */
export function PageTools({ settings, save }: SettingsFieldProps) {
  const { t } = useTranslation('settings');
  return (
    <>
      {(['miniMenu', 'searchWithAI', 'chatWithImage'] as const).map((key) => (
        <SettingSwitch
          key={key}
          name={key}
          label={t(`fields.${key}.label`)}
          hint={t(`fields.${key}.hint`)}
          checked={flagOf(settings, key)}
          onChange={(on) => save({ [key]: flagValue(on) })}
        />
      ))}
    </>
  );
}

/** Quick Access on or off, and its shortcut (saved with its own button: a half-typed shortcut is not a setting). */
export function QuickAccessFields({ settings, save }: SettingsFieldProps) {
  const { t } = useTranslation('settings');
  const id = useId();
  const [shortcut, setShortcut] = useState(settings.quickAccessShortcut);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => setShortcut(settings.quickAccessShortcut), [settings.quickAccessShortcut]);

  const submit = () => {
    const value = shortcut.trim();
    if (!value || value.length > SHORTCUT_MAX) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setShortcut(value);
    if (value !== settings.quickAccessShortcut) save({ quickAccessShortcut: value });
  };
  const described = [invalid ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');

  return (
    <>
      <SettingSwitch
        name="quickAccess"
        label={t('fields.quickAccess.label')}
        hint={t('fields.quickAccess.hint')}
        checked={flagOf(settings, 'quickAccess')}
        onChange={(on) => save({ quickAccess: flagValue(on) })}
      />
      <form
        className="space-y-1.5 py-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('fields.quickAccessShortcut.label')}
        </label>
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {t('fields.quickAccessShortcut.hint')}
        </p>
        <div className="flex gap-2">
          <input
            id={id}
            name="quickAccessShortcut"
            value={shortcut}
            maxLength={SHORTCUT_MAX + 10}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={invalid || undefined}
            aria-describedby={described}
            onChange={(e) => {
              setShortcut(e.target.value);
              if (invalid) setInvalid(false);
            }}
            className={cn(
              inputClasses,
              'min-w-0 flex-1 font-mono',
              invalid && 'border-red-500 focus:border-red-500 focus:ring-red-500/40',
            )}
          />
          <button
            type="submit"
            disabled={shortcut.trim() === settings.quickAccessShortcut}
            className={buttonClasses('secondary', 'shrink-0 disabled:opacity-50')}
          >
            {t('fields.quickAccessShortcut.save')}
          </button>
        </div>
        {invalid && (
          <p id={`${id}-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
            {t('fields.quickAccessShortcut.invalid')}
          </p>
        )}
      </form>
    </>
  );
}

/** Hosts where Parley adds nothing: a list with remove buttons, and a field to add one. */
export function DisabledSitesField({ settings, save }: SettingsFieldProps) {
  const { t } = useTranslation('settings');
  const id = useId();
  const [site, setSite] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const sites = settings.disabledSites;

  const add = () => {
    const host = siteHostFromInput(site);
    if (!host) return setProblem(t('fields.disabledSites.invalid'));
    if (!sites.includes(host) && sites.length >= DISABLED_SITES_MAX)
      return setProblem(t('fields.disabledSites.tooMany', { max: DISABLED_SITES_MAX }));
    setProblem(null);
    setSite('');
    if (!sites.includes(host)) save({ disabledSites: [...sites, host] });
  };

  return (
    <div className="space-y-3 py-3">
      {sites.length === 0 ? (
        <p className="text-sm italic text-zinc-500 dark:text-zinc-400">{t('fields.disabledSites.empty')}</p>
      ) : (
        <ul aria-label={t('fields.disabledSites.label')} className="flex flex-wrap gap-1.5">
          {sites.map((host) => (
            <li
              key={host}
              className="flex max-w-full items-center gap-1 rounded-lg border border-zinc-200 bg-zinc-50 py-0.5 pl-2.5 pr-0.5 text-sm dark:border-zinc-700 dark:bg-zinc-800"
            >
              <span className="truncate font-mono text-xs">{host}</span>
              <button
                type="button"
                aria-label={t('fields.disabledSites.remove', { site: host })}
                title={t('fields.disabledSites.remove', { site: host })}
                onClick={() => save({ disabledSites: sites.filter((s) => s !== host) })}
                className={cn(
                  'inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-md text-zinc-400 hover:bg-zinc-200 hover:text-zinc-800 dark:hover:bg-zinc-700 dark:hover:text-zinc-100',
                  focusRing,
                )}
              >
                <CloseIcon width="0.9em" height="0.9em" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex gap-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label htmlFor={id} className="sr-only">
          {t('fields.disabledSites.newSite')}
        </label>
        <input
          id={id}
          name="newSite"
          value={site}
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('fields.disabledSites.placeholder')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e) => {
            setSite(e.target.value);
            if (problem) setProblem(null);
          }}
          className={cn(
            inputClasses,
            'min-w-0 flex-1',
            problem && 'border-red-500 focus:border-red-500 focus:ring-red-500/40',
          )}
        />
        <button type="submit" className={buttonClasses('primary', 'shrink-0')}>
          {t('fields.disabledSites.add')}
        </button>
      </form>
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}
