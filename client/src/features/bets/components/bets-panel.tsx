import { useMemo, useState } from 'react';
import { useVendorName } from '../../../lib/vendor-names';
import { useTranslation } from 'react-i18next';
import type { TBet } from '@portal/contracts/api/bets';
import { errorMessage } from '../../../lib/field-message';
import { amountToneClass, useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useBets } from '../api/get-bets';
import { useGameVendors } from '../../games/api/get-game-vendors';
import { useDateRange } from '../../../lib/date-range';
import { DateRangeFilter } from '../../../ui/date-range-filter';
import { useRecordsRefresh } from '../../../lib/records-refresh';
import '../../../ui/cashier.css';

const PAGE_SIZE = 20;
const RECORDS_KEY = ['records', 'bets'] as const;

const STATUS_TONE: Record<TBet['status'], string> = { settled: 'ok', open: 'wait', rolled_back: 'bad' };

/** Member centre `personalHistoryCopy` (module TRANSBETREPMEM3): each bet with game, stake, win and time. */
export function BetsPanel() {
  const formatDateTime = useDateTime();
  const { t } = useTranslation('bets');
  const vendorName = useVendorName();
  const money = useMoney();
  const [page, setPage] = useState(1);
  const refresh = useRecordsRefresh(RECORDS_KEY);
  const { range, draft, setDraft, apply, active } = useDateRange(7, () => {
    setPage(1);
    refresh();
  });
  const [vendor, setVendor] = useState('');
  const lanes = useGameVendors().data;
  // Each provider once, by name; one that serves several game types under several names (the
  // house: Lucky Slots, Lucky Live...) shows them all.
  const providers = useMemo(() => {
    const byCode = new Map<string, Set<string>>();
    for (const lane of lanes ?? []) for (const v of lane.vendors) byCode.set(v.vassalage, (byCode.get(v.vassalage) ?? new Set()).add(v.displayName));
    return [...byCode].map(([code, names]): [string, string] => [code, [...names].sort().join(' · ')]).sort((a, b) => a[1].localeCompare(b[1]));
  }, [lanes]);
  const q = useBets({ ...range, pageNo: page, pageSize: PAGE_SIZE, ...(vendor ? { vendor } : {}) });
  const rows = q.data?.list ?? [];

  return (
    <div className="mc-stack" data-testid="bets-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('title')}</h1>
        <DateRangeFilter
          draft={draft} setDraft={setDraft} apply={apply} active={active} testId="bets"
          labels={{ pastDays: (count) => t('past_days', { count }), from: t('from'), to: t('to'), search: t('search') }}
        >
          <label className="form-field">
            <span className="form-field__label">{t('provider')}</span>
            <select
              className="form-field__select" value={vendor} data-testid="bets-vendor"
              onChange={(e) => {
                setVendor(e.target.value);
                setPage(1);
              }}
            >
              <option value="">{t('all_providers')}</option>
              {providers.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
            </select>
          </label>
        </DateRangeFilter>
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
                  {/* The provider under the game: many share a name (Ocean King, Baccarat, Tongits). */}
                  <td data-label={t('col_game')}>
                    {b.gameName ?? b.gameCode ?? vendorName(b.vendor, b.gameType)}
                    <div className="cx-muted" data-testid="bets-row-provider">{b.gameName ?? b.gameCode ? `${vendorName(b.vendor, b.gameType)} · ${b.roundId}` : b.roundId}</div>
                  </td>
                  <td data-label={t('col_stake')} className="cx-num">{money(b.stake)}</td>
                  <td data-label={t('col_win')} className={`cx-num cx-amount ${amountToneClass(b.win)}`}>{money(b.win)}</td>
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
