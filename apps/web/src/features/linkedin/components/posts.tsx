import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  POST_IDEA_MAX,
  POST_REPEATS,
  POST_SCHEDULE_MAX_DAYS,
  POST_TEXT_MAX,
  POST_VISIBILITIES,
  type Automation,
  type PostRepeat,
} from '@parley/contract';
import { Button, Card, CardTitle, SelectField, TextField, cn, focusRing } from '@parley/ui';
import { useCurrentUser } from '../../../lib/current-user';
import { toast } from '../../../lib/toast';
import { useWithLoader } from '../../../lib/global-loader';
import { useAutomations, useConnection, useSavePost, useWritePost } from '../api/linkedin-api';
import { browserTimeZone, localParts, timeZones, useLoaderWhile } from '../lib/linkedin-lib';
import { LINKEDIN_PATHS } from '../paths';
import { AutomationList, NewPostLink } from './automations';
import { Avatar } from './connection';
import { SparkIcon } from './icons';
import { CallError, LinkedinSection, StatusBadge, TextArea } from './section';

type Visibility = (typeof POST_VISIBILITIES)[number];
/** How much of a post LinkedIn shows before "…see more". */
const PREVIEW_CHARS = 210;

/** The post as it will look in the feed: the person, who sees it, the text cut where LinkedIn cuts it. */
export function PostPreview({ text, visibility }: { text: string; visibility: Visibility }) {
  const { t } = useTranslation('linkedin');
  const user = useCurrentUser();
  const connection = useConnection();
  const [open, setOpen] = useState(false);
  const name = connection.data?.name || user.data?.fullName || user.data?.name || '';
  const long = text.length > PREVIEW_CHARS || text.split('\n').length > 3;
  const shown = open || !long ? text : `${text.slice(0, PREVIEW_CHARS).split('\n').slice(0, 3).join('\n')}…`;
  return (
    <section aria-label={t('posts.preview')} className="space-y-2">
      <h2 className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('posts.preview')}</h2>
      <div className="rounded-lg border border-zinc-200 bg-white p-4 shadow-xs dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mb-3 flex items-center gap-3">
          <Avatar name={name} picture={connection.data?.picture ?? null} size="size-10" />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-100">{name}</p>
            <p className="text-xs text-zinc-500">
              {t('posts.now')} · {t(`posts.visibilities.${visibility}`)}
            </p>
          </div>
        </div>
        {text.trim() ? (
          <p className="whitespace-pre-wrap break-words text-sm text-zinc-900 dark:text-zinc-100">
            {shown}
            {long && (
              <>
                {' '}
                <button
                  type="button"
                  onClick={() => setOpen(!open)}
                  className={cn('text-sm text-zinc-500 hover:underline', focusRing)}
                >
                  {open ? t('posts.seeLess') : t('posts.seeMore')}
                </button>
              </>
            )}
          </p>
        ) : (
          <p className="text-sm italic text-zinc-400">{t('posts.previewEmpty')}</p>
        )}
      </div>
    </section>
  );
}

type Form = { text: string; date: string; time: string; timezone: string; repeat: PostRepeat; visibility: Visibility };

function initialForm(post: Automation | undefined): Form {
  if (post?.runAt) {
    const timezone = post.timezone || browserTimeZone();
    const { date, time } = localParts(post.runAt, timezone);
    return { text: post.text ?? '', date, time, timezone, repeat: post.repeat, visibility: post.visibility };
  }
  const timezone = browserTimeZone();
  const quarter = 15 * 60_000;
  const { date, time } = localParts(new Date(Math.ceil((Date.now() + 60 * 60_000) / quarter) * quarter), timezone);
  return { text: post?.text ?? '', date, time, timezone, repeat: 'none', visibility: 'PUBLIC' };
}

