import { useState } from 'react';
import { recordKindName } from '../../../lib/code-labels';
import { useTranslation } from 'react-i18next';
import { RECORDS_MAX_RANGE_DAYS, type TRecord } from '@portal/contracts/api/wallet';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney, amountToneClass } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { DataTable } from '../../../ui/data-table';
import { useRecords } from '../api/get-records';
import { useDateRange } from '../../../lib/date-range';
import { DateRangeFilter } from '../../../ui/date-range-filter';
import { useRecordsRefresh } from '../../../lib/records-refresh';
import { useBalance } from '../../wallet/api/get-balance';
import '../../../ui/cashier.css';

const PAGE_SIZE = 20;
const RECORDS_KEY = ['records', 'account'] as const;

const STATUS_TONE: Record<TRecord['status'], string> = { posted: 'ok', pending: 'wait', voided: 'bad' };

/** Member centre `transactionHistory` (module TRANSREC3): the account record by date range, paged. */
export function RecordsPanel() {
  const formatDateTime = useDateTime();
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const [page, setPage] = useState(1);
  const refresh = useRecordsRefresh(RECORDS_KEY);
  const { range, draft, setDraft, apply, active } = useDateRange(7, () => {
    setPage(1);
    refresh();
  });
  const q = useRecords({ ...range, pageNo: page, pageSize: PAGE_SIZE });
  const rows = q.data?.list ?? [];
  // "Balance after" counts money on hold for a pending withdrawal; the header shows what can be used.
  const balance = useBalance().data;

  return (
    <div className="mc-stack" data-testid="records-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('records_title')}</h1>
        <DateRangeFilter
          draft={draft} setDraft={setDraft} apply={apply} active={active} testId="records"
          labels={{ pastDays: (count) => t('records_past_days', { count }), from: t('records_from'), to: t('records_to'), search: t('search') }}
        />
        <p className="cx-muted">{t('records_range_hint', { days: RECORDS_MAX_RANGE_DAYS })}</p>
        {balance && balance.held > 0 && (
          <p className="cx-muted" data-testid="records-held-note">{t('records_held_note', { held: money(balance.held), available: money(balance.available) })}</p>
        )}
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <DataTable
          testId="records-list" rows={rows} rowKey={(r) => r.id} loaded={!!q.data} emptyText={t('empty')}
          rowProps={(r) => ({ 'data-testid': `records-row-${r.id}` })}
          columns={[
            { key: 'time', label: t('col_time'), cell: (r) => formatDateTime(r.time) },
            { key: 'kind', label: t('col_kind'), cell: (r) => recordKindName(t, r.kind) },
            { key: 'reference', label: t('col_reference'), cell: (r) => r.reference },
            { key: 'amount', label: t('amount'), num: true, tdClass: (r) => `cx-amount ${amountToneClass(r.amount)}`, cell: (r) => money(r.amount) },
            { key: 'balance', label: t('col_balance_after'), num: true, cell: (r) => (r.balanceAfter === null ? '—' : money(r.balanceAfter)) },
            { key: 'status', label: t('col_status'), cell: (r) => <span className={`cx-pill cx-pill--${STATUS_TONE[r.status]}`}>{t(`record_status_${r.status}`)}</span> },
          ]}
        />
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="records" />
      </div>
    </div>
  );
}
