import { useState } from 'react';
import { recordKindName } from '../../../lib/code-labels';
import { useTranslation } from 'react-i18next';
import { RECORDS_MAX_RANGE_DAYS, type TRecord } from '@portal/contracts/api/wallet';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useRecords } from '../api/get-records';
import { useDateRange } from '../../../lib/date-range';
import { DateRangeFilter } from '../../../ui/date-range-filter';
import '../../../ui/cashier.css';

const PAGE_SIZE = 20;

const STATUS_TONE: Record<TRecord['status'], string> = { posted: 'ok', pending: 'wait', voided: 'bad' };

/** Member centre `transactionHistory` (module TRANSREC3): the account record by date range, paged. */
export function RecordsPanel() {
  const formatDateTime = useDateTime();
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const [page, setPage] = useState(1);
  const { range, draft, setDraft, apply, active } = useDateRange(7, () => setPage(1));
  const q = useRecords({ ...range, pageNo: page, pageSize: PAGE_SIZE });
  const rows = q.data?.list ?? [];

  return (
    <div className="mc-stack" data-testid="records-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('records_title')}</h1>
        <DateRangeFilter
          draft={draft} setDraft={setDraft} apply={apply} active={active} testId="records"
          labels={{ pastDays: (count) => t('records_past_days', { count }), from: t('records_from'), to: t('records_to'), search: t('search') }}
        />
        <p className="cx-muted">{t('records_range_hint', { days: RECORDS_MAX_RANGE_DAYS })}</p>
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table" data-testid="records-list">
            <thead>
              <tr>
                <th>{t('col_time')}</th>
                <th>{t('col_kind')}</th>
                <th>{t('col_reference')}</th>
                <th className="cx-num">{t('amount')}</th>
                <th className="cx-num">{t('col_balance_after')}</th>
                <th>{t('col_status')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid={`records-row-${r.id}`}>
                  <td data-label={t('col_time')}>{formatDateTime(r.time)}</td>
                  <td data-label={t('col_kind')}>{recordKindName(t, r.kind)}</td>
                  <td data-label={t('col_reference')}>{r.reference}</td>
                  <td data-label={t('amount')} className={`cx-num cx-amount ${r.amount < 0 ? 'cx-amount--out' : 'cx-amount--in'}`}>{money(r.amount)}</td>
                  <td data-label={t('col_balance_after')} className="cx-num">{r.balanceAfter === null ? '—' : money(r.balanceAfter)}</td>
                  <td data-label={t('col_status')}>
                    <span className={`cx-pill cx-pill--${STATUS_TONE[r.status]}`}>{t(`record_status_${r.status}`)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
        </div>
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="records" />
      </div>
    </div>
  );
}