/** Write a post (or have it written from an idea), schedule it, and see it as it will look. */
export function PostEditor({ post }: { post?: Automation }) {
  const { t } = useTranslation('linkedin');
  const id = useId();
  const navigate = useNavigate();
  const save = useSavePost();
  const write = useWritePost();
  const withLoader = useWithLoader();
  const connection = useConnection();
  const [form, setForm] = useState<Form>(() => initialForm(post));
  const [idea, setIdea] = useState('');
  const [tried, setTried] = useState(false);
  const zones = useMemo(() => timeZones(form.timezone), [form.timezone]);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const errors = {
    text: tried && !form.text.trim() ? t('posts.textRequired') : undefined,
    date: tried && !form.date ? t('posts.dateRequired') : undefined,
    time: tried && !form.time ? t('posts.timeRequired') : undefined,
  };

  const writeFromIdea = async () => {
    if (!idea.trim()) return;
    try {
      const answer = await withLoader('general', () => write.mutateAsync({ idea: idea.trim() }));
      if (answer?.text) set('text', answer.text.slice(0, POST_TEXT_MAX));
    } catch {
      // Shown under the idea.
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!form.text.trim() || !form.date || !form.time) return;
    try {
      await withLoader('automation', () =>
        save.mutateAsync({
          id: post?.automationId,
          input: {
            text: form.text.trim(),
            scheduledFor: `${form.date}T${form.time}`,
            timezone: form.timezone,
            repeat: form.repeat,
            visibility: form.visibility,
          },
        }),
      );
      toast.success(post ? t('posts.updated') : t('posts.scheduled'));
      void navigate(LINKEDIN_PATHS.posts);
    } catch {
      // Shown under the button.
    }
  };

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
        {connection.data && connection.data.state !== 'connected' && (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100">
            {t('posts.connectFirst')}{' '}
            <Link to={LINKEDIN_PATHS.connect} className={cn('font-medium underline', focusRing)}>
              {t('connect.action')}
            </Link>
          </p>
        )}
        {post && (
          <p className="flex items-center gap-2 text-sm text-zinc-600">
            {t('posts.statusIs')} <StatusBadge status={post.status} />
          </p>
        )}
        <Card className="space-y-3">
          <CardTitle>{t('posts.aiTitle')}</CardTitle>
          <TextArea
            id={`${id}-idea`}
            label={t('posts.idea')}
            hint={t('posts.ideaHint')}
            rows={2}
            value={idea}
            maxLength={POST_IDEA_MAX}
            onChange={setIdea}
          />
          <Button
            variant="secondary"
            onClick={() => void writeFromIdea()}
            loading={write.isPending}
            disabled={!idea.trim()}
          >
            <SparkIcon width="1em" height="1em" />
            {t('posts.writeWithAi')}
          </Button>
          {write.isError && <CallError error={write.error} />}
        </Card>
        <Card className="space-y-4">
          <TextArea
            id={`${id}-text`}
            label={t('posts.text')}
            rows={8}
            value={form.text}
            maxLength={POST_TEXT_MAX}
            error={errors.text}
            hint={t('posts.count', { n: form.text.length, max: POST_TEXT_MAX })}
            onChange={(v) => set('text', v)}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              id={`${id}-date`}
              type="date"
              label={t('posts.date')}
              // The server takes times within POST_SCHEDULE_MAX_DAYS: every time of the last day offered is.
              max={localParts(new Date(Date.now() + (POST_SCHEDULE_MAX_DAYS - 1) * 86_400_000), form.timezone).date}
              value={form.date}
              error={errors.date}
              onChange={(e) => set('date', e.target.value)}
            />
            <TextField
              id={`${id}-time`}
              type="time"
              label={t('posts.time')}
              value={form.time}
              error={errors.time}
              onChange={(e) => set('time', e.target.value)}
            />
            <SelectField
              id={`${id}-zone`}
              label={t('posts.timezone')}
              value={form.timezone}
              onChange={(e) => set('timezone', e.target.value)}
              options={zones.map((z) => ({ value: z, label: z.replace(/_/g, ' ') }))}
            />
            <SelectField
              id={`${id}-repeat`}
              label={t('posts.repeat')}
              value={form.repeat}
              onChange={(e) => set('repeat', e.target.value as PostRepeat)}
              options={POST_REPEATS.map((r) => ({ value: r, label: t(`posts.repeats.${r}`) }))}
            />
            <SelectField
              id={`${id}-visibility`}
              label={t('posts.visibility')}
              value={form.visibility}
              onChange={(e) => set('visibility', e.target.value as Visibility)}
              options={POST_VISIBILITIES.map((v) => ({ value: v, label: t(`posts.visibilities.${v}`) }))}
            />
          </div>
          <p className="text-xs text-zinc-500">{t('posts.officialApi')}</p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={save.isPending}>
              {post ? t('posts.save') : t('posts.schedule')}
            </Button>
            <Link
              to={LINKEDIN_PATHS.posts}
              className={cn(
                'inline-flex items-center rounded-md px-4 py-2 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300',
                focusRing,
              )}
            >
              {t('common:actions.cancel')}
            </Link>
          </div>
          {save.isError && <CallError error={save.error} />}
        </Card>
      </form>
      <PostPreview text={form.text} visibility={form.visibility} />
    </div>
  );
}

/** /automation/post-automation: the scheduled posts. */
export function PostListPage() {
  const { t } = useTranslation('linkedin');
  const automations = useAutomations();
  useLoaderWhile(automations.isPending, 'automation');
  const posts = (automations.data ?? []).filter((a) => a.kind === 'post');
  return (
    <LinkedinSection title={t('posts.title')} intro={t('posts.intro')} actions={<NewPostLink />}>
      {automations.isError && <CallError error={automations.error} />}
      {automations.data && <AutomationList automations={posts} empty={t('posts.none')} />}
    </LinkedinSection>
  );
}

/** /automation/post-automation/new and /automation/post-automation/{automationId}. */
export function PostEditorPage({ automationId }: { automationId?: string }) {
  const { t } = useTranslation('linkedin');
  const automations = useAutomations();
  const waiting = Boolean(automationId) && automations.isPending;
  useLoaderWhile(waiting, 'automation');
  const post = automationId
    ? automations.data?.find((a) => a.automationId === automationId && a.kind === 'post')
    : undefined;
  return (
    <LinkedinSection title={automationId ? t('posts.editTitle') : t('posts.newTitle')}>
      {automations.isError && <CallError error={automations.error} />}
      {automationId && automations.data && !post && (
        <p role="alert" className="text-sm text-red-700">
          {t('posts.notFound')}
        </p>
      )}
      {(!automationId || post) && <PostEditor key={post?.automationId ?? 'new'} post={post} />}
    </LinkedinSection>
  );
}
