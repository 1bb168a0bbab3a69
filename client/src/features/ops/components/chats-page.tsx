import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { CHAT_LIMITS, chatChars, type ChatStatus } from '@portal/contracts/api/chat';
import { useCloseChat, useOpsChatThread, useOpsChats, useReadOpsChat, useReplyChat, type TOpsChat } from '../api/chats';
import { useOpsTime } from '../lib/format';
import { useOpsChatLive } from '../lib/ops-live';
import { ErrorNote, PageHead, Pager, StatusChip, Tabs } from './ops-ui';
import './chats-page.css';

const PAGE_SIZE = 30;
type Filter = ChatStatus | 'all';
const FILTERS: readonly Filter[] = ['open', 'closed', 'all'];
const isFilter = (v: string | null): v is Filter => v !== null && (FILTERS as readonly string[]).includes(v);

function ChatRow({ c, isSelected, onOpen }: { c: TOpsChat; isSelected: boolean; onOpen: () => void }) {
  const { t } = useTranslation('ops');
  const formatDateTime = useOpsTime();
  return (
    <li>
      <button type="button" className={`ops-chat-item${isSelected ? ' ops-chat-item--on' : ''}`} onClick={onOpen} aria-current={isSelected}
        data-testid={`ops-chat-row-${c.id}`} data-status={c.status} data-unread={c.unreadOps}>
        <span className="ops-chat-item__top">
          <span className="strong">{c.account}</span>
          {c.unreadOps > 0 && <span className="ops-chat-badge" data-testid={`ops-chat-unread-${c.id}`} aria-label={t('chat_unread', { count: c.unreadOps })}>{c.unreadOps}</span>}
          {c.status === 'closed' && <StatusChip tone="muted">{t('chat_status_closed')}</StatusChip>}
        </span>
        <span className="ops-chat-item__last">
          {c.lastSender === 'operator' && <span className="ops-muted">{t('chat_you')}: </span>}
          {c.lastBody ?? '—'}
        </span>
        <span className="ops-sub">{c.lastMessageAt ? formatDateTime(c.lastMessageAt) : ''}{c.operator ? ` · ${c.operator}` : ''}</span>
      </button>
    </li>
  );
}

function Thread({ id, onBack }: { id: string; onBack: () => void }) {
  const { t } = useTranslation('ops');
  const formatDateTime = useOpsTime();
  const thread = useOpsChatThread(id);
  const reply = useReplyChat();
  const read = useReadOpsChat();
  const close = useCloseChat();
  const [text, setText] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  const chat = thread.data?.chat;
  const unread = chat?.unreadOps ?? 0;
  const isReading = read.isPending;
  useEffect(() => {
    // Opened and shown: the player's messages are read.
    if (unread > 0 && !isReading && document.visibilityState === 'visible') read.mutate(id);
  }, [id, unread, isReading, read]);
  const newest = thread.data?.list.at(-1)?.id;
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest, id]);

  const body = text.trim();
  const n = chatChars(body);
  const isTooLong = n > CHAT_LIMITS.bodyMaxChars;
  const isOpen = chat?.status === 'open';
  const canSend = isOpen && n > 0 && !isTooLong && !reply.isPending;
  const send = () => {
    if (canSend) reply.mutate({ id, body }, { onSuccess: () => setText('') });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <section className="ops-chat-thread" data-testid="ops-chat-thread" aria-label={chat ? t('chat_with', { account: chat.account }) : undefined}>
      <header className="ops-chat-thread__head">
        <button type="button" className="ops-btn ops-btn--sm ops-chat-back" onClick={onBack}>{t('chat_back')}</button>
        {chat && (
          <>
            <span className="strong">{chat.account}</span>
            <span className="ops-sub">#{chat.memberId}</span>
            <StatusChip tone={isOpen ? 'success' : 'muted'} testId="ops-chat-status">{t(`chat_status_${chat.status}`)}</StatusChip>
            {isOpen && (
              <button type="button" className="ops-btn ops-btn--sm ops-btn--danger ops-chat-close" disabled={close.isPending} onClick={() => close.mutate(id)} data-testid="ops-chat-close">
                {t('chat_close')}
              </button>
            )}
          </>
        )}
      </header>
      <ErrorNote error={thread.error ?? close.error} testId="ops-chat-thread-error" />
      <ol className="ops-chat-msgs" ref={listRef} data-testid="ops-chat-messages" aria-live="polite">
        {thread.data?.hasMore && <li className="ops-muted ops-chat-more">{t('chat_older_hidden')}</li>}
        {thread.data?.list.map((m) => (
          <li key={m.id} className={`ops-chat-msg ops-chat-msg--${m.sender}`} data-testid="ops-chat-message" data-sender={m.sender}>
            <p className="ops-chat-msg__body">{m.body}</p>
            <span className="ops-sub">{m.sender === 'operator' ? `${m.operator ?? t('chat_operator')} · ` : ''}{formatDateTime(m.at)}</span>
          </li>
        ))}
      </ol>
      {chat && !isOpen && <p className="ops-muted ops-chat-closed">{t('chat_closed_note')}</p>}
      <form className="ops-chat-form" onSubmit={(e) => { e.preventDefault(); send(); }}>
        <label className="ops-field__label" htmlFor="ops-chat-input">{t('chat_reply')}</label>
        <textarea id="ops-chat-input" className="ops-input ops-chat-input" rows={3} value={text} disabled={!isOpen}
          onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} aria-invalid={isTooLong} data-testid="ops-chat-input" />
        <div className="ops-chat-form__foot">
          <span className={isTooLong ? 'ops-chat-over' : 'ops-sub'}>{t('feedback_chars', { n, max: CHAT_LIMITS.bodyMaxChars })}</span>
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!canSend} data-testid="ops-chat-send">{t('chat_send')}</button>
        </div>
        <ErrorNote error={reply.error} testId="ops-chat-reply-error" />
      </form>
    </section>
  );
}

