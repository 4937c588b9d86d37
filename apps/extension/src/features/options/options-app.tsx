import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SETTINGS,
  LENGTHS,
  MODELS,
  REPLY_OPTIONS,
  TONES,
  WRITING_LANGUAGES,
  type Settings,
  type SettingsUpdate,
} from '@parley/contract';
import { sendMessage } from '../../platform/messaging/messaging';
import { readStoredSettings, watchStoredSettings } from '../../platform/storage/settings-store';
import { normalizeHost } from '../../platform/storage/site-guard';
import { useSession } from '../../ui/use-session';
import { writingLanguageName } from '@parley/i18n';
import { buttonClasses, LogoMark } from '@parley/ui';
import { CloseIcon } from '../../ui/icons';
import { control, errorText, muted, notice, removeButton, switchInput } from '../../ui/styles';

type Flag = {
  [K in keyof Settings]: Settings[K] extends '1' | '0' ? K : never;
}[keyof Settings];
const SITES_SUMMARIZE = ['Gmail', 'Outlook', 'Youtube'] as const;
const SITES_REPLY = ['Gmail', 'Outlook', 'Linkedin', 'Instagram', 'Facebook', 'Youtube', 'Twitter'] as const;
const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** A hostname from what the person typed (a host or a whole address), or null. */
export function hostFromInput(input: string): string | null {
  let value = input.trim().toLowerCase();
  if (!value) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  }
  value = normalizeHost(value.replace(/\/.*$/, ''));
  return value.length <= 253 && HOST_PATTERN.test(value) ? value : null;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="grid items-center gap-1.5 py-2 sm:grid-cols-[1fr_minmax(0,16rem)] sm:gap-4">
      <span className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{label}</span>
      {children}
    </label>
  );
}

/** A settings group: a card with a title. */
function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 rounded-xl border border-zinc-200 bg-white px-4 pb-3 pt-1 shadow-xs sm:px-5 dark:border-zinc-800 dark:bg-zinc-900">
      <legend className="float-left w-full pb-1 pt-3 text-base font-semibold text-zinc-900 dark:text-zinc-100">
        {title}
      </legend>
      <div className="clear-both divide-y divide-zinc-100 dark:divide-zinc-800">{children}</div>
    </fieldset>
  );
}

