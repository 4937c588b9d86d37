import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ChatSummary } from '@parley/contract';
import { formatDateTime, formatFullDateTime } from '@parley/i18n';
import { Card, ChatIcon, SkeletonBar, cn, focusRing } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { RECENT_CHATS } from '../api/recent-chats-api';

type Props = {
  chats: ChatSummary[] | undefined;
  error: unknown;
  /** The address of one conversation. */
  chatPath: (id: string) => string;
  /** Where every conversation is. */
  allPath: string;
};

/** The last few conversations, each a link back into it. */
export function RecentConversations({ chats, error, chatPath, allPath }: Props) {
  const { t, i18n } = useTranslation('home');
  return (
    <section aria-labelledby="recent-heading" className="space-y-3">
      <div className="flex items-baseline justify-between gap-3">
        <h2
          id="recent-heading"
          className="text-sm font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
        >
          {t('recent.title')}
        </h2>
        {chats && chats.length > 0 && (
          <Link
            to={allPath}
            className={cn('rounded text-sm font-medium text-blue-600 hover:underline dark:text-blue-400', focusRing)}
          >
            {t('recent.all')}
          </Link>
        )}
      </div>
      <Card flush className="p-2">
        {error ? (
          <p role="alert" className="p-3 text-sm text-red-600 dark:text-red-400">
            {t('recent.loadFailed')} {errorMessage(error)}
          </p>
        ) : !chats ? (
          <div className="space-y-2 p-2" aria-hidden="true">
            {Array.from({ length: 3 }, (_, i) => (
              <SkeletonBar key={i} className="h-9 w-full" />
            ))}
          </div>
        ) : chats.length === 0 ? (
          <p className="p-3 text-sm text-zinc-500 dark:text-zinc-400">{t('recent.empty')}</p>
        ) : (
          <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="recent-conversations">
            {chats.slice(0, RECENT_CHATS).map((chat) => (
              <li key={chat.chatHistoryId}>
                <Link
                  to={chatPath(chat.chatHistoryId)}
                  className={cn(
                    'flex items-center gap-3 rounded-lg px-3 py-2.5 hover:bg-zinc-50 dark:hover:bg-zinc-800/60',
                    focusRing,
                  )}
                >
                  <ChatIcon className="shrink-0 text-zinc-400" />
                  <span className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-800 dark:text-zinc-100">
                    {chat.title || t('recent.untitled')}
                  </span>
                  <time
                    dateTime={chat.updatedAt}
                    title={formatFullDateTime(chat.updatedAt, i18n.language)}
                    className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400"
                  >
                    {formatDateTime(chat.updatedAt, i18n.language)}
                  </time>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
