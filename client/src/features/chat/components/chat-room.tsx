import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CHAT_LIMITS, chatChars, type TChatMessage } from '@portal/contracts/api/chat';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/field-message';
import { useSessionToken } from '../../../lib/session';
import { useDateTime } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { Modal } from '../../../ui/modal';
import { applyChat, useChatRoom } from '../api/chat-desk';
import { useOlderChat, useReadChat, useSendChat } from '../api/chat';
import './chat-room.css';

/** The time of a message: hh:mm on the merchant's clock, with the date when it is not today's. */
function useMessageTime() {
  const dateTime = useDateTime();
  return (iso: string) => {
    const full = dateTime(iso);
    const today = dateTime(new Date().toISOString()).slice(0, 10);
    return full.startsWith(today) ? full.slice(11) : full;
  };
}

function Message({ m, time }: { m: TChatMessage; time: string }) {
  const { t } = useTranslation('chat');
  const isMine = m.sender === 'member';
  return (
    <li className={`chat-msg chat-msg--${isMine ? 'mine' : 'theirs'}`} data-testid="chat-message" data-sender={m.sender}>
      {!isMine && <span className="chat-msg__who">{t('from_support')}</span>}
      <p className="chat-msg__body">{m.body}</p>
      <time className="chat-msg__time" dateTime={m.at}>{time}</time>
    </li>
  );
}

/**
 * The chat room (spec: chat room modal): the member's chat with customer service. Messages arrive
 * live (chat.posted); what customer service wrote is marked read while the room is open.
 */
export function ChatRoom({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('chat');
  const { t: tc } = useTranslation('register');
  const token = useSessionToken();
  const qc = useQueryClient();
  const room = useChatRoom(token);
  const send = useSendChat(token);
  const read = useReadChat(token);
  const older = useOlderChat(token);
  const time = useMessageTime();
  const [text, setText] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = useRef<string | null>(null);

  useRealtimeEvent('chat.posted', (e) => applyChat(qc, token, e.payload, [e.payload.message]));
  useRealtimeEvent('chat.updated', (e) => applyChat(qc, token, e.payload));

  const data = room.data;
  const unread = data?.chat.unread ?? 0;
  const isReading = read.isPending;
  useEffect(() => {
    // Open and shown: what customer service wrote is read now.
    if (open && unread > 0 && !isReading && document.visibilityState === 'visible') read.mutate();
  }, [open, unread, isReading, read]);

  // Follow the conversation: scroll to the newest message when one is added at the end (not when older ones load).
  const newest = data?.messages.at(-1)?.id ?? null;
  useLayoutEffect(() => {
    if (newest === lastId.current) return;
    lastId.current = newest;
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest]);

  const body = text.trim();
  const n = chatChars(body);
  const isTooLong = n > CHAT_LIMITS.bodyMaxChars;
  const canSend = n > 0 && !isTooLong && !send.isPending && !!data;
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    send.mutate(body, { onSuccess: () => setText('') });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) submit(e);
  };
  const sendError = send.error
    ? isApiError(send.error) && send.error.code === ErrorCode.TOO_MANY_REQUESTS ? t('too_fast') : tc(errorMessage(send.error).key)
    : null;

  return (
    <Modal name="chatRoom" open={open} onClose={onClose} title={t('title')} width={420} className="chat-room">
      <div className="chat-room__status" data-testid="chat-desk" data-online={data?.desk.online ? 'true' : 'false'}>
        {data && (
          <>
            <span className="chat-room__state">
              <span className={`chat-dot${data.desk.online ? ' chat-dot--on' : ''}`} aria-hidden="true" />
              <span>{data.desk.online ? t('online') : t('offline')}</span>
            </span>
            <span className="chat-room__hours">{t('hours', { hours: data.desk.hours })}</span>
          </>
        )}
      </div>
      {room.isError && (
        <p className="form-message form-message--error" role="alert" data-testid="chat-error">
          {tc(errorMessage(room.error).key)}
        </p>
      )}
      <ol className="chat-room__list" ref={listRef} data-testid="chat-messages" aria-live="polite" aria-label={t('messages')}>
        {data?.hasMore && (
          <li className="chat-room__more">
            <button type="button" className="btn btn--ghost btn--sm" disabled={older.isPending} onClick={() => data.messages[0] && older.mutate(data.messages[0].id)}>
              {t('earlier')}
            </button>
          </li>
        )}
        {data && data.messages.length === 0 && <li className="chat-room__empty">{t('empty')}</li>}
        {data?.messages.map((m) => <Message key={m.id} m={m} time={time(m.at)} />)}
        {room.isPending && <li className="chat-room__empty">{t('loading')}</li>}
      </ol>
      {data?.chat.status === 'closed' && <p className="chat-room__closed" data-testid="chat-closed">{t('closed')}</p>}
      <form className="chat-room__form" onSubmit={submit}>
        <label className="sr-only" htmlFor="chat-input">{t('input_label')}</label>
        <textarea
          id="chat-input"
          className="chat-room__input"
          rows={2}
          value={text}
          placeholder={t('placeholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={isTooLong}
          data-testid="chat-input"
        />
        <button type="submit" className="btn btn--primary" disabled={!canSend} data-testid="chat-send">{t('send')}</button>
      </form>
      <div className="chat-room__foot">
        {sendError ? <p className="chat-room__error" role="alert" data-testid="chat-send-error">{sendError}</p> : <span />}
        <span className={`chat-room__count${isTooLong ? ' chat-room__count--over' : ''}`}>{t('chars', { n, max: CHAT_LIMITS.bodyMaxChars })}</span>
      </div>
    </Modal>
  );
}
