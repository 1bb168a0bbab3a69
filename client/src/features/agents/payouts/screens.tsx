import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPayout, TPayoutStatement } from '@portal/contracts/api/agent-payouts';
import type { ContractKind } from '@portal/contracts/domain/agent-contracts';
import { errorKey } from '../../../lib/error-key';
import { useDateTime, useMoney, amountToneClass } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { ReportRangeFilter } from '../components/report-range-filter';
import { useReportRange } from '../components/report-range';
import { Modal } from '../../../ui/modal';
import { Pager, pagesOf } from '../../../ui/pager';
import { OFFER_TEXT_KEYS } from '../machines/contract-offer.machine';
import { percentOf } from '../contracts/api';
import { MyContractsScreen } from '../contracts/contract-list';
import { PAYOUTS_KEY, disputePayout, useIncome, usePayout, usePayouts } from './api';
import { stepText } from './statement-steps';
import { periodLabel } from './period-label';
import '../../../ui/cashier.css';
import '../contracts/contracts.css';

const PAGE_SIZE = 20;
const STATUS_TONE: Record<TPayout['status'], string> = { paid: 'cx-pill--ok', nothing: '', adjusted: 'cx-pill--act', unfunded: 'cx-pill--bad' };

/** A settlement pays through the wallet (balance.changed): the payout lists follow it live. */
function useLivePayouts() {
  const qc = useQueryClient();
  useRealtimeEvent('balance.changed', () => void qc.invalidateQueries({ queryKey: PAYOUTS_KEY }));
  useRealtimeEvent('contract.updated', () => void qc.invalidateQueries({ queryKey: PAYOUTS_KEY }));
}

/**
 * What a payout moved for one side, as My income counts it: its amount when it was funded, plus the
 * adjustments (the payer's part only, for the payer). An unfunded payout settled by an adjustment
 * counted its amount twice.
 */
export function movedOf(p: Pick<TPayout, 'amount' | 'funded' | 'adjustedAmount' | 'payerAdjustedAmount'>, role: 'received' | 'paid'): number {
  return (p.funded ? p.amount : 0) + (role === 'paid' ? p.payerAdjustedAmount : p.adjustedAmount);
}

/** The tabs of a payout record: payouts received, payouts paid to downlines, and the agent's own contracts of the kind. */
export const RECORD_VIEWS = ['received', 'paid', 'contracts'] as const;
export type RecordView = (typeof RECORD_VIEWS)[number];

/**
 * A payout record (Dividend record, Daily wages, Hourly salary, Real-time salary): what the agent
 * received (or paid its downlines) per period, by date range and paged; a row opens its statement.
 * Its "My contracts" tab lists the agent's contracts of the kind, with its upline (or the house) and
 * with its downlines: the spec's menus have no item of their own for them.
 */
export function PayoutRecordScreen({ kind, initialView = 'received' }: { kind: ContractKind; initialView?: RecordView }) {
  const { t } = useTranslation(['agents', 'common']);
  const [view, setView] = useState<RecordView>(initialView);
  // The page restarts at 1 on another tab or range; the range is kept across the received / paid tabs.
  const [page, setPage] = useState(1);
  // Today / past 7 / past 30 days on the merchant's calendar, as the other agent reports (past 7 by default).
  const range = useReportRange(7, () => setPage(1));
  return (
    <section className="ag-section" data-testid={`payout-record-${kind}`}>
      <h2>{t('payouts.recordTitle', { kind: t(OFFER_TEXT_KEYS.kind[kind]) })}</h2>
      <div className="ag-tabs" role="tablist">
        {RECORD_VIEWS.map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className={`btn btn--sm ${view === v ? 'btn--primary' : 'btn--ghost'}`} onClick={() => { setView(v); setPage(1); }} data-testid={v === 'contracts' ? 'payouts-my-contracts' : `payouts-role-${v}`}>
            {v === 'contracts' ? t('contracts.myTitle') : t(`payouts.role.${v}`)}
          </button>
        ))}
      </div>
      {view === 'contracts' ? <MyContractsScreen kind={kind} embedded /> : <PayoutList kind={kind} role={view} page={page} setPage={setPage} dateRange={range} />}
    </section>
  );
}

