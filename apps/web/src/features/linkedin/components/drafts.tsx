import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '@parley/contract';
import { DRAFT_TEXT_MAX } from '@parley/contract';
import { formatDateTime } from '@parley/i18n';
import { Button, Card } from '@parley/ui';
import { toast } from '../../../lib/toast';
import { useUpdateDraft } from '../api/linkedin-api';
import { browser, copyText } from '../lib/linkedin-lib';
import { CallError, Empty, TextArea } from './section';

/**
 * Drafted comments waiting for review. Accepting copies the text and opens the post on LinkedIn, where the person
 * pastes it into LinkedIn's comment box and presses LinkedIn's own button: nothing is posted for them.
 */
export function DraftReview({ drafts }: { drafts: Draft[] }) {
  const { t } = useTranslation('linkedin');
  if (drafts.length === 0) return <Empty>{t('drafts.none')}</Empty>;
  return (
    <ul className="space-y-3" aria-label={t('drafts.title')}>
      {drafts.map((draft) => (
        <li key={draft.id}>
          <DraftItem draft={draft} />
        </li>
      ))}
    </ul>
  );
}

function DraftItem({ draft }: { draft: Draft }) {
  const { t, i18n } = useTranslation('linkedin');
  const update = useUpdateDraft();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(draft.text);
  const id = useId();

  const save = () =>
    update.mutate(
      { id: draft.id, change: { text: text.trim() } },
      { onSuccess: () => (setEditing(false), toast.success(t('drafts.saved'))) },
    );
  const accept = async () => {
    const copied = await copyText(editing ? text.trim() : draft.text);
    update.mutate(
      { id: draft.id, change: editing ? { text: text.trim(), status: 'accepted' } : { status: 'accepted' } },
      {
        onSuccess: () => {
          toast.success(copied ? t('drafts.copied') : t('drafts.accepted'));
          if (draft.postUrl) browser.open(draft.postUrl);
        },
      },
    );
  };

  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <p className="font-medium text-zinc-900 dark:text-zinc-100">{draft.authorName || t('drafts.someone')}</p>
        <p className="text-xs text-zinc-500">
          {draft.keyword
            ? t('drafts.forKeyword', { keyword: draft.keyword })
            : draft.profileUrl
              ? t('drafts.forProfile')
              : ''}
          {' · '}
          {formatDateTime(draft.createdAt, i18n.language)}
        </p>
      </div>
      <blockquote className="border-l-2 border-zinc-200 pl-3 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        {draft.postExcerpt}
      </blockquote>
      {draft.flags.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={t('drafts.flagsLabel')}>
          {draft.flags.map((flag) => (
            <li
              key={flag}
              className="rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-800 dark:bg-amber-500/15 dark:text-amber-200"
            >
              {t(`drafts.flags.${flag}`)}
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <TextArea id={id} label={t('drafts.text')} value={text} onChange={setText} maxLength={DRAFT_TEXT_MAX} />
      ) : (
        <p className="whitespace-pre-wrap rounded-md bg-blue-50 px-3 py-2 text-sm text-zinc-900 dark:bg-blue-500/10 dark:text-zinc-100">
          {draft.text}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void accept()} loading={update.isPending}>
          {t('drafts.accept')}
        </Button>
        {editing ? (
          <>
            <Button variant="secondary" onClick={save} disabled={!text.trim() || update.isPending}>
              {t('drafts.save')}
            </Button>
            <Button variant="ghost" onClick={() => (setEditing(false), setText(draft.text))}>
              {t('common:actions.cancel')}
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('drafts.edit')}
          </Button>
        )}
        <Button
          variant="ghost"
          onClick={() => update.mutate({ id: draft.id, change: { status: 'dismissed' } })}
          disabled={update.isPending}
        >
          {t('drafts.dismiss')}
        </Button>
      </div>
      <p className="text-xs text-zinc-500">{t('drafts.howTo')}</p>
      {update.isError && <CallError error={update.error} />}
    </Card>
  );
}
