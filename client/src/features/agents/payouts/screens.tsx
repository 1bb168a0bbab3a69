import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { agentPayoutCalls } from '@portal/contracts/api/agent-payouts';
import type { ContractKind } from '@portal/contracts/domain/agent-contracts';
import { call } from '../../../lib/api';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { ReportRangeFilter } from '../components/report-range-filter';
import { useReportRange } from '../components/report-range';

/*
 * PLACEHOLDER written by ag-office so the agent centre's five payout items show real data: my
 * income (GET /wps/agent/income) and the payouts received of one kind (GET /wps/agent/payouts).
 * ag-contracts-ui owns this file and replaces it (statement view, dispute, paid to downlines).
 */

/** My income (agentRevenueReport): received, paid and net per contract kind over a range. */
export function IncomeScreen() {
  const { t } = useTranslation('agent-office');
  const money = useMoney();
  const r = useReportRange(30);
  const q = useQuery({
    queryKey: ['agent', 'payouts', 'income', r.range.from, r.range.to],
    queryFn: ({ signal }) => call(agentPayoutCalls.income, { query: r.range, signal }),
    placeholderData: keepPreviousData,
  });
  const d = q.data;
  return (
    <div className="mc-stack" data-testid="ao-income">
      <div className="mc-card">
        <h1 className="mc-title">{t('item.agentRevenueReport')}</h1>
        <ReportRangeFilter {...r} testId="ao-income" />
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table">
            <thead>
              <tr>
                <th>{t('contracts.kind')}</th>
                <th className="cx-num">{t('income.received')}</th>
                <th className="cx-num">{t('income.paid')}</th>
                <th className="cx-num">{t('income.net')}</th>
              </tr>
            </thead>
            <tbody>
              {(d?.kinds ?? []).map((k) => (
                <tr key={k.kind}>
                  <td data-label={t('contracts.kind')}>{t(`kind.${k.kind}`)}</td>
                  <td data-label={t('income.received')} className="cx-num">{money(k.received)}</td>
                  <td data-label={t('income.paid')} className="cx-num">{money(k.paid)}</td>
                  <td data-label={t('income.net')} className="cx-num">{money(k.net)}</td>
                </tr>
              ))}
            </tbody>
            {d && (
              <tfoot>
                <tr className="ao-row--total">
                  <th scope="row">{t('pnl.totals')}</th>
                  <td className="cx-num">{money(d.totals.received)}</td>
                  <td className="cx-num">{money(d.totals.paid)}</td>
                  <td className="cx-num">{money(d.totals.net)}</td>
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      </div>
    </div>
  );
}

const ITEM_OF: Record<ContractKind, string> = {
  dividend: 'agentDividendRecordCopy2',
  dailyWages: 'agentDailyWages2',
  hourlySalary: 'agentHourSalary',
  realtimeSalary: 'agentRealtimeSalary',
};

/** Dividend record, daily wages, hourly and real-time salary: the payouts of one kind received. */
export function PayoutRecordScreen({ kind }: { kind: ContractKind }) {
  const { t } = useTranslation('agent-office');
  const money = useMoney();
  const dateTime = useDateTime();
  const [page, setPage] = useState(1);
  const r = useReportRange(30, () => setPage(1));
  const q = useQuery({
    queryKey: ['agent', 'payouts', 'list', kind, r.range.from, r.range.to, page],
    queryFn: ({ signal }) => call(agentPayoutCalls.list, { query: { kind, role: 'received', ...r.range, pageNo: page, pageSize: 20 }, signal }),
    placeholderData: keepPreviousData,
  });
  const rows = q.data?.list ?? [];
  return (
    <div className="mc-stack" data-testid={`ao-payouts-${kind}`}>
      <div className="mc-card">
        <h1 className="mc-title">{t(`item.${ITEM_OF[kind]}`)}</h1>
        <ReportRangeFilter {...r} testId="ao-payouts" />
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table">
            <thead>
              <tr>
                <th>{t('income.period')}</th>
                <th>{t('income.payer')}</th>
                <th className="cx-num">{t('trans.amount')}</th>
                <th>{t('col.status')}</th>
                <th>{t('income.settled')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.id}>
                  <td data-label={t('income.period')}>{p.periodKey}</td>
                  <td data-label={t('income.payer')}>{p.payerAccount ?? t('income.house')}</td>
                  <td data-label={t('trans.amount')} className="cx-num">{money(p.amount + p.adjustedAmount)}</td>
                  <td data-label={t('col.status')}>{t(`income.status_${p.status}`)}</td>
                  <td data-label={t('income.settled')}>{dateTime(p.settledAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
        </div>
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="ao-payouts" />
      </div>
    </div>
  );
}
