import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TBet } from '@portal/contracts/api/bets';
import { errorMessage } from '../../../lib/field-message';
import { formatDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useBets } from '../api/get-bets';
import '../../../ui/cashier.css';

const PAGE_SIZE = 20;
const SHORTCUTS = [7, 30] as const;

const ymd = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** The past `days` days up to today (today counts as one). */
export function pastDays(days: number, today = new Date()): { from: string; to: string } {
  const from = new Date(today);
  from.setDate(from.getDate() - (days - 1));
  return { from: ymd(from), to: ymd(today) };
}

const STATUS_TONE: Record<TBet['status'], string> = { settled: 'ok', open: 'wait', rolled_back: 'bad' };

/** Member centre `personalHistoryCopy` (module TRANSBETREPMEM3): each bet with game, stake, win and time. */
export function BetsPanel() {
  const { t } = useTranslation('bets');
  const money = useMoney();
  const [range, setRange] = useState(() => pastDays(7));
  const [draft, setDraft] = useState(range);
  const [page, setPage] = useState(1);
  const q = useBets({ ...range, pageNo: page, pageSize: PAGE_SIZE });
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
    <div className="mc-stack" data-testid="bets-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('title')}</h1>
        <div className="cx-head">
          <div className="cx-chips">
            {SHORTCUTS.map((d) => (
              <button key={d} type="button" className="cx-chip" aria-pressed={active === d} onClick={() => apply(pastDays(d))} data-testid={`bets-past-${d}`}>
                {t('past_days', { count: d })}
              </button>
            ))}
          </div>
        </div>
        <form className="records-range" onSubmit={(e) => { e.preventDefault(); apply(draft); }}>
          <label className="form-field">
            <span className="form-field__label">{t('from')}</span>
            <input type="date" className="form-field__input" value={draft.from} max={draft.to} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} data-testid="bets-from" />
          </label>
          <label className="form-field">
            <span className="form-field__label">{t('to')}</span>
            <input type="date" className="form-field__input" value={draft.to} min={draft.from} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} data-testid="bets-to" />
          </label>
          <button type="submit" className="btn btn--primary" disabled={!draft.from || !draft.to} data-testid="bets-search">{t('search')}</button>
        </form>
        {q.data && (
          <p className="cx-muted" data-testid="bets-totals">
            {t('totals', { stake: money(q.data.totalStake), win: money(q.data.totalWin) })}
          </p>
        )}
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table" data-testid="bets-list">
            <thead>
              <tr>
                <th>{t('col_time')}</th>
                <th>{t('col_game')}</th>
                <th className="cx-num">{t('col_stake')}</th>
                <th className="cx-num">{t('col_win')}</th>
                <th>{t('col_status')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={`${b.vendor}:${b.roundId}`} data-testid={`bets-row-${b.roundId}`}>
                  <td data-label={t('col_time')}>{formatDateTime(b.time)}</td>
                  <td data-label={t('col_game')}>{b.gameName ?? b.gameCode ?? b.vendor}<div className="cx-muted">{b.roundId}</div></td>
                  <td data-label={t('col_stake')} className="cx-num">{money(b.stake)}</td>
                  <td data-label={t('col_win')} className={`cx-num cx-amount ${b.win > 0 ? 'cx-amount--in' : ''}`}>{money(b.win)}</td>
                  <td data-label={t('col_status')}><span className={`cx-pill cx-pill--${STATUS_TONE[b.status]}`}>{t(`status_${b.status}`)}</span></td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
        </div>
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="bets" />
      </div>
    </div>
  );
}
