import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SETTINGS,
  MODELS,
  THEMES,
  type ModelAvailability,
  type Settings,
  type SettingsUpdate,
} from '@parley/contract';
import { LogoMark } from '@parley/ui';
import { ModelSelectField } from '@parley/ui/chat';
import {
  DisabledSitesField,
  InstantReplySites,
  PageTools,
  QuickAccessFields,
  SettingSelect,
  SettingsSection,
  SummarizeSites,
  WritingFields,
} from '@parley/ui/settings';
import { webUrl } from '../../config';
import { apiCall, sendMessage } from '../../platform/messaging/messaging';
import { readStoredSettings, watchStoredSettings } from '../../platform/storage/settings-store';
import { useSession } from '../../ui/use-session';
import { muted, notice } from '../../ui/styles';
import { createLocalEdits } from './local-edits';
import { addOptionsStrings } from './options-i18n';
import { ShortcutsSection } from './shortcuts-section';

/** Signed out, the server's list is out of reach: the catalogue, without saying what the server runs. */
const CATALOGUE: ModelAvailability[] = MODELS.map((m) => ({
  id: m.id,
  label: m.label,
  provider: m.provider,
  tier: m.tier,
  contextWindow: m.contextWindow,
  capabilities: m.capabilities,
  available: true,
  keySource: null,
}));

/**
 * The options page: every §3 setting, stored by the background and synced with the account. The same sections,
 * names and controls as the web app's settings pages (packages/ui/src/settings); the model list is the server's.
 */
export function OptionsApp() {
  const { i18n } = useTranslation();
  useMemo(() => addOptionsStrings(i18n), [i18n]);
  return <Options />;
}

function Options() {
  const { t } = useTranslation('settings');
  const { t: te } = useTranslation('extension');
  const session = useSession();
  const signedIn = Boolean(session?.signedIn);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [models, setModels] = useState<ModelAvailability[] | null>(null);
  const [status, setStatus] = useState<'idle' | 'saved' | 'failed'>('idle');
  // What comes from the background may be older than the last change made here: those stay on top until answered.
  const [edits] = useState(createLocalEdits);

  useEffect(() => {
    const arrived = (s: Settings) => setSettings(edits.over(s));
    void readStoredSettings().then((s) => setSettings((current) => current ?? edits.over(s ?? DEFAULT_SETTINGS)));
    // Opening the page pulls the account's settings: a change made on the web shows here.
    sendMessage('SYNC_SETTINGS')
      .then(arrived)
      .catch(() => undefined);
    return watchStoredSettings(arrived);
  }, [signedIn, edits]);

  useEffect(() => {
    if (!signedIn) return;
    let alive = true;
    apiCall('models')
      .then((r) => alive && setModels(r.data))
      .catch(() => alive && setModels(null));
    return () => {
      alive = false;
    };
  }, [signedIn]);

  if (!settings) return <p className={`p-6 text-sm ${muted}`}>{te('session.loading')}</p>;

  const save = (update: SettingsUpdate) => {
    const edit = edits.add(update);
    setSettings((s) => (s ? edits.over(s) : s));
    sendMessage('SET_SETTINGS', update)
      .then((saved) => {
        edits.settle(edit);
        setSettings(edits.over(saved));
        setStatus('saved');
      })
      .catch(() => {
        // Refused: the page shows what is stored again, with the changes made since.
        edits.settle(edit);
        void readStoredSettings().then((s) => s && setSettings(edits.over(s)));
        setStatus('failed');
      });
  };
  const fields = { settings, save };
  const addKeyLink = (className: string, label: string) => (
    <a className={className} href={webUrl('/setting/api-keys')} target="_blank" rel="noreferrer">
      {label}
    </a>
  );

  return (
    <div className="min-h-screen bg-zinc-50 dark:bg-zinc-950">
      <div className="mx-auto w-full max-w-2xl space-y-4 px-4 py-6 sm:py-10">
        <div className="flex items-center gap-3">
          <LogoMark />
          <h1 className="min-w-0 flex-1 text-xl font-semibold">{te('options.title')}</h1>
          <span
            role="status"
            className={`text-sm ${status === 'failed' ? 'text-red-600 dark:text-red-400' : 'text-emerald-600 dark:text-emerald-400'}`}
          >
            {status === 'saved' ? t('saved') : status === 'failed' ? te('options.saveFailed') : ''}
          </span>
        </div>
        {session && !signedIn && <p className={notice}>{te('options.signInToSync')}</p>}
        <p className={`text-sm ${muted}`}>
          {signedIn && <>{t('sharedNote')} </>}
          {te('options.moreOnWeb')}{' '}
          <a
            href={webUrl('/setting/general')}
            target="_blank"
            rel="noreferrer"
            className="font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400"
          >
            {te('options.openWebSettings')}
          </a>
        </p>

        <SettingsSection title={t('general.modelTitle')} description={t('general.modelSubtitle')}>
          <div className="py-3">
            <ModelSelectField
              models={models ?? CATALOGUE}
              value={settings.model}
              onChange={(model) => save({ model })}
              label={t('fields.model.label')}
              addKeyLink={signedIn ? addKeyLink : undefined}
            />
          </div>
        </SettingsSection>
        <SettingsSection title={t('instantReply.writingTitle')} description={t('instantReply.writingSubtitle')}>
          <WritingFields {...fields} />
        </SettingsSection>
        <SettingsSection title={t('instantReply.sitesTitle')} description={t('instantReply.sitesSubtitle')}>
          <InstantReplySites {...fields} />
        </SettingsSection>
        <SettingsSection title={t('other.quickAccessTitle')}>
          <QuickAccessFields {...fields} />
        </SettingsSection>
        <ShortcutsSection signedIn={signedIn} onSaved={(ok) => setStatus(ok ? 'saved' : 'failed')} />
        <SettingsSection title={t('other.summarizeTitle')} description={t('other.summarizeSubtitle')}>
          <SummarizeSites {...fields} />
        </SettingsSection>
        <SettingsSection title={t('other.pageToolsTitle')}>
          <PageTools {...fields} />
        </SettingsSection>
        <SettingsSection title={t('other.disabledSitesTitle')} description={t('fields.disabledSites.hint')}>
          <DisabledSitesField {...fields} />
        </SettingsSection>
        <SettingsSection title={t('appearance.title')}>
          <SettingSelect
            name="theme"
            label={t('appearance.theme')}
            hint={t('appearance.themeHint')}
            value={settings.theme}
            options={THEMES.map((theme) => ({ value: theme, label: t(`appearance.themes.${theme}`) }))}
            onChange={(theme) => save({ theme })}
          />
        </SettingsSection>
      </div>
    </div>
  );
}