/** The payouts of a kind the agent received or paid, by date range and paged. */
function PayoutList({ kind, role, page, setPage, dateRange }: { kind: ContractKind; role: 'received' | 'paid'; page: number; setPage: (p: number) => void; dateRange: ReturnType<typeof useReportRange> }) {
  const { t } = useTranslation(['agents', 'common']);
  const money = useMoney();
  const dateTime = useDateTime();
  useLivePayouts();
  const { range } = dateRange;
  const q = usePayouts({ kind, role, from: range.from, to: range.to, pageNo: page, pageSize: PAGE_SIZE });
  const [openId, setOpenId] = useState<number | null>(null);
  return (
    <>
      <ReportRangeFilter {...dateRange} testId="payouts" />
      {q.isError && <p className="form-field__error" role="alert">{t(errorKey(q.error), { ns: 'common' })}</p>}
      {q.isPending ? (
        <p className="cx-muted">{t('payouts.loading')}</p>
      ) : q.data && q.data.list.length === 0 ? (
        <p className="cx-muted" data-testid="payouts-empty">{t('payouts.empty')}</p>
      ) : q.data ? (
        <>
          <div className="cx-table-wrap">
            <table className="cx-table" data-testid="payouts-list">
              <thead>
                <tr>
                  <th>{t('payouts.field.period')}</th>
                  <th>{role === 'received' ? t('payouts.field.payer') : t('payouts.field.payee')}</th>
                  <th>{t('payouts.field.amount')}</th>
                  {kind === 'dividend' && <th>{t('payouts.field.carryOver')}</th>}
                  <th>{t('payouts.field.status')}</th>
                  <th>{t('payouts.field.settledAt')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {q.data.list.map((p) => (
                  <tr key={p.id} data-testid="payout-row" data-payout-id={p.id}>
                    <td data-label={t('payouts.field.period')}>{periodLabel(t, p.periodKey)}</td>
                    <td data-label={role === 'received' ? t('payouts.field.payer') : t('payouts.field.payee')}>{role === 'received' ? (p.payerAccount ?? t('contracts.house')) : p.payeeAccount}</td>
                    <td data-label={t('payouts.field.amount')} className="cx-amount" data-testid="payout-amount">{money(movedOf(p, role))}</td>
                    {kind === 'dividend' && <td data-label={t('payouts.field.carryOver')}>{money(p.carryOver)}</td>}
                    <td data-label={t('payouts.field.status')}>
                      <span className={`cx-pill ${STATUS_TONE[p.status]}`}>{t(`payouts.status.${p.status}`)}</span>
                      {p.disputeStatus && <div className="cx-muted">{t(`payouts.dispute.status.${p.disputeStatus}`)}</div>}
                    </td>
                    <td data-label={t('payouts.field.settledAt')}>{dateTime(p.settledAt)}</td>
                    <td>
                      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpenId(p.id)} data-testid="payout-open">
                        {t('payouts.action.statement')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="payouts" />
        </>
      ) : null}
      {openId !== null && <StatementModal id={openId} canDispute={role === 'received'} onClose={() => setOpenId(null)} />}
    </>
  );
}

/** One payout's statement: the base per downline, the rate, each downline's share, carry-over and the arithmetic. */
export function StatementModal({ id, canDispute, onClose }: { id: number; canDispute: boolean; onClose: () => void }) {
  const { t } = useTranslation(['agents', 'common']);
  const q = usePayout(id);
  return (
    <Modal name="payoutStatementModal" open onClose={onClose} title={t('payouts.statement.title')} width={640}>
      <div className="ag-offer__body" data-testid="payout-statement">
        {q.isError ? (
          <p className="form-field__error" role="alert">{t(errorKey(q.error), { ns: 'common' })}</p>
        ) : q.isPending ? (
          <p className="cx-muted">{t('payouts.loading')}</p>
        ) : (
          <StatementDetails payout={q.data.payout} statement={q.data.statement} canDispute={canDispute} />
        )}
      </div>
    </Modal>
  );
}

/** The statement itself: its status, the terms and figures, each downline's line and the arithmetic. */
export function StatementDetails({ payout, statement: s, canDispute }: { payout: TPayout; statement: TPayoutStatement; canDispute: boolean }) {
  const { t } = useTranslation(['agents', 'common']);
  const money = useMoney();
  const baseKey = s.kind === 'dividend' ? 'payouts.statement.baseNetLoss' : 'payouts.statement.baseValidBets';
  return (
    <>
      <dl className="ag-terms">
        <dt>{t('payouts.field.status')}</dt>
        <dd data-testid="statement-status">
          <span className={`cx-pill ${STATUS_TONE[payout.status]}`}>{t(`payouts.status.${payout.status}`)}</span>
          {/* Not funded: the amount below is owed, but nothing moved (the list's row shows 0). */}
          {payout.status === 'unfunded' && <div className="cx-muted">{t('payouts.statement.unfundedNote', { amount: money(s.amount) })}</div>}
        </dd>
        <dt>{t('contracts.field.kind')}</dt>
        <dd>{t(OFFER_TEXT_KEYS.kind[s.kind])}</dd>
        <dt>{t('payouts.field.period')}</dt>
        <dd>{periodLabel(t, s.period.key)}</dd>
        <dt>{t(OFFER_TEXT_KEYS.rate)}</dt>
        <dd data-testid="statement-rate">{percentOf(s.rate)}{s.effectiveRate !== s.rate ? ` (${t('payouts.statement.effective', { rate: percentOf(s.effectiveRate) })})` : ''}</dd>
        <dt>{t(baseKey)}</dt>
        <dd data-testid="statement-base">{money(s.base)}</dd>
        <dt>{t('payouts.statement.conditions')}</dt>
        {/* The statement's own steps say whether the contract sets conditions (statementSteps, server). */}
        {s.steps.some((x) => x.code === 'noConditions') ? (
          <dd>{t('payouts.steps.noConditions')}</dd>
        ) : (
        <dd>
          {t('payouts.statement.conditionsLine', {
            active: s.conditions.activeMembers.actual, activeReq: s.conditions.activeMembers.required,
            bet: money(s.conditions.betAmount.actual), betReq: money(s.conditions.betAmount.required),
          })}{' '}
          {s.conditions.isMet ? t('contracts.whatIf.met') : t('contracts.whatIf.notMet')}
        </dd>
        )}
        {/* Carry-over is a dividend's: a salary's base (valid bets) is never negative. */}
        {s.kind === 'dividend' && (
          <>
            <dt>{t('payouts.statement.carryIn')}</dt>
            <dd>{s.carryOverEnabled ? money(s.carryIn) : t('payouts.statement.carryOff')}</dd>
            <dt>{t('payouts.statement.carryOut')}</dt>
            <dd>{s.carryOverEnabled ? money(s.carryOut) : t('payouts.statement.carryOff')}</dd>
          </>
        )}
        <dt>{t('payouts.field.amount')}</dt>
        <dd className="cx-amount" data-testid="statement-amount">{money(s.amount)}</dd>
        <dt>{t('payouts.statement.downlinesTook')}</dt>
        <dd>{money(s.downlinesTook)}</dd>
        <dt>{t('payouts.statement.kept')}</dt>
        <dd>{money(s.kept)}</dd>
        {payout.adjustedAmount > 0 && (
          <>
            <dt>{t('payouts.statement.adjusted')}</dt>
            <dd>{money(payout.adjustedAmount)}</dd>
          </>
        )}
      </dl>
      {s.anomaly && <p className="form-field__error">{t('payouts.statement.anomaly', { name: t(`payouts.anomalyName.${s.anomaly}`) })}</p>}
      <div className="cx-table-wrap">
        <table className="cx-table" data-testid="statement-lines">
          <thead>
            <tr>
              <th>{t('payouts.statement.member')}</th>
              <th>{t('payouts.statement.validBets')}</th>
              <th>{t('payouts.statement.profitLoss')}</th>
              <th>{t('payouts.statement.activeMembers')}</th>
              <th>{t('payouts.statement.downlineRate')}</th>
              <th>{t('payouts.statement.took')}</th>
            </tr>
          </thead>
          <tbody>
            {s.lines.map((l) => (
              <tr key={l.memberId}>
                <td data-label={t('payouts.statement.member')}>{l.isSelf ? t('payouts.statement.self', { account: l.account }) : l.account}</td>
                <td data-label={t('payouts.statement.validBets')}>{money(l.validBets)}</td>
                <td data-label={t('payouts.statement.profitLoss')}>{money(l.profitLoss)}</td>
                <td data-label={t('payouts.statement.activeMembers')}>{l.activeMembers}</td>
                <td data-label={t('payouts.statement.downlineRate')}>{l.rate === null ? '—' : percentOf(l.rate)}</td>
                <td data-label={t('payouts.statement.took')}>{money(l.took)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div>
        <strong>{t('payouts.statement.arithmetic')}</strong>
        <ol className="ag-steps" data-testid="statement-steps">
          {s.steps.map((step, i) => (
            <li key={i} data-step={step.code}>{stepText(t, step, money, s.anomaly)}</li>
          ))}
        </ol>
      </div>
      {canDispute && <DisputeForm payoutId={payout.id} disputeStatus={payout.disputeStatus} />}
    </>
  );
}

/** Dispute a payout with a reason (5 to 500 characters); one open dispute per payout. */
function DisputeForm({ payoutId, disputeStatus }: { payoutId: number; disputeStatus: TPayout['disputeStatus'] }) {
  const { t } = useTranslation(['agents', 'common']);
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const m = useMutation({
    mutationFn: () => disputePayout(payoutId, reason.trim()),
    onSettled: () => void qc.invalidateQueries({ queryKey: PAYOUTS_KEY }),
  });
  if (disputeStatus === 'open' || m.isSuccess) return <p className="cx-muted" data-testid="dispute-open">{t('payouts.dispute.status.open')}</p>;
  const len = reason.trim().length;
  return (
    <form className="ag-section" onSubmit={(e) => { e.preventDefault(); if (len >= 5 && len <= 500) m.mutate(); }} data-testid="dispute-form">
      <label className="form-field">
        <span className="form-field__label">{t('payouts.dispute.reason')}</span>
        <textarea className="form-field__input" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="dispute-reason" />
      </label>
      {len > 0 && len < 5 && <p className="form-field__error">{t('payouts.dispute.tooShort')}</p>}
      {m.isError && <p className="form-field__error" role="alert">{t(errorKey(m.error), { ns: 'common' })}</p>}
      <div className="ag-actions">
        <button type="submit" className="btn btn--primary btn--sm" disabled={len < 5 || m.isPending} data-testid="dispute-submit">{t('payouts.dispute.submit')}</button>
      </div>
    </form>
  );
}

/** My income: per kind what the agent received from its upline or the house, paid its downlines, and the net; per period below. */
export function IncomeScreen() {
  const { t } = useTranslation(['agents', 'common']);
  const money = useMoney();
  useLivePayouts();
  const dateRange = useReportRange(7);
  const q = useIncome(dateRange.range.from, dateRange.range.to);
  return (
    <section className="ag-section" data-testid="agent-income">
      <h2>{t('payouts.incomeTitle')}</h2>
      <ReportRangeFilter {...dateRange} testId="income" />
      {q.isError && <p className="form-field__error" role="alert">{t(errorKey(q.error), { ns: 'common' })}</p>}
      {q.isPending ? (
        <p className="cx-muted">{t('payouts.loading')}</p>
      ) : q.data ? (
        <>
          <div className="cx-table-wrap">
            <table className="cx-table" data-testid="income-kinds">
              <thead>
                <tr>
                  <th>{t('contracts.field.kind')}</th>
                  <th>{t('payouts.income.received')}</th>
                  <th>{t('payouts.income.paid')}</th>
                  <th>{t('payouts.income.net')}</th>
                </tr>
              </thead>
              <tbody>
                {q.data.kinds.map((k) => (
                  <tr key={k.kind}>
                    <td data-label={t('contracts.field.kind')}>{t(OFFER_TEXT_KEYS.kind[k.kind])}</td>
                    <td data-label={t('payouts.income.received')} className={`cx-amount ${amountToneClass(k.received)}`}>{money(k.received)}</td>
                    <td data-label={t('payouts.income.paid')} className={`cx-amount${k.paid > 0 ? ' cx-amount--out' : ''}`}>{money(k.paid)}</td>
                    <td data-label={t('payouts.income.net')} className="cx-amount">{money(k.net)}</td>
                  </tr>
                ))}
                <tr>
                  <td><strong>{t('payouts.field.total')}</strong></td>
                  <td data-label={t('payouts.income.received')} className="cx-amount" data-testid="income-total-received">{money(q.data.totals.received)}</td>
                  <td data-label={t('payouts.income.paid')} className="cx-amount">{money(q.data.totals.paid)}</td>
                  <td data-label={t('payouts.income.net')} className="cx-amount" data-testid="income-total-net">{money(q.data.totals.net)}</td>
                </tr>
              </tbody>
            </table>
          </div>
          {q.data.periods.length === 0 ? (
            <p className="cx-muted">{t('payouts.empty')}</p>
          ) : (
            <div className="cx-table-wrap">
              <table className="cx-table" data-testid="income-periods">
                <thead>
                  <tr>
                    <th>{t('payouts.field.period')}</th>
                    <th>{t('contracts.field.kind')}</th>
                    <th>{t('payouts.income.received')}</th>
                    <th>{t('payouts.income.paid')}</th>
                    <th>{t('payouts.income.net')}</th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.periods.map((p) => (
                    <tr key={`${p.kind}-${p.periodKey}`}>
                      <td data-label={t('payouts.field.period')}>{periodLabel(t, p.periodKey)}</td>
                      <td data-label={t('contracts.field.kind')}>{t(OFFER_TEXT_KEYS.kind[p.kind])}</td>
                      <td data-label={t('payouts.income.received')}>{money(p.received)}</td>
                      <td data-label={t('payouts.income.paid')}>{money(p.paid)}</td>
                      <td data-label={t('payouts.income.net')} className="cx-amount">{money(p.net)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}