/** The options page: every §3 setting, stored by the background and synced with the account. */
export function OptionsApp() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [status, setStatus] = useState<'idle' | 'saved' | 'failed'>('idle');
  const [newSite, setNewSite] = useState('');
  const [siteError, setSiteError] = useState(false);
  const [shortcut, setShortcut] = useState('');

  useEffect(() => {
    void readStoredSettings().then((s) => setSettings((current) => current ?? s ?? DEFAULT_SETTINGS));
    sendMessage('SYNC_SETTINGS')
      .then(setSettings)
      .catch(() => undefined);
    return watchStoredSettings(setSettings);
  }, []);
  useEffect(() => {
    if (settings) setShortcut(settings.quickAccessShortcut);
  }, [settings?.quickAccessShortcut]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!settings) return <p className={`p-6 text-sm ${muted}`}>{t('session.loading')}</p>;

  async function save(update: SettingsUpdate) {
    setSettings((s) => (s ? { ...s, ...update } : s));
    try {
      setSettings(await sendMessage('SET_SETTINGS', update));
      setStatus('saved');
    } catch {
      setStatus('failed');
    }
  }

  const flag = (key: Flag, label: string, compact = false) => (
    <label
      className={
        compact
          ? 'flex items-center gap-2.5 py-1.5 text-sm'
          : 'flex items-center justify-between gap-4 py-2.5 text-sm font-medium text-zinc-800 dark:text-zinc-200'
      }
      key={key}
    >
      {!compact && label}
      <input
        type="checkbox"
        role="switch"
        className={switchInput}
        name={key}
        checked={settings[key] === '1'}
        onChange={(e) => void save({ [key]: e.target.checked ? '1' : '0' })}
      />
      {compact && label}
    </label>
  );

  function addSite() {
    const host = hostFromInput(newSite);
    if (!host) {
      setSiteError(true);
      return;
    }
    setSiteError(false);
    setNewSite('');
    if (!settings!.disabledSites.includes(host)) void save({ disabledSites: [...settings!.disabledSites, host] });
  }

  const selectClass = `${control} pr-8`;
  const sites = (title: string, children: ReactNode) => (
    <div className="py-2.5">
      <strong className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">{title}</strong>
      <div className="mt-1 grid grid-cols-2 gap-x-4 sm:grid-cols-3">{children}</div>
    </div>
  );

  return (
    <div className="min-h-screen bg-zinc-50 dark:bg-zinc-950">
      <div className="mx-auto w-full max-w-2xl space-y-4 px-4 py-6 sm:py-10">
        <div className="flex items-center gap-3">
          <LogoMark />
          <h1 className="min-w-0 flex-1 text-xl font-semibold">{t('options.title')}</h1>
          <span
            role="status"
            className={`text-sm ${status === 'failed' ? 'text-red-600 dark:text-red-400' : 'text-emerald-600 dark:text-emerald-400'}`}
          >
            {status === 'saved' ? t('options.saved') : status === 'failed' ? t('options.saveFailed') : ''}
          </span>
        </div>
        {session && !session.signedIn && <p className={notice}>{t('options.signInToSync')}</p>}

        <Group title={t('options.writing')}>
          <Field label={t('options.language')}>
            <select
              name="language"
              className={selectClass}
              value={settings.language}
              onChange={(e) => void save({ language: e.target.value as Settings['language'] })}
            >
              {WRITING_LANGUAGES.map((id) => (
                <option key={id} value={id}>
                  {writingLanguageName(id, i18n.language)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('options.tone')}>
            <select
              name="tone"
              className={selectClass}
              value={settings.tone}
              onChange={(e) => void save({ tone: e.target.value as Settings['tone'] })}
            >
              {TONES.map((id) => (
                <option key={id} value={id}>
                  {t(`tones.${id}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('options.length')}>
            <select
              name="length"
              className={selectClass}
              value={settings.length}
              onChange={(e) => void save({ length: e.target.value as Settings['length'] })}
            >
              {LENGTHS.map((id) => (
                <option key={id} value={id}>
                  {t(`lengths.${id}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('options.model')}>
            <select
              name="model"
              className={selectClass}
              value={settings.model}
              onChange={(e) => void save({ model: e.target.value as Settings['model'] })}
            >
              {MODELS.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('options.replyOption')}>
            <select
              name="replyOption"
              className={selectClass}
              value={settings.replyOption}
              onChange={(e) => void save({ replyOption: e.target.value as Settings['replyOption'] })}
            >
              {REPLY_OPTIONS.map((id) => (
                <option key={id} value={id}>
                  {t(`replyOptions.${id}`)}
                </option>
              ))}
            </select>
          </Field>
        </Group>

        <Group title={t('options.features')}>
          {flag('quickAccess', t('options.quickAccess'))}
          <Field label={t('options.quickAccessShortcut')}>
            <input
              name="quickAccessShortcut"
              className={`${control} font-mono`}
              value={shortcut}
              maxLength={40}
              onChange={(e) => setShortcut(e.target.value)}
              onBlur={() => {
                const value = shortcut.trim();
                if (value && value !== settings.quickAccessShortcut) void save({ quickAccessShortcut: value });
              }}
            />
          </Field>
          {flag('miniMenu', t('options.miniMenu'))}
          {flag('searchWithAI', t('options.searchWithAI'))}
          {flag('chatWithImage', t('options.chatWithImage'))}
          {sites(
            t('options.summarize'),
            SITES_SUMMARIZE.map((site) => flag(`summarize${site}`, t(`options.sites.${site}`), true)),
          )}
          {sites(
            t('options.instantReply'),
            SITES_REPLY.map((site) => flag(`instantReply${site}`, t(`options.sites.${site}`), true)),
          )}
        </Group>

        <Group title={t('options.appearance')}>
          <label className="flex items-center justify-between gap-4 py-2.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('options.darkTheme')}
            <input
              type="checkbox"
              role="switch"
              className={switchInput}
              name="theme"
              checked={settings.theme === 'dark'}
              onChange={(e) => void save({ theme: e.target.checked ? 'dark' : 'light' })}
            />
          </label>
        </Group>

        <Group title={t('options.disabledSites')}>
          <div className="space-y-3 py-2.5">
            <p className={`text-sm ${muted}`}>{t('options.disabledSitesHint')}</p>
            {settings.disabledSites.length === 0 ? (
              <p className={`text-sm italic ${muted}`}>{t('options.noDisabledSites')}</p>
            ) : (
              <ul aria-label={t('options.disabledSites')} className="flex flex-wrap gap-1.5">
                {settings.disabledSites.map((site) => (
                  <li
                    key={site}
                    className="flex items-center gap-1 rounded-lg border border-zinc-200 bg-zinc-50 py-0.5 pl-2.5 pr-0.5 text-sm dark:border-zinc-700 dark:bg-zinc-800"
                  >
                    <span className="font-mono text-xs">{site}</span>
                    <button
                      type="button"
                      className={removeButton}
                      aria-label={t('options.removeSite', { site })}
                      onClick={() => void save({ disabledSites: settings.disabledSites.filter((s) => s !== site) })}
                    >
                      <CloseIcon width="0.9em" height="0.9em" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                addSite();
              }}
            >
              <input
                name="newSite"
                className={control}
                aria-label={t('options.disabledSites')}
                aria-invalid={siteError || undefined}
                placeholder={t('options.sitePlaceholder')}
                value={newSite}
                onChange={(e) => setNewSite(e.target.value)}
              />
              <button type="submit" className={buttonClasses('primary', 'shrink-0')}>
                {t('options.addSite')}
              </button>
            </form>
            {siteError && (
              <p role="alert" className={errorText}>
                {t('options.invalidSite')}
              </p>
            )}
          </div>
        </Group>
      </div>
    </div>
  );
}
