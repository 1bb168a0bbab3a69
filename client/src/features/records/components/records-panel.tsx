import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RECORDS_MAX_RANGE_DAYS, type TRecord } from '@portal/contracts/api/wallet';
import { errorMessage } from '../../../lib/field-message';
import { formatDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useRecords } from '../api/get-records';
import '../../../ui/cashier.css';

const PAGE_SIZE = 20;
const SHORTCUTS = [7, 30] as const;

/** yyyy-MM-dd of a local date. */
export function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The past `days` days up to today (today counts as one). */
export function pastDays(days: number, today = new Date()): { from: string; to: string } {
  const from = new Date(today);
  from.setDate(from.getDate() - (days - 1));
  return { from: ymd(from), to: ymd(today) };
}

const STATUS_TONE: Record<TRecord['status'], string> = { posted: 'ok', pending: 'wait', voided: 'bad' };

/** Member centre `transactionHistory` (module TRANSREC3): the account record by date range, paged. */
export function RecordsPanel() {
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const [range, setRange] = useState(() => pastDays(7));
  const [draft, setDraft] = useState(range);
  const [page, setPage] = useState(1);
  const q = useRecords({ ...range, pageNo: page, pageSize: PAGE_SIZE });
  const rows = q.data?.list ?? [];
  const apply = (r: { from: string; to: string }) => {
    const ordered = r.from <= r.to ? r : { from: r.to, to: r.from };
    setDraft(ordered);
    setRange(ordered);
    setPage(1);
  };
  const active = SHORTCUTS.find((d) => {
    const p = pastDays(d);
    return p.from === range.from && p.to === range.to;
  });

  return (
    <div className="mc-stack" data-testid="records-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('records_title')}</h1>
        <div className="cx-head">
          <div className="cx-chips">
            {SHORTCUTS.map((d) => (
              <button key={d} type="button" className="cx-chip" aria-pressed={active === d} onClick={() => apply(pastDays(d))} data-testid={`records-past-${d}`}>
                {t('records_past_days', { count: d })}
              </button>
            ))}
          </div>
        </div>
        <form
          className="records-range"
          onSubmit={(e) => {
            e.preventDefault();
            apply(draft);
          }}
        >
          <label className="form-field">
            <span className="form-field__label">{t('records_from')}</span>
            <input type="date" className="form-field__input" value={draft.from} max={draft.to} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} data-testid="records-from" />
          </label>
          <label className="form-field">
            <span className="form-field__label">{t('records_to')}</span>
            <input type="date" className="form-field__input" value={draft.to} min={draft.from} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} data-testid="records-to" />
          </label>
          <button type="submit" className="btn btn--primary" disabled={!draft.from || !draft.to} data-testid="records-search">
            {t('search')}
          </button>
        </form>
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
                  <td data-label={t('col_kind')}>{t(`record_kind_${r.kind}`, { defaultValue: r.kind })}</td>
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
