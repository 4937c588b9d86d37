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
import { sendMessage } from '../../messaging/messaging';
import { readStoredSettings, watchStoredSettings } from '../settings/settings-store';
import { normalizeHost } from '../site-guard';
import { useSession } from '../../ui/use-session';
import { writingLanguageName } from '@parley/i18n';

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
    <label className="field">
      <span>{label}</span>
      {children}
    </label>
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

  if (!settings) return <p style={{ padding: 24 }}>{t('session.loading')}</p>;

  async function save(update: SettingsUpdate) {
    setSettings((s) => (s ? { ...s, ...update } : s));
    try {
      setSettings(await sendMessage('SET_SETTINGS', update));
      setStatus('saved');
    } catch {
      setStatus('failed');
    }
  }

  const flag = (key: Flag, label: string) => (
    <label className="row" key={key}>
      <input
        type="checkbox"
        name={key}
        checked={settings[key] === '1'}
        onChange={(e) => void save({ [key]: e.target.checked ? '1' : '0' })}
      />
      {label}
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

  return (
    <div className="options stack">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1 style={{ margin: 0, fontSize: 20 }}>{t('options.title')}</h1>
        <span role="status" className={status === 'failed' ? 'error' : 'muted'}>
          {status === 'saved' ? t('options.saved') : status === 'failed' ? t('options.saveFailed') : ''}
        </span>
      </div>
      {session && !session.signedIn && <p className="notice">{t('options.signInToSync')}</p>}

      <fieldset>
        <legend>{t('options.writing')}</legend>
        <Field label={t('options.language')}>
          <select
            name="language"
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
      </fieldset>

      <fieldset>
        <legend>{t('options.features')}</legend>
        {flag('quickAccess', t('options.quickAccess'))}
        <Field label={t('options.quickAccessShortcut')}>
          <input
            name="quickAccessShortcut"
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
        <strong>{t('options.summarize')}</strong>
        <div className="row">{SITES_SUMMARIZE.map((site) => flag(`summarize${site}`, t(`options.sites.${site}`)))}</div>
        <strong>{t('options.instantReply')}</strong>
        <div className="row">{SITES_REPLY.map((site) => flag(`instantReply${site}`, t(`options.sites.${site}`)))}</div>
      </fieldset>

      <fieldset>
        <legend>{t('options.disabledSites')}</legend>
        <span className="muted">{t('options.disabledSitesHint')}</span>
        {settings.disabledSites.length === 0 ? (
          <span className="muted">{t('options.noDisabledSites')}</span>
        ) : (
          <ul aria-label={t('options.disabledSites')}>
            {settings.disabledSites.map((site) => (
              <li key={site} className="row">
                <span>{site}</span>
                <button
                  aria-label={t('options.removeSite', { site })}
                  onClick={() => void save({ disabledSites: settings.disabledSites.filter((s) => s !== site) })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            addSite();
          }}
        >
          <input
            name="newSite"
            aria-label={t('options.disabledSites')}
            placeholder={t('options.sitePlaceholder')}
            value={newSite}
            onChange={(e) => setNewSite(e.target.value)}
          />
          <button type="submit">{t('options.addSite')}</button>
        </form>
        {siteError && (
          <span role="alert" className="error">
            {t('options.invalidSite')}
          </span>
        )}
      </fieldset>
    </div>
  );
}
