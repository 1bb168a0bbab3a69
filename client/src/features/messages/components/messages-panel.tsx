import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useMessages } from '../api/get-messages';
import { useMarkRead } from '../api/mark-read';
import '../../../ui/cashier.css';

/**
 * Member centre `messageV2`: the player's messages, newest first. Titles are translation keys
 * (`message_<kind>` in common) filled by the message's params.
 */
export function MessagesPanel() {
  const formatDateTime = useDateTime();
  const { t } = useTranslation('wallet');
  const [page, setPage] = useState(1);
  const q = useMessages(page);
  const mark = useMarkRead();
  const rows = q.data?.list ?? [];
  const unread = q.data?.unreadCount ?? 0;
  return (
    <div className="mc-stack" data-testid="messages-panel">
      <div className="mc-card">
        <div className="cx-head">
          <h1 className="mc-title">{t('messages_title')}</h1>
          <button type="button" className="btn btn--outline btn--sm" disabled={unread === 0 || mark.isPending} onClick={() => mark.mutate({ all: true })} data-testid="messages-read-all">
            {t('messages_read_all')}
          </button>
        </div>
        <p className="cx-muted" data-testid="messages-unread">{t('messages_unread', { count: unread })}</p>
        {(q.error || mark.error) && <FormMessage message={errorMessage(q.error ?? mark.error)} />}
        {q.data && rows.length === 0 ? (
          <p className="cx-empty">{t('messages_empty')}</p>
        ) : (
          <ul className="msg-list" data-testid="messages-list">
            {rows.map((m) => (
              <li key={m.id} className={`msg-item${m.read ? ' msg-item--read' : ''}`} data-testid={`message-${m.id}`} data-read={m.read}>
                {!m.read && <span className="cx-unread" aria-label={t('messages_new')} />}
                <div className="msg-item__body">
                  <p className="msg-item__title">{t(`common:${m.title}`, { ...m.params, defaultValue: m.title })}</p>
                  <span className="cx-muted">
                    {formatDateTime(m.createdAt)}
                    {typeof m.params.reference === 'string' ? ` · ${m.params.reference}` : ''}
                  </span>
                </div>
                {!m.read && (
                  <button type="button" className="btn btn--ghost btn--sm" disabled={mark.isPending} onClick={() => mark.mutate({ ids: [m.id] })} data-testid={`message-read-${m.id}`}>
                    {t('messages_mark_read')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="messages" />
      </div>
    </div>
  );
}