/** /ops/chats: players' live chats (chat.answer: support, administrator), live over the console's socket. */
export function ChatsPage() {
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const fp = params.get('status');
  const filter: Filter = isFilter(fp) ? fp : 'open';
  const selected = params.get('chat');
  const [pageNo, setPageNo] = useState(1);
  const isLive = useOpsChatLive(true);
  const list = useOpsChats({ ...(filter === 'all' ? {} : { status: filter }), pageNo, pageSize: PAGE_SIZE });
  const rows = list.data?.list ?? [];
  const go = (next: { status?: Filter; chat?: string | null }) => {
    const p = new URLSearchParams();
    p.set('status', next.status ?? filter);
    const chat = next.chat === undefined ? selected : next.chat;
    if (chat) p.set('chat', chat);
    setParams(p, { replace: true });
  };
  return (
    <section className={`ops-page ops-chats${selected ? ' ops-chats--thread' : ''}`} data-testid="ops-chats-page">
      <PageHead title={t('nav_chats')}>
        <Tabs value={filter} label={t('filter_status')} testPrefix="ops-chats-tab"
          onChange={(v) => { setPageNo(1); go({ status: v }); }}
          options={FILTERS.map((v) => ({ value: v, label: v === 'all' ? t('chat_filter_all') : t(`chat_status_${v}`) }))} />
        <span className={`ops-chat-live${isLive ? ' ops-chat-live--on' : ''}`} data-testid="ops-chat-live" data-live={isLive}>
          {isLive ? t('chat_live') : t('chat_connecting')}
        </span>
      </PageHead>
      <ErrorNote error={list.error} testId="ops-chats-error" />
      <div className="ops-chats__body">
        <div className="ops-chats__list">
          {rows.length === 0 && !list.isPending ? (
            <p className="ops-muted" data-testid="ops-chats-empty">{t('chat_empty')}</p>
          ) : (
            <ul className="ops-chat-items">
              {rows.map((c) => <ChatRow key={c.id} c={c} isSelected={c.id === selected} onOpen={() => go({ chat: c.id })} />)}
            </ul>
          )}
          {list.data && list.data.total > PAGE_SIZE && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-chats-pager" />}
        </div>
        {selected ? <Thread key={selected} id={selected} onBack={() => go({ chat: null })} /> : (
          <p className="ops-muted ops-chats__pick">{t('chat_pick')}</p>
        )}
      </div>
    </section>
  );
}
