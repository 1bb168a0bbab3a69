import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYOUT_STATUSES, type PayoutStatus } from '@portal/contracts/api/agent-payouts';
import { useAmount } from '../../../lib/use-money';
import { useAgentPayouts } from '../api/agents';
import { useOpsTime } from '../lib/format';
import { AccountFilterEnd, ContractKindFilter, OptionFilter, isContractKind, useFilterParams } from './agent-filters';
import { ErrorNote, ListTable, Money, PageHead, Pager, StatusChip, type ChipTone } from './ops-ui';

const PAGE_SIZE = 50;
const TONE: Record<PayoutStatus, ChipTone> = { paid: 'success', nothing: 'muted', adjusted: 'success', unfunded: 'danger' };
const isStatus = (v: string | null): v is PayoutStatus => v !== null && (PAYOUT_STATUSES as readonly string[]).includes(v);

/**
 * /ops/agent-payouts: every contract payout of the merchant, newest period first, by status, kind and the
 * payee's or payer's account. An unfunded payout (its paying agent could not fund it) shows here before
 * anyone disputes it; the disputes page settles it.
 */
export function AgentPayoutsPage() {
  const formatAmount = useAmount();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [pageNo, setPageNo] = useState(1);
  const [params, set] = useFilterParams(() => setPageNo(1));
  const kind = params.get('kind');
  const status = params.get('status');
  const account = params.get('account')?.trim() || undefined;
  const [accountInput, setAccountInput] = useState(account ?? '');
  const list = useAgentPayouts({
    pageNo, pageSize: PAGE_SIZE,
    ...(isContractKind(kind) ? { kind } : {}), ...(isStatus(status) ? { status } : {}), ...(account ? { account } : {}),
  });
  const rows = list.data?.list ?? [];

  return (
    <section className="ops-page" data-testid="ops-agent-payouts-page">
      <PageHead title={t('nav_agent_payouts')} />
      <p className="ops-note ops-note--info">{t('payouts_intro')}</p>
      <form
        className="ops-filters"
        onSubmit={(e) => {
          e.preventDefault();
          set({ account: accountInput.trim() });
        }}
      >
        <ContractKindFilter value={kind} onChange={(v) => set({ kind: v })} testId="ops-payouts-filter-kind" />
        <OptionFilter label={t('col_status')} options={PAYOUT_STATUSES} prefix="payout_status_" value={status} onChange={(v) => set({ status: v })} testId="ops-payouts-filter-status" />
        <AccountFilterEnd
          value={accountInput}
          onChange={setAccountInput}
          testPrefix="ops-payouts-filter"
          onClear={() => {
            setAccountInput('');
            set({ kind: '', status: '', account: '' });
          }}
        />
      </form>
      <ErrorNote error={list.error} testId="ops-payouts-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('payouts_empty')}
        columns={[
          { label: t('col_id') },
          { label: t('contracts_col_kind') },
          { label: t('disputes_col_period') },
          { label: t('contracts_col_payee') },
          { label: t('contracts_col_payer') },
          { label: t('payouts_col_amount'), className: 'num' },
          { label: t('col_status') },
          { label: t('payouts_col_settled') },
        ]}
        row={(p) => (
          <tr key={p.id} data-testid={`ops-payout-row-${p.id}`} data-status={p.status}>
            <td className="mono">{p.id}</td>
            <td>
              {t(`contract_kind_${p.kind}`)}
              <span className="ops-sub">{t('payouts_contract', { id: p.contractId })}</span>
            </td>
            <td className="mono nowrap">{p.periodKey}</td>
            <td>
              <span className="strong">{p.payeeAccount}</span>
              <span className="ops-sub">#{p.payeeId}</span>
            </td>
            <td>{p.payerAccount === null ? <StatusChip tone="success">{t('contracts_payer_house')}</StatusChip> : <span className="strong">{p.payerAccount}</span>}</td>
            <td className="num">
              <span className="strong"><Money minor={p.amount} /></span>
              {p.adjustedAmount > 0 && <span className="ops-sub">{t('payouts_adjusted', { amount: formatAmount(p.adjustedAmount) })}</span>}
              {(p.carryIn < 0 || p.carryOver < 0) && (
                <span className="ops-sub">{t('payouts_carry', { in: formatAmount(p.carryIn), out: formatAmount(p.carryOver) })}</span>
              )}
            </td>
            <td>
              <StatusChip tone={TONE[p.status]} testId={`ops-payout-status-${p.id}`}>{t(`payout_status_${p.status}`)}</StatusChip>
              {p.disputeStatus && <span className="ops-sub">{t('payouts_dispute', { status: t(`dispute_status_${p.disputeStatus}`) })}</span>}
            </td>
            <td className="nowrap">{formatDateTime(p.settledAt)}</td>
          </tr>
        )}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-payouts-pager" />}
    </section>
  );
}
