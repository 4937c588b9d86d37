import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LINKEDIN_PROFILE_URL, PROFILES_MAX, type FollowedProfile } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Button, Card, CardTitle, TextField, cn, focusRing } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { switchClasses } from '@parley/ui/settings';
import { toast } from '../../../lib/toast';
import { useDeleteProfile, useProfiles, useSaveProfile } from '../api/linkedin-api';
import { useLoaderWhile } from '../lib/linkedin-lib';
import { CallError, Empty, LinkedinSection } from './section';

/** A profile's address as the server keeps it: https, www, one trailing slash. */
export function normalizeProfileUrl(value: string): string {
  let url = value.trim();
  if (!/^https?:\/\//i.test(url)) url = `https://${url}`;
  url = url.replace(/^http:\/\//i, 'https://').replace(/[?#].*$/, '');
  url = url.replace(/^https:\/\/(?:[a-z]{2,3}\.)?linkedin\.com\//i, 'https://www.linkedin.com/');
  return url.endsWith('/') ? url : `${url}/`;
}

function AddProfile() {
  const { t } = useTranslation('linkedin');
  const save = useSaveProfile();
  const id = useId();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const normalized = url.trim() ? normalizeProfileUrl(url) : '';
  const error = tried
    ? !url.trim()
      ? t('profiles.urlRequired')
      : !LINKEDIN_PROFILE_URL.test(normalized)
        ? t('profiles.urlInvalid')
        : undefined
    : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!url.trim() || !LINKEDIN_PROFILE_URL.test(normalized)) return;
    save.mutate(
      { input: { url: normalized, ...(name.trim() ? { name: name.trim() } : {}), active: true } },
      {
        onSuccess: () => {
          toast.success(t('profiles.added'));
          setUrl('');
          setName('');
          setTried(false);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${id}-url`}
          label={t('profiles.url')}
          type="url"
          inputMode="url"
          value={url}
          error={error}
          hint={t('profiles.urlHint')}
          placeholder="https://www.linkedin.com/in/…"
          onChange={(e) => setUrl(e.target.value)}
        />
        <TextField
          id={`${id}-name`}
          label={t('profiles.name')}
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <Button type="submit" loading={save.isPending}>
        {t('profiles.add')}
      </Button>
      {save.isError && <CallError error={save.error} />}
    </form>
  );
}

function ProfileItem({ profile }: { profile: FollowedProfile }) {
  const { t, i18n } = useTranslation('linkedin');
  const save = useSaveProfile();
  const remove = useDeleteProfile();
  const [asking, setAsking] = useState(false);
  const label = profile.name || profile.url;
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3">
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-zinc-900 dark:text-zinc-100">{label}</p>
        <a
          href={profile.url}
          target="_blank"
          rel="noopener noreferrer"
          className={cn('block truncate text-sm text-blue-600 underline', focusRing)}
        >
          {profile.url}
        </a>
        <p className="text-xs text-zinc-500">
          {t('format.labelValue', {
            label: t('keywords.draftsToday'),
            value: formatNumber(profile.draftsToday, i18n.language),
          })}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <input
            type="checkbox"
            role="switch"
            checked={profile.active}
            aria-label={t('profiles.activeFor', { name: label })}
            onChange={(e) => save.mutate({ id: profile.id, input: { active: e.target.checked } })}
            className={switchClasses}
          />
          {profile.active ? t('keywords.on') : t('keywords.off')}
        </label>
        <Button variant="ghost" className="px-3 py-1 text-red-600" onClick={() => setAsking(true)}>
          {t('profiles.remove')}
        </Button>
      </div>
      {(save.isError || remove.isError) && <CallError className="w-full" error={save.error ?? remove.error} />}
      <ConfirmDialog
        open={asking}
        title={t('profiles.removeTitle', { name: label })}
        confirmLabel={t('profiles.remove')}
        cancelLabel={t('common:actions.cancel')}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(profile.id, {
            onSettled: () => setAsking(false),
            onSuccess: () => toast.success(t('profiles.removed')),
          })
        }
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}

/** The followed profiles (the page and the dashboard's Manage profiles tab). */
export function ProfilesManager() {
  const { t, i18n } = useTranslation('linkedin');
  const profiles = useProfiles();
  useLoaderWhile(profiles.isPending, 'scrapeProfiles');
  const list = profiles.data ?? [];
  return (
    <div className="space-y-5">
      <Card className="space-y-3">
        <CardTitle>{t('profiles.addTitle')}</CardTitle>
        {list.length >= PROFILES_MAX ? (
          <p className="text-sm text-zinc-600">{t('profiles.full', { max: PROFILES_MAX })}</p>
        ) : (
          <AddProfile />
        )}
      </Card>
      <section className="space-y-3" aria-labelledby="profiles-list">
        <h2 id="profiles-list" className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">
          {t('profiles.listTitle', { n: formatNumber(list.length, i18n.language) })}
        </h2>
        {profiles.isError && <CallError error={profiles.error} />}
        {profiles.data && list.length === 0 && <Empty>{t('profiles.none')}</Empty>}
        <ul className="space-y-3">
          {list.map((p) => (
            <li key={p.id}>
              <ProfileItem profile={p} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** /automation/profiles: Engage on Profiles. */
export function ProfilesPage() {
  const { t } = useTranslation('linkedin');
  return (
    <LinkedinSection title={t('profiles.title')} intro={t('profiles.intro')}>
      <ProfilesManager />
    </LinkedinSection>
  );
}
