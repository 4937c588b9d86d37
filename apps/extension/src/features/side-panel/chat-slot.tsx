import { useTranslation } from 'react-i18next';
import type { PageContent } from '../../messaging/protocol';

/**
 * Where the shared chat panel (moving from apps/web/src/features/chat to packages/ui) is mounted. It will receive
 * `pageContext` to send with the next question, and talk to the API through the background's CHAT_PORT.
 */
export function ChatSlot({ pageContext }: { pageContext: PageContent | null }) {
  const { t } = useTranslation();
  return (
    <section className="chat-slot" aria-label="chat" data-page-context={pageContext ? 'yes' : 'no'}>
      <p className="muted">{t('chat.slot')}</p>
    </section>
  );
}
