import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { ChatSummary } from '@parley/contract';
import { formatDate } from '@parley/i18n';
import { PlusIcon, SearchIcon, TrashIcon } from '@parley/ui/action-icons';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { SkeletonBar, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useChatHistories, useDeleteAllChats, useDeleteChat } from '../api/chat-api';

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
  const { t, i18n } = useTranslation('chat');
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
                {chats.map((chat) => {
                  const active = chat.chatHistoryId === activeId;
                  return (
                    <li key={chat.chatHistoryId} className="group relative">
                      <Link
                        to={`/chat/${chat.chatHistoryId}`}
                        onClick={onNavigate}
                        aria-current={active ? 'page' : undefined}
                        className={cn(
                          'block rounded-lg py-2 pl-3 pr-9 text-sm',
                          focusRing,
                          active
                            ? 'bg-blue-50 font-medium text-blue-800 dark:bg-blue-500/15 dark:text-blue-200'
                            : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
                        )}
                      >
                        <span className="block truncate">{chat.title || t('history.untitled')}</span>
                        <span className="block text-xs font-normal text-zinc-400">
                          {formatDate(chat.updatedAt, i18n.language, {
                            month: 'short',
                            day: 'numeric',
                            ...(group === 'older' ? { year: 'numeric' } : { hour: '2-digit', minute: '2-digit' }),
                          })}
                        </span>
                      </Link>
                      <button
                        type="button"
                        onClick={() => setConfirm({ kind: 'one', chat })}
                        aria-label={t('history.delete', { title: chat.title || t('history.untitled') })}
                        title={t('history.deleteShort')}
                        className={cn(
                          'absolute right-1.5 top-1/2 -translate-y-1/2 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-200 hover:text-red-600 focus:opacity-100 dark:hover:bg-zinc-700 md:opacity-0 md:group-hover:opacity-100',
                          focusRing,
                        )}
                      >
                        <TrashIcon width="1.05em" height="1.05em" />
                      </button>
                    </li>
                  );
                })}
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

      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === 'all' ? t('history.deleteAllTitle') : t('history.deleteTitle')}
        description={
          confirm?.kind === 'one'
            ? t('history.deleteText', { title: confirm.chat.title || t('history.untitled') })
            : t('history.deleteAllText')
        }
        confirmLabel={confirm?.kind === 'all' ? t('history.deleteAllConfirm') : t('history.deleteShort')}
        cancelLabel={t('history.cancel')}
        busy={deleteOne.isPending || deleteAll.isPending}
        onConfirm={onConfirm}
        onCancel={() => setConfirm(null)}
      />
    </div>
  );
}
