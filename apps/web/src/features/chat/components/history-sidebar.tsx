import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ChatSummary } from '@parley/contract';
import { CHAT_TITLE_MAX } from '@parley/contract/values';
import { formatDateTime, formatFullDateTime } from '@parley/i18n';
import { PencilIcon, PlusIcon, SearchIcon, TrashIcon } from '@parley/ui/action-icons';
import { SkeletonBar, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useChatHistories, useDeleteAllChats, useDeleteChat, useRenameChat } from '../api/chat-api';

// The question before a deletion loads when it is first asked: the page shows without it.
const ConfirmDialog = lazy(() => import('@parley/ui/confirm-dialog').then((m) => ({ default: m.ConfirmDialog })));

type Group = 'today' | 'yesterday' | 'week' | 'older';

function groupOf(date: Date, now: Date): Group {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const day = 24 * 60 * 60 * 1000;
  const time = date.getTime();
  if (time >= startOfToday) return 'today';
  if (time >= startOfToday - day) return 'yesterday';
  if (time >= startOfToday - 6 * day) return 'week';
  return 'older';
}

/** Newest first, under Today / Yesterday / Previous 7 days / Older. */
export function groupByRecency(chats: ChatSummary[], now = new Date()): { group: Group; chats: ChatSummary[] }[] {
  const groups = new Map<Group, ChatSummary[]>();
  const sorted = [...chats].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  for (const chat of sorted) {
    const group = groupOf(new Date(chat.updatedAt), now);
    groups.set(group, [...(groups.get(group) ?? []), chat]);
  }
  return [...groups].map(([group, list]) => ({ group, chats: list }));
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Shown on hover or keyboard focus where there is a mouse; always shown on touch screens and for the open chat. */
const rowActions =
  'pointer-fine:opacity-0 pointer-fine:group-hover:opacity-100 pointer-fine:group-focus-within:opacity-100';

const actionButton = cn(
  'rounded-md p-1.5 text-zinc-400 hover:bg-zinc-200 dark:hover:bg-zinc-700 pointer-coarse:p-3',
  focusRing,
);

/** One conversation: its link, and Rename and Delete. Rename turns the title into a field (Enter saves, Esc cancels). */
function HistoryRow({
  chat,
  active,
  onNavigate,
  onDelete,
}: {
  chat: ChatSummary;
  active: boolean;
  onNavigate: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation('chat');
  const rename = useRenameChat();
  const [editing, setEditing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  // Set once the field has been saved or given up, so that the blur of a field going away does nothing more.
  const settled = useRef(false);
  // Keyboard users land back on Rename when the field closes (not when they clicked elsewhere).
  const focusBack = useRef(false);
  const title = chat.title || t('history.untitled');

  useEffect(() => {
    if (editing) {
      settled.current = false;
      input.current?.focus();
      input.current?.select();
    } else if (focusBack.current) {
      focusBack.current = false;
      renameButton.current?.focus();
    }
  }, [editing]);

  const finish = (returnFocus: boolean) => {
    settled.current = true;
    focusBack.current = returnFocus;
    setEditing(false);
  };

  const save = (returnFocus: boolean) => {
    if (settled.current || rename.isPending) return;
    const next = (input.current?.value ?? '').replace(/\s+/g, ' ').trim();
    if (!next || next === chat.title) return finish(returnFocus);
    settled.current = true;
    rename.mutate(
      { chatHistoryId: chat.chatHistoryId, title: next },
      {
        onSuccess: () => finish(returnFocus),
        onError: (error) => {
          settled.current = false;
          toast.error(errorMessage(error));
          input.current?.focus();
        },
      },
    );
  };

  return (
    <li className="group relative">
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save(true);
          }}
          className="px-1 py-1"
        >
          <input
            ref={input}
            defaultValue={chat.title}
            maxLength={CHAT_TITLE_MAX}
            aria-label={t('history.renameLabel', { title })}
            readOnly={rename.isPending}
            aria-busy={rename.isPending || undefined}
            onBlur={() => save(false)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                // Esc ends the renaming only (not the history drawer around it).
                e.preventDefault();
                e.stopPropagation();
                finish(true);
              }
            }}
            className="block w-full rounded-md border border-blue-400 bg-white px-2 py-1.5 text-sm text-zinc-900 focus:outline-none focus:ring-2 focus:ring-blue-500/40 read-only:opacity-60 dark:bg-zinc-900 dark:text-zinc-100"
          />
        </form>
      ) : (
        <>
          <Link
            to={`/chat/${chat.chatHistoryId}`}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'block rounded-lg py-2 pl-3 pr-18 text-sm pointer-coarse:pr-24',
              focusRing,
              active
                ? 'bg-blue-50 font-medium text-blue-800 dark:bg-blue-500/15 dark:text-blue-200'
                : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
            )}
          >
            <span className="block truncate">{title}</span>
            <time
              dateTime={chat.updatedAt}
              title={formatFullDateTime(chat.updatedAt, i18n.language)}
              className="block text-xs font-normal text-zinc-500 dark:text-zinc-400"
            >
              {formatDateTime(chat.updatedAt, i18n.language)}
            </time>
          </Link>
          <div
            role="group"
            aria-label={t('history.actions', { title })}
            className={cn('absolute right-1 top-1/2 flex -translate-y-1/2 items-center', !active && rowActions)}
          >
            <button
              ref={renameButton}
              type="button"
              onClick={() => setEditing(true)}
              aria-label={t('history.rename', { title })}
              title={t('history.renameShort')}
              className={cn(actionButton, 'hover:text-zinc-700 dark:hover:text-zinc-200')}
            >
              <PencilIcon width="1.05em" height="1.05em" />
            </button>
            <button
              type="button"
              onClick={onDelete}
              aria-label={t('history.delete', { title })}
              title={t('history.deleteShort')}
              className={cn(actionButton, 'hover:text-red-600')}
            >
              <TrashIcon width="1.05em" height="1.05em" />
            </button>
          </div>
        </>
      )}
    </li>
  );
}

