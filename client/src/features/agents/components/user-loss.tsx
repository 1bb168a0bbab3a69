import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useMoney, amountToneClass } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useTeamPnl } from '../api/get-team-pnl';
import { TeamBreadcrumb } from './breadcrumb';
import { ReportRangeFilter } from './report-range-filter';
import { useReportRange } from './report-range';

const PAGE_SIZE = 20;
type Figures = { validBets: number; betCount: number; payout: number; profitLoss: number; deposits: number; withdrawals: number };

/** User loss (P&L statements): per direct downline, each line its whole team; drill into a downline's team. */
export function UserLossScreen() {
  const { t } = useTranslation('agent-office');
  const money = useMoney();
  const [page, setPage] = useState(1);
  const [parentId, setParentId] = useState<number | undefined>(undefined);
  const r = useReportRange(1, () => setPage(1));
  const q = useTeamPnl({ ...r.range, ...(parentId ? { parentId } : {}), pageNo: page, pageSize: PAGE_SIZE });
  const drill = (id: number | undefined) => {
    setParentId(id);
    setPage(1);
  };
  const cells = (f: Figures) => (
    <>
      <td data-label={t('pnl.valid_bets')} className="cx-num">{money(f.validBets)}</td>
      <td data-label={t('pnl.bet_count')} className="cx-num">{f.betCount}</td>
      <td data-label={t('pnl.payout')} className="cx-num">{money(f.payout)}</td>
      <td data-label={t('pnl.profit_loss')} className={`cx-num cx-amount ${amountToneClass(f.profitLoss)}`}>{money(f.profitLoss)}</td>
      <td data-label={t('overview.deposits')} className="cx-num">{money(f.deposits)}</td>
      <td data-label={t('overview.withdrawals')} className="cx-num">{money(f.withdrawals)}</td>
    </>
  );
  const d = q.data;
  return (
    <div className="mc-stack" data-testid="ao-user-loss">
      <div className="mc-card">
        <h1 className="mc-title">{t('item.palStatementsAgentCopy')}</h1>
        <ReportRangeFilter {...r} testId="ao-pnl" />
        {d && <TeamBreadcrumb path={d.path} onPick={(id, i) => drill(i === 0 ? undefined : id)} testId="ao-pnl-crumbs" />}
        <p className="cx-muted">{t('pnl.hint')}</p>
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table" data-testid="ao-pnl-list">
            <thead>
              <tr>
                <th>{t('col.account')}</th>
                <th className="cx-num">{t('pnl.valid_bets')}</th>
                <th className="cx-num">{t('pnl.bet_count')}</th>
                <th className="cx-num">{t('pnl.payout')}</th>
                <th className="cx-num">{t('pnl.profit_loss')}</th>
                <th className="cx-num">{t('overview.deposits')}</th>
                <th className="cx-num">{t('overview.withdrawals')}</th>
              </tr>
            </thead>
            <tbody>
              {d && (
                <tr className="ao-row--self" data-testid="ao-pnl-self">
                  <td data-label={t('col.account')}>{t('pnl.self', { account: d.parent.account })}</td>
                  {cells(d.self)}
                </tr>
              )}
              {(d?.list ?? []).map((l) => (
                <tr key={l.id} data-testid={`ao-pnl-${l.account}`}>
                  <td data-label={t('col.account')}>
                    {l.teamSize > 0 ? (
                      <button type="button" className="ao-crumbs__link" onClick={() => drill(l.id)} data-testid={`ao-pnl-drill-${l.account}`}>{l.account}</button>
                    ) : (
                      l.account
                    )}
                    {l.teamSize > 0 && <span className="cx-muted"> {t('pnl.team_of', { count: l.teamSize })}</span>}
                  </td>
                  {cells(l)}
                </tr>
              ))}
            </tbody>
            {d && (
              <tfoot>
                <tr className="ao-row--total" data-testid="ao-pnl-totals">
                  <th scope="row">{t('pnl.totals')}</th>
                  {cells(d.totals)}
                </tr>
              </tfoot>
            )}
          </table>
        </div>
        <Pager page={page} pages={pagesOf(d)} onPage={setPage} prefix="ao-pnl" />
      </div>
    </div>
  );
}
