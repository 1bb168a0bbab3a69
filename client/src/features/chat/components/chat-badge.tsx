import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { applyChat, useChatDesk } from '../api/chat-desk';

/**
 * Customer service's unread messages on the side bar's live chat button, kept live: every chat
 * event of the member (a message, a read in another tab, a close) writes the chat's state into the
 * desk and the open room.
 */
export function ChatBadge({ token }: { token: string }) {
  const { t } = useTranslation('common');
  const qc = useQueryClient();
  const desk = useChatDesk(token, true);
  useRealtimeEvent('chat.posted', (e) => applyChat(qc, token, e.payload, [e.payload.message]));
  useRealtimeEvent('chat.updated', (e) => applyChat(qc, token, e.payload));
  const unread = desk?.unread ?? 0;
  if (unread === 0) return null;
  return (
    <span className="live-chat-badge" data-testid="live-chat-unread">
      <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
      <span className="sr-only">{t('chat_unread', { count: unread })}</span>
    </span>
  );
}