type Props = {
  activeId: string | null;
  onNewChat: () => void;
  /** A chat was picked (closes the drawer on small screens). */
  onNavigate: () => void;
  /** The open chat was deleted (or all were). */
  onActiveDeleted: () => void;
};

/** History: search, New Chat, conversations by recency, delete one or all (each after a question). */
export function HistorySidebar({ activeId, onNewChat, onNavigate, onActiveDeleted }: Props) {
  const { t } = useTranslation('chat');
  const id = useId();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const histories = useChatHistories(q);
  const deleteOne = useDeleteChat();
  const deleteAll = useDeleteAllChats();
  const [confirm, setConfirm] = useState<{ kind: 'one'; chat: ChatSummary } | { kind: 'all' } | null>(null);
  const groups = useMemo(() => groupByRecency(histories.data ?? []), [histories.data]);

  const onConfirm = () => {
    if (!confirm) return;
    if (confirm.kind === 'one') {
      deleteOne.mutate(confirm.chat.chatHistoryId, {
        onSuccess: () => {
          toast.success(t('history.deleted'));
          if (confirm.chat.chatHistoryId === activeId) onActiveDeleted();
          setConfirm(null);
        },
        onError: (error) => toast.error(errorMessage(error)),
      });
    } else {
      deleteAll.mutate(undefined, {
        onSuccess: () => {
          toast.success(t('history.allDeleted'));
          onActiveDeleted();
          setConfirm(null);
        },
        onError: (error) => toast.error(errorMessage(error)),
      });
    }
  };

  return (
    <div className="flex h-full flex-col">
      <div className="space-y-3 p-3">
        <button
          type="button"
          onClick={onNewChat}
          className={cn(
            'flex w-full items-center justify-center gap-2 rounded-lg bg-blue-500 px-3 py-2 text-sm font-medium text-white hover:bg-blue-600',
            focusRing,
          )}
        >
          <PlusIcon /> {t('history.newChat')}
        </button>
        <div className="relative">
          <label htmlFor={`${id}-search`} className="sr-only">
            {t('history.search')}
          </label>
          <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 -translate-y-1/2 text-zinc-400" />
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('history.searchPlaceholder')}
            maxLength={200}
            className="block w-full rounded-lg border border-zinc-200 bg-zinc-50 py-1.5 pl-9 pr-2 text-sm text-zinc-900 placeholder:text-zinc-400 focus:border-blue-400 focus:bg-white focus:outline-none focus:ring-2 focus:ring-blue-500/30 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          />
        </div>
      </div>

      <nav aria-label={t('history.title')} className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        <h2 className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-zinc-400">{t('history.title')}</h2>
        {histories.isPending ? (
          <div className="space-y-2 px-2 pt-1" aria-hidden="true">
            {Array.from({ length: 5 }, (_, i) => (
              <SkeletonBar key={i} className="h-8 w-full" />
            ))}
          </div>
        ) : histories.isError ? (
          <p role="alert" className="px-2 py-3 text-sm text-red-600 dark:text-red-400">
            {errorMessage(histories.error)}
          </p>
        ) : groups.length === 0 ? (
          <p className="px-2 py-3 text-sm text-zinc-500 dark:text-zinc-400">
            {q ? t('history.noResults', { q }) : t('history.empty')}
          </p>
        ) : (
          groups.map(({ group, chats }) => (
            <section key={group} aria-labelledby={`${id}-${group}`} className="pt-2">
              <h3 id={`${id}-${group}`} className="px-2 pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">
                {t(`history.groups.${group}`)}
              </h3>
              <ul className="space-y-0.5">
                {chats.map((chat) => (
                  <HistoryRow
                    key={chat.chatHistoryId}
                    chat={chat}
                    active={chat.chatHistoryId === activeId}
                    onNavigate={onNavigate}
                    onDelete={() => setConfirm({ kind: 'one', chat })}
                  />
                ))}
              </ul>
            </section>
          ))
        )}
      </nav>

      {(histories.data?.length ?? 0) > 0 && !q && (
        <div className="border-t border-zinc-200 p-2 dark:border-zinc-800">
          <button
            type="button"
            onClick={() => setConfirm({ kind: 'all' })}
            className={cn(
              'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-sm text-zinc-600 hover:bg-red-50 hover:text-red-700 dark:text-zinc-400 dark:hover:bg-red-500/10 dark:hover:text-red-300',
              focusRing,
            )}
          >
            <TrashIcon /> {t('history.deleteAll')}
          </button>
        </div>
      )}

      {confirm && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={confirm.kind === 'all' ? t('history.deleteAllTitle') : t('history.deleteTitle')}
            description={
              confirm.kind === 'one'
                ? t('history.deleteText', { title: confirm.chat.title || t('history.untitled') })
                : t('history.deleteAllText')
            }
            confirmLabel={confirm.kind === 'all' ? t('history.deleteAllConfirm') : t('history.deleteShort')}
            cancelLabel={t('history.cancel')}
            busy={deleteOne.isPending || deleteAll.isPending}
            onConfirm={onConfirm}
            onCancel={() => setConfirm(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
