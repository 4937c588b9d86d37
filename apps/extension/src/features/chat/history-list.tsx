import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatSummary } from '@parley/contract';
import { formatDateTime, formatFullDateTime } from '@parley/i18n';
import { SearchIcon } from '@parley/ui/action-icons';
import { apiCall } from '../../platform/messaging/messaging';
import { errorText, muted } from '../../ui/styles';

type Props = {
  /** The conversation shown in the panel, marked in the list. */
  currentId: string | null;
  onOpen: (chatHistoryId: string) => void;
};

/** The person's conversations, newest first, searchable: the same history as the web app's. */
export function HistoryList({ currentId, onOpen }: Props) {
  const { t, i18n } = useTranslation('chat');
  const [q, setQ] = useState('');
  const [items, setItems] = useState<ChatSummary[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    const query = q.trim();
    // Typing waits a moment before asking; opening the list asks at once.
    const timer = setTimeout(
      () => {
        apiCall('chatHistories', { query: { limit: 50, ...(query ? { q: query } : {}) } })
          .then((r) => {
            if (!live) return;
            setFailed(false);
            setItems(r.data);
          })
          .catch(() => live && setFailed(true));
      },
      query ? 250 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);

  return (
    <div className="flex flex-col gap-3">
      <label className="flex h-9 items-center gap-2 rounded-lg border border-zinc-200 bg-white px-2.5 text-sm focus-within:border-blue-500 dark:border-zinc-700 dark:bg-zinc-900">
        <SearchIcon className="shrink-0 text-zinc-400" width="1em" height="1em" />
        <input
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          aria-label={t('history.search')}
          placeholder={t('history.searchPlaceholder')}
          className="min-w-0 flex-1 bg-transparent outline-none placeholder:text-zinc-400"
        />
      </label>
      {failed ? (
        <p role="alert" className={errorText}>
          {t('history.loadFailed')}
        </p>
      ) : items === null ? null : items.length === 0 ? (
        <p className={`px-1 text-sm ${muted}`}>
          {q.trim() ? t('history.noResults', { q: q.trim() }) : t('history.empty')}
        </p>
      ) : (
        <ul aria-label={t('history.title')} className="flex flex-col gap-0.5">
          {items.map((c) => (
            <li key={c.chatHistoryId}>
              <button
                type="button"
                onClick={() => onOpen(c.chatHistoryId)}
                aria-current={c.chatHistoryId === currentId ? 'true' : undefined}
                className="flex w-full flex-col items-start gap-0.5 rounded-lg px-2.5 py-2 text-left hover:bg-zinc-100 aria-[current=true]:bg-blue-50 dark:hover:bg-zinc-800 dark:aria-[current=true]:bg-blue-500/10"
              >
                <span className="w-full truncate text-sm font-medium text-zinc-800 dark:text-zinc-100">
                  {c.title || t('history.untitled')}
                </span>
                <time
                  dateTime={c.updatedAt}
                  title={formatFullDateTime(c.updatedAt, i18n.language)}
                  className={`text-xs ${muted}`}
                >
                  {formatDateTime(c.updatedAt, i18n.language)}
                </time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
