import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { DISPUTE_STATUSES, type DisputeStatus } from '@portal/contracts/api/agent-payouts';
import { toMajorInput } from '@portal/contracts/domain/money';
import { useAmount, useCurrency, useMoneyExample } from '../../../lib/use-money';
import { Modal } from '../../../ui/modal';
import { useAgentDisputes, useResolveDispute, type TOpsDispute } from '../api/agents';
import { useOpsTime } from '../lib/format';
import { parsePesos } from '../lib/money-input';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, Money, OpsField, PageHead, Pager, StatusChip, SuccessNote, Tabs, type ChipTone } from './ops-ui';

const PAGE_SIZE = 50;
const TONE: Record<DisputeStatus, ChipTone> = { open: 'warn', rejected: 'muted', adjusted: 'success' };
const isStatus = (v: string | null): v is DisputeStatus => v !== null && (DISPUTE_STATUSES as readonly string[]).includes(v);

/** /ops/agent-disputes: agents' disputes of a payout, resolved by rejecting or paying an adjustment to the payee. */
export function AgentDisputesPage() {
  const formatAmount = useAmount();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const sp = params.get('status');
  const status: DisputeStatus = isStatus(sp) ? sp : 'open';
  const [pageNo, setPageNo] = useState(1);
  const list = useAgentDisputes({ status, pageNo, pageSize: PAGE_SIZE });
  const canAct = useOpsCan('disputes.resolve');
  const [resolving, setResolving] = useState<TOpsDispute | null>(null);
  const [flash, setFlash] = useState('');
  const rows = list.data?.list ?? [];

  return (
    <section className="ops-page" data-testid="ops-agent-disputes-page">
      <PageHead title={t('nav_agent_disputes')}>
        <Tabs
          value={status}
          label={t('filter_status')}
          testPrefix="ops-disputes-tab"
          onChange={(v) => {
            setPageNo(1);
            setFlash('');
            setParams({ status: v }, { replace: true });
          }}
          options={DISPUTE_STATUSES.map((v) => ({ value: v, label: t(`dispute_status_${v}`) }))}
        />
      </PageHead>
      {!canAct && <p className="ops-note ops-note--info" data-testid="ops-admin-only">{t('admin_only')}</p>}
      <SuccessNote>{flash}</SuccessNote>
      <ErrorNote error={list.error} testId="ops-disputes-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('disputes_empty')}
        columns={[
          { label: t('col_id') },
          { label: t('col_created_at') },
          { label: t('col_member') },
          { label: t('contracts_col_kind') },
          { label: t('disputes_col_period') },
          { label: t('disputes_col_payout'), className: 'num' },
          { label: t('field_reason') },
          { label: t('disputes_col_resolution') },
          { label: t('col_actions'), className: 'ops-table__actions' },
        ]}
        row={(d) => (
          <tr key={d.id} data-testid={`ops-dispute-row-${d.id}`} data-status={d.status}>
            <td className="mono">{d.id}</td>
            <td className="nowrap">{formatDateTime(d.createdAt)}</td>
            <td>
              <span className="strong">{d.account}</span>
              <span className="ops-sub">#{d.memberId}</span>
            </td>
            <td>{t(`contract_kind_${d.kind}`)}</td>
            <td className="mono">{d.periodKey}</td>
            <td className="num">
              <Money minor={d.payoutAmount} />
              <span className="ops-sub">{t('disputes_payout_id', { id: d.payoutId })}</span>
              <span className="ops-sub" data-testid={`ops-dispute-payout-status-${d.id}`}>
                {t(`payout_status_${d.payoutStatus}`)} · {d.payerAccount ?? t('disputes_house')}
              </span>
              {d.owedByPayer > 0 && <span className="ops-sub">{t('disputes_owed', { amount: formatAmount(d.owedByPayer), account: d.payerAccount ?? '' })}</span>}
            </td>
            <td className="ops-details">{d.reason}</td>
            <td>
              <StatusChip tone={TONE[d.status]} testId={`ops-dispute-status-${d.id}`}>
                {t(`dispute_status_${d.status}`)}
              </StatusChip>
              {d.adjustment !== null && <span className="ops-sub">{t('disputes_adjustment', { amount: formatAmount(d.adjustment) })}</span>}
              {(d.adjustmentFromPayer ?? 0) > 0 && (
                <span className="ops-sub" data-testid={`ops-dispute-split-${d.id}`}>
                  {t('disputes_split', { payer: formatAmount(d.adjustmentFromPayer ?? 0), account: d.payerAccount ?? '', house: formatAmount(d.adjustmentFromHouse ?? 0) })}
                </span>
              )}
              {d.resolutionNote && <span className="ops-sub">{d.resolutionNote}</span>}
              {d.resolvedAt && <span className="ops-sub">{t('disputes_resolved_by', { at: formatDateTime(d.resolvedAt), by: d.resolvedBy ?? '—' })}</span>}
            </td>
            <td className="ops-table__actions">
              {canAct && d.status === 'open' && (
                <button type="button" className="ops-btn ops-btn--sm ops-btn--primary" onClick={() => { setFlash(''); setResolving(d); }} data-testid={`ops-dispute-resolve-${d.id}`}>
                  {t('disputes_resolve')}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-disputes-pager" />}
      {resolving && (
        <ResolveDialog
          dispute={resolving}
          onClose={() => setResolving(null)}
          onDone={(d) => {
            setResolving(null);
            setFlash(t('flash_dispute', { id: d.id, status: t(`dispute_status_${d.status}`) }));
          }}
        />
      )}
    </section>
  );
}

/** Reject, or pay an adjustment (pesos) to the payee; a note either way. */
function ResolveDialog({ dispute, onClose, onDone }: { dispute: TOpsDispute; onClose: () => void; onDone: (d: TOpsDispute) => void }) {
  const formatAmount = useAmount();
  const example = useMoneyExample();
  const { exponent, code: currency } = useCurrency();
  const { t } = useTranslation('ops');
  const resolve = useResolveDispute();
  const [decision, setDecision] = useState<'rejected' | 'adjusted'>('rejected');
  const [amountText, setAmountText] = useState('');
  const [note, setNote] = useState('');
  const [isTried, setTried] = useState(false);
  const amount = parsePesos(amountText, { exponent });
  const problems = { amount: decision === 'adjusted' && amount === null, note: note.trim().length === 0 };
  const busy = resolve.isPending;

  return (
    <Modal name="opsDisputeModal" open onClose={busy ? () => undefined : onClose} title={t('disputes_resolve_title', { id: dispute.id })} width={460} className="ops-dialog">
      <form
        className="ops-dialog__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (problems.amount || problems.note || busy) return;
          const body = decision === 'adjusted' && amount !== null ? { decision, amount, note: note.trim() } : { decision: 'rejected' as const, note: note.trim() };
          resolve.mutate({ id: dispute.id, body }, { onSuccess: onDone });
        }}
      >
        <dl className="ops-kv ops-dialog__summary">
          <dt>{t('col_member')}</dt>
          <dd className="strong">{dispute.account}</dd>
          <dt>{t('contracts_col_kind')}</dt>
          <dd>
            {t(`contract_kind_${dispute.kind}`)} · <span className="mono">{dispute.periodKey}</span>
          </dd>
          <dt>{t('disputes_col_payout')}</dt>
          <dd>
            {formatAmount(dispute.payoutAmount)} · {t(`payout_status_${dispute.payoutStatus}`)} · {dispute.payerAccount ?? t('disputes_house')}
          </dd>
          <dt>{t('field_reason')}</dt>
          <dd>{dispute.reason}</dd>
        </dl>
        <div className="ops-tabs" role="radiogroup" aria-label={t('disputes_decision')}>
          {(['rejected', 'adjusted'] as const).map((v) => (
            <button key={v} type="button" role="radio" aria-checked={decision === v} className={`ops-tab${decision === v ? ' is-active' : ''}`} onClick={() => setDecision(v)} data-testid={`ops-dispute-decision-${v}`}>
              {t(`disputes_decide_${v}`)}
            </button>
          ))}
        </div>
        {decision === 'adjusted' && (
          <OpsField
            label={t('disputes_amount', { currency })}
            value={amountText}
            onChange={setAmountText}
            testId="ops-dispute-amount"
            required
            inputMode="decimal"
            placeholder={toMajorInput(0, exponent)}
            invalid={isTried && problems.amount}
            hint={amount !== null ? t('disputes_amount_preview', { amount: formatAmount(amount), account: dispute.account }) : t('disputes_amount_hint', { example: example(150_00) })}
          />
        )}
        {decision === 'adjusted' && dispute.owedByPayer > 0 && (
          <p className="ops-note ops-note--info" data-testid="ops-dispute-charged">
            {t('disputes_charged_to_payer', { owed: formatAmount(dispute.owedByPayer), account: dispute.payerAccount ?? '' })}
          </p>
        )}
        <OpsField label={t('field_note')} value={note} onChange={setNote} testId="ops-dispute-note" required multiline maxLength={500} invalid={isTried && problems.note} />
        <ErrorNote error={resolve.error} testId="ops-dispute-error" />
        <div className="ops-form__actions">
          <button type="button" className="ops-btn ops-btn--ghost" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </button>
          <button type="submit" className={`ops-btn ${decision === 'adjusted' ? 'ops-btn--primary' : 'ops-btn--danger'}`} disabled={busy} data-testid="ops-dispute-submit">
            {busy ? t('working') : t(`disputes_decide_${decision}`)}
          </button>
        </div>
      </form>
    </Modal>
  );
}
