import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useEnvelopeHistory } from '../api/envelopes';
import { envelopeMessage } from './envelope-host';
import '../../../ui/cashier.css';
import './envelopes.css';

/** Member centre `redEnvelopes`: the envelopes this player grabbed, newest first. */
export function EnvelopeHistoryPanel() {
  const { t, i18n } = useTranslation('envelopes');
  const money = useMoney();
  const formatDateTime = useDateTime();
  const [page, setPage] = useState(1);
  const q = useEnvelopeHistory(page);
  const rows = q.data?.list ?? [];
  return (
    <div className="mc-stack" data-testid="envelope-history">
      <div className="mc-card">
        <h1 className="mc-title">{t('history_title')}</h1>
        <p className="cx-muted">{t('history_intro')}</p>
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        {q.data && rows.length === 0 ? (
          <p className="cx-empty" data-testid="envelope-history-empty">{t('history_empty')}</p>
        ) : (
          <ul className="rp-history">
            {rows.map((r) => (
              <li key={r.envelopeId} className="rp-history__item" data-testid={`envelope-history-${r.envelopeId}`}>
                <span className="rp-history__icon" aria-hidden="true" />
                <div className="rp-history__body">
                  <p className="rp-history__title">{envelopeMessage(r.message, i18n.language) ?? t('default_message')}</p>
                  <span className="cx-muted">{formatDateTime(r.grabbedAt)} · #{r.envelopeId}</span>
                </div>
                <strong className="rp-history__amount">+{money(r.amount)}</strong>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="envelope-history" />
      </div>
    </div>
  );
}
