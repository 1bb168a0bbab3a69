import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMessage } from '@portal/contracts/api/wallet';
import { MESSAGE_CATEGORIES, messageCategoryOf, type MessageCategory } from '@portal/contracts/events/events';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useMessages } from '../api/get-messages';
import { useMarkRead } from '../api/mark-read';
import { messageText } from '../message-text';
import '../../../ui/cashier.css';
import '../messages.css';

type Tab = 'all' | MessageCategory;
const TABS: readonly Tab[] = ['all', ...MESSAGE_CATEGORIES];

/**
 * Member centre `messageV2`: the player's messages, newest first, in tabs (all, transactions, system,
 * promotions) with their unread counts. Titles of system-made messages are translation keys
 * (`message_<kind>` in common) filled by the params; operator-written ones carry their texts per language.
 * New messages and counts arrive live (`message.received`).
 */
export function MessagesPanel() {
  const formatDateTime = useDateTime();
  const { t, i18n } = useTranslation('wallet');
  const [tab, setTab] = useState<Tab>('all');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const category = tab === 'all' ? null : tab;
  const q = useMessages(page, category);
  const mark = useMarkRead();
  const rows = q.data?.list ?? [];
  const unread = q.data?.unreadCount ?? 0;
  const countOf = (x: Tab) => (x === 'all' ? unread : (q.data?.byCategory[x] ?? 0));
  const tabUnread = countOf(tab);
  const openMessage = (m: TMessage) => {
    setOpen((cur) => (cur === m.id ? null : m.id));
    if (!m.read) mark.mutate({ ids: [m.id] });
  };
  return (
    <div className="mc-stack" data-testid="messages-panel">
      <div className="mc-card">
        <div className="cx-head">
          <h1 className="mc-title">{t('messages_title')}</h1>
          <button
            type="button"
            className="btn btn--outline btn--sm"
            disabled={tabUnread === 0 || mark.isPending}
            onClick={() => mark.mutate(category ? { all: true, category } : { all: true })}
            data-testid="messages-read-all"
          >
            {t('messages_read_all')}
          </button>
        </div>
        <div className="msg-tabs" role="tablist" aria-label={t('messages_tabs')}>
          {TABS.map((x) => (
            <button
              key={x}
              type="button"
              role="tab"
              aria-selected={tab === x}
              className={`msg-tab${tab === x ? ' is-active' : ''}`}
              onClick={() => {
                setTab(x);
                setPage(1);
              }}
              data-testid={`messages-tab-${x}`}
            >
              {t(`messages_tab_${x}`)}
              {countOf(x) > 0 && <span className="msg-tab__count" data-testid={`messages-tab-${x}-count`}>{countOf(x) > 99 ? '99+' : countOf(x)}</span>}
            </button>
          ))}
        </div>
        <p className="cx-muted" data-testid="messages-unread">{t('messages_unread', { count: unread })}</p>
        {(q.error || mark.error) && <FormMessage message={errorMessage(q.error ?? mark.error)} />}
        {q.data && rows.length === 0 ? (
          <p className="cx-empty">{t('messages_empty')}</p>
        ) : (
          <ul className="msg-list" data-testid="messages-list">
            {rows.map((m) => {
              const text = messageText(m, i18n.language, (key, params) => t(`common:${key}`, { ...params, defaultValue: key }));
              const isOpen = open === m.id;
              return (
                <li key={m.id} className={`msg-item${m.read ? ' msg-item--read' : ''}`} data-testid={`message-${m.id}`} data-read={m.read} data-kind={m.kind}>
                  {!m.read && <span className="cx-unread" aria-label={t('messages_new')} />}
                  <div className="msg-item__body">
                    <button type="button" className="msg-item__open" aria-expanded={text.content ? isOpen : undefined} onClick={() => openMessage(m)}>
                      <span className="msg-item__title">{text.title}</span>
                    </button>
                    <span className="cx-muted">
                      <span className="msg-item__kind">{t(`messages_tab_${messageCategoryOf(m.kind)}`)}</span>
                      {' · '}
                      {formatDateTime(m.createdAt)}
                      {typeof m.params.reference === 'string' ? ` · ${t('messages_ref', { ref: m.params.reference })}` : ''}
                    </span>
                    {text.content && isOpen && <p className="msg-item__content" data-testid={`message-${m.id}-content`}>{text.content}</p>}
                    {/* The answer itself is on the feedback page: the message says where. */}
                    {m.kind === 'feedback_answered' && <Link className="link-btn small" to="/feedback" data-testid={`message-${m.id}-feedback`}>{t('messages_see_answer')}</Link>}
                  </div>
                  {!m.read && (
                    <button type="button" className="btn btn--ghost btn--sm msg-item__read" disabled={mark.isPending} onClick={() => mark.mutate({ ids: [m.id] })} data-testid={`message-read-${m.id}`}>
                      {t('messages_mark_read')}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="messages" />
      </div>
    </div>
  );
}
