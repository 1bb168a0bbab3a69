import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIRST_DAY } from '@portal/contracts/api/instant';
import { PROFIT_PERIODS } from '@portal/contracts/api/profit';
import { errorMessage } from '../../../lib/field-message';
import { useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { useProfit, type ProfitQuery } from '../api/get-profit';
import '../../../ui/cashier.css';
import './profit.css';
import { searchedRange } from '../../../lib/date-range';

type Period = (typeof PROFIT_PERIODS)[number];
const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

/** Member centre `personalProfit`: the member's own result per period and game type, with totals. */
export function ProfitPanel() {
  const { t } = useTranslation('pages');
  const money = useMoney();
  const [period, setPeriod] = useState<Period>('today');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // At most 90 days (the server refuses more): say so instead of sending a range that comes back "invalid".
  const isTooLong = isDay(from) && isDay(to) && from <= to && searchedRange({ from, to }).from !== from;
  const customReady = isDay(from) && isDay(to) && from <= to && !isTooLong;
  const query: ProfitQuery = period === 'custom' ? { period, from, to } : { period };
  const q = useProfit(query, period !== 'custom' || customReady);
  const v = q.data;
  const signed = (n: number) => <span className={n > 0 ? 'pf-up' : n < 0 ? 'pf-down' : undefined}>{n > 0 ? '+' : ''}{money(n)}</span>;
  return (
    <div className="mc-stack" data-testid="profit-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('profit_title')}</h1>
        <p className="cx-muted">{t('profit_intro')}</p>
        <div className="pf-tabs" role="tablist" aria-label={t('profit_period')}>
          {PROFIT_PERIODS.map((p) => (
            <button key={p} type="button" role="tab" aria-selected={period === p} className={`pf-tab${period === p ? ' is-active' : ''}`} onClick={() => setPeriod(p)} data-testid={`profit-period-${p}`}>
              {t(`profit_period_${p}`)}
            </button>
          ))}
        </div>
        {period === 'custom' && (
          <div className="pf-custom">
            <label>{t('profit_from')} <input type="date" value={from} min={FIRST_DAY} max={to || undefined} onChange={(e) => setFrom(e.target.value)} data-testid="profit-from" /></label>
            <label>{t('profit_to')} <input type="date" value={to} min={from || FIRST_DAY} onChange={(e) => setTo(e.target.value)} data-testid="profit-to" /></label>
            {!customReady && <span className={isTooLong ? 'pf-warn' : 'cx-muted'} role={isTooLong ? 'alert' : undefined} data-testid="profit-custom-hint">{t(isTooLong ? 'profit_too_long' : 'profit_custom_hint')}</span>}
          </div>
        )}
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        {v && (
          <>
            <dl className="pf-totals" data-testid="profit-totals">
              <div><dt>{t('profit_valid_bets')}</dt><dd>{money(v.totals.validBets)}</dd></div>
              <div><dt>{t('profit_payout')}</dt><dd>{money(v.totals.payout)}</dd></div>
              <div><dt>{t('profit_result')}</dt><dd data-testid="profit-total">{signed(v.totals.profit)}</dd></div>
            </dl>
            {v.rows.length === 0 ? (
              <p className="cx-empty" data-testid="profit-empty">{t('profit_none')}</p>
            ) : (
              <div className="ref-table-box">
                <table className="pf-table" data-testid="profit-table">
                  <thead>
                    <tr>
                      <th>{t('profit_col_type')}</th>
                      <th className="num pf-opt">{t('profit_col_bets')}</th>
                      <th className="num">{t('profit_valid_bets')}</th>
                      <th className="num pf-opt">{t('profit_payout')}</th>
                      <th className="num">{t('profit_result')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {v.rows.map((r) => (
                      <tr key={r.gameType ?? 'other'} data-testid={`profit-row-${r.gameType ?? 'other'}`}>
                        <td>{r.gameType ? t(`home:gameType.${r.gameType}`, { defaultValue: r.gameType }) : t('profit_type_other')}</td>
                        <td className="num pf-opt">{r.betCount}</td>
                        <td className="num">{money(r.validBets)}</td>
                        <td className="num pf-opt">{money(r.payout)}</td>
                        <td className="num">{signed(r.profit)}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th>{t('profit_total')}</th>
                      <th className="num pf-opt">{v.totals.betCount}</th>
                      <th className="num">{money(v.totals.validBets)}</th>
                      <th className="num pf-opt">{money(v.totals.payout)}</th>
                      <th className="num">{signed(v.totals.profit)}</th>
                    </tr>
                  </tfoot>
                </table>
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}
