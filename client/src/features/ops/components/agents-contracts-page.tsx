import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { opsAgentCalls } from '@portal/contracts/api/ops-agents';
import { CONTRACT_STATUSES, type ContractKind, type ContractStatus } from '@portal/contracts/domain/agent-contracts';
import { useAmount, useCurrency } from '../../../lib/use-money';
import { ApiError } from '../../../lib/api';
import { useAgentContracts, useGrantHouseContract, useTerminateContract, type TAgentContract } from '../api/agents';
import { CONTRACT_KINDS, DIVIDEND_PERIOD_TYPES, EMPTY_TERMS, formatRate, periodOf, termsFromForm, type TermsForm } from '../lib/agent-terms';
import { useOpsTime } from '../lib/format';
import { opsCall } from '../lib/ops-api';
import { ActionDialog } from './action-dialog';
import { AccountFilterEnd, ContractKindFilter, OptionFilter, isContractKind, useFilterParams } from './agent-filters';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, OpsField, PageHead, Pager, StatusChip, SuccessNote, type ChipTone } from './ops-ui';

const PAGE_SIZE = 50;

export const CONTRACT_TONE: Record<ContractStatus, ChipTone> = {
  offered: 'warn',
  active: 'success',
  rejected: 'muted',
  withdrawn: 'muted',
  terminated: 'danger',
  ended: 'muted',
};

const isStatus = (v: string | null): v is ContractStatus => v !== null && (CONTRACT_STATUSES as readonly string[]).includes(v);
const isHouse = (v: string | null): v is 'true' | 'false' => v === 'true' || v === 'false';

/** /ops/agent-contracts: every contract of the merchant (filter, terminate) and the house contract form. */
export function AgentContractsPage() {
  const formatAmount = useAmount();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [pageNo, setPageNo] = useState(1);
  const [flash, setFlash] = useState('');
  const [params, set] = useFilterParams(() => {
    setPageNo(1);
    setFlash('');
  });
  const kind = params.get('kind');
  const status = params.get('status');
  const house = params.get('house');
  const account = params.get('account')?.trim() || undefined;
  const [accountInput, setAccountInput] = useState(account ?? '');
  const list = useAgentContracts({
    pageNo, pageSize: PAGE_SIZE,
    ...(isContractKind(kind) ? { kind } : {}), ...(isStatus(status) ? { status } : {}), ...(isHouse(house) ? { house } : {}), ...(account ? { account } : {}),
  });
  const isAdmin = useOpsCan('agents.manage');
  const terminate = useTerminateContract();
  const [ending, setEnding] = useState<TAgentContract | null>(null);
  const rows = list.data?.list ?? [];


  return (
    <section className="ops-page" data-testid="ops-agent-contracts-page">
      <PageHead title={t('nav_agent_contracts')} />
      {isAdmin ? (
        <GrantHouseContract initialAccount={params.get('grant') ?? ''} onDone={(c) => setFlash(t('flash_house_contract', { id: c.id, account: c.downlineAccount }))} />
      ) : (
        <p className="ops-note ops-note--info" data-testid="ops-admin-only">{t('admin_only')}</p>
      )}
      <form
        className="ops-filters"
        onSubmit={(e) => {
          e.preventDefault();
          set({ account: accountInput.trim() });
        }}
      >
        <ContractKindFilter value={kind} onChange={(v) => set({ kind: v })} testId="ops-contracts-filter-kind" />
        <OptionFilter label={t('col_status')} options={CONTRACT_STATUSES} prefix="contract_status_" value={status} onChange={(v) => set({ status: v })} testId="ops-contracts-filter-status" />
        <label className="ops-filter">
          <span className="ops-field__label">{t('contracts_filter_payer')}</span>
          <select className="ops-input" value={isHouse(house) ? house : ''} onChange={(e) => set({ house: e.target.value })} data-testid="ops-contracts-filter-house">
            <option value="">{t('filter_all')}</option>
            <option value="true">{t('contracts_payer_house')}</option>
            <option value="false">{t('contracts_payer_agent')}</option>
          </select>
        </label>
        <AccountFilterEnd
          value={accountInput}
          onChange={setAccountInput}
          testPrefix="ops-contracts-filter"
          onClear={() => {
            setAccountInput('');
            set({ kind: '', status: '', house: '', account: '', grant: '' });
          }}
        />
      </form>
      <SuccessNote>{flash}</SuccessNote>
      <ErrorNote error={list.error} testId="ops-contracts-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('contracts_empty')}
        columns={[
          { label: t('col_id') },
          { label: t('contracts_col_kind') },
          { label: t('contracts_col_payer') },
          { label: t('contracts_col_payee') },
          { label: t('contracts_col_rate'), className: 'num' },
          { label: t('contracts_col_conditions') },
          { label: t('col_status') },
          { label: t('contracts_col_dates') },
          { label: t('col_actions'), className: 'ops-table__actions' },
        ]}
        row={(c) => (
          <tr key={c.id} data-testid={`ops-contract-row-${c.id}`} data-status={c.status}>
            <td className="mono">{c.id}</td>
            <td>
              {t(`contract_kind_${c.kind}`)}
              <span className="ops-sub">{t(`contract_period_${periodOf(c.terms)}`)}</span>
            </td>
            <td>{c.uplineId === null ? <StatusChip tone="success">{t('contracts_payer_house')}</StatusChip> : <span className="strong">{c.uplineAccount}</span>}</td>
            <td className="strong">{c.downlineAccount}</td>
            <td className="num strong">{formatRate(c.terms.rate)}</td>
            <td>
              <span className="ops-sub">{t('contracts_cond_active', { n: c.terms.activeMembers })}</span>
              <span className="ops-sub">{t('contracts_cond_bets', { amount: formatAmount(c.terms.betAmount) })}</span>
            </td>
            <td>
              <StatusChip tone={CONTRACT_TONE[c.status]} testId={`ops-contract-status-${c.id}`}>
                {t(`contract_status_${c.status}`)}
              </StatusChip>
              {c.endReason && <span className="ops-sub">{t(`contract_end_${c.endReason}`)}</span>}
            </td>
            {/* Not nowrap: 'Inalok noong <date>' and its siblings are long in TY, and the table outgrew the page at 1366 px. */}
            <td>
              <span className="ops-sub">{t('contracts_offered_at', { at: formatDateTime(c.offeredAt) })}</span>
              {c.answeredAt && <span className="ops-sub">{t('contracts_answered_at', { at: formatDateTime(c.answeredAt) })}</span>}
              {c.endedAt && <span className="ops-sub">{t('contracts_ended_at', { at: formatDateTime(c.endedAt) })}</span>}
            </td>
            <td className="ops-table__actions">
              {isAdmin && c.status === 'active' && (
                <button
                  type="button"
                  className="ops-btn ops-btn--sm ops-btn--danger"
                  disabled={terminate.isPending}
                  onClick={() => {
                    terminate.reset();
                    setFlash('');
                    setEnding(c);
                  }}
                  data-testid={`ops-contract-terminate-${c.id}`}
                >
                  {t('contracts_terminate')}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-contracts-pager" />}

      {ending && (
        <ActionDialog
          open
          title={t('contracts_terminate_title', { id: ending.id })}
          summary={
            <>
              <dl className="ops-kv">
                <dt>{t('contracts_col_kind')}</dt>
                <dd>{t(`contract_kind_${ending.kind}`)}</dd>
                <dt>{t('contracts_col_payer')}</dt>
                <dd>{ending.uplineAccount ?? t('contracts_payer_house')}</dd>
                <dt>{t('contracts_col_payee')}</dt>
                <dd className="strong">{ending.downlineAccount}</dd>
                <dt>{t('contracts_col_rate')}</dt>
                <dd>{formatRate(ending.terms.rate)}</dd>
              </dl>
              <p className="ops-note ops-note--info">{t('contracts_terminate_cascade')}</p>
            </>
          }
          input={{ text: 'reason', payoutReference: false }}
          submitLabel={t('contracts_terminate')}
          tone="danger"
          busy={terminate.isPending}
          error={terminate.error}
          onClose={() => setEnding(null)}
          onSubmit={(reason) =>
            terminate.mutate(
              { id: ending.id, reason },
              {
                onSuccess: (r) => {
                  setEnding(null);
                  setFlash(t('flash_contract_terminated', { id: r.contract.id, n: r.ended.length }));
                },
              },
            )
          }
        />
      )}
    </section>
  );
}

/** The house's contract with a top agent: account, kind, rate (percent), conditions, period (dividend). */
function GrantHouseContract({ initialAccount, onDone }: { initialAccount: string; onDone: (c: TAgentContract) => void }) {
  const { t } = useTranslation('ops');
  const grant = useGrantHouseContract();
  const [accountText, setAccountText] = useState(initialAccount);
  const [form, setForm] = useState<TermsForm>(EMPTY_TERMS);
  const [isTried, setTried] = useState(false);
  const [lookupError, setLookupError] = useState<unknown>(null);
  const [isLooking, setLooking] = useState(false);
  const { exponent, code: currency } = useCurrency();
  const checked = termsFromForm(form, exponent);
  const problems = new Set(checked.ok ? [] : checked.problems);
  const edit = (patch: Partial<TermsForm>) => setForm((f) => ({ ...f, ...patch }));

  const submit = async () => {
    setTried(true);
    setLookupError(null);
    grant.reset();
    if (!checked.ok || !accountText.trim()) return;
    setLooking(true);
    try {
      // The account, exactly (case-insensitive), through the tree's search of the whole merchant.
      const found = await opsCall(opsAgentCalls.tree, { query: { search: accountText.trim(), pageNo: 1, pageSize: 20 } });
      const m = found.list.find((r) => r.account.toLowerCase() === accountText.trim().toLowerCase());
      if (!m) throw new ApiError('USER_NOT_FOUND', 'No such account', 404);
      grant.mutate({ memberId: m.id, terms: checked.terms }, { onSuccess: (c) => { setTried(false); onDone(c); } });
    } catch (e) {
      setLookupError(e);
    } finally {
      setLooking(false);
    }
  };

  return (
    <form
      className="ops-panel ops-form"
      noValidate
      data-testid="ops-grant-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 className="ops-panel__title">{t('grant_title')}</h2>
      <p className="ops-muted">{t('grant_intro')}</p>
      <OpsField label={t('grant_account')} value={accountText} onChange={setAccountText} testId="ops-grant-account" required maxLength={64} autoComplete="off" invalid={isTried && !accountText.trim()} />
      <label className="ops-field">
        <span className="ops-field__label">{t('contracts_col_kind')}</span>
        <select className="ops-input" value={form.kind} onChange={(e) => edit({ kind: e.target.value as ContractKind })} data-testid="ops-grant-kind">
          {CONTRACT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`contract_kind_${k}`)}
            </option>
          ))}
        </select>
      </label>
      {form.kind === 'dividend' && (
        <label className="ops-field">
          <span className="ops-field__label">{t('grant_period')}</span>
          <select className="ops-input" value={form.period} onChange={(e) => edit({ period: e.target.value as TermsForm['period'] })} data-testid="ops-grant-period">
            {DIVIDEND_PERIOD_TYPES.map((p) => (
              <option key={p} value={p}>
                {t(`contract_period_${p}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      <OpsField
        label={t('grant_rate')}
        value={form.rate}
        onChange={(v) => edit({ rate: v })}
        testId="ops-grant-rate"
        required
        inputMode="decimal"
        placeholder="0.00"
        invalid={isTried && (problems.has('rate') || problems.has('rateRange'))}
        hint={isTried && problems.has('rateRange') ? t('grant_rate_range', { max: form.kind === 'dividend' ? '100%' : '5%' }) : t('grant_rate_hint')}
      />
      <OpsField label={t('grant_active_members')} value={form.activeMembers} onChange={(v) => edit({ activeMembers: v })} testId="ops-grant-active" inputMode="numeric" invalid={isTried && problems.has('activeMembers')} />
      <OpsField label={t('grant_bet_amount', { currency })} value={form.betAmount} onChange={(v) => edit({ betAmount: v })} testId="ops-grant-bets" inputMode="decimal" invalid={isTried && problems.has('betAmount')} />
      <ErrorNote error={lookupError ?? grant.error} testId="ops-grant-error" />
      <div className="ops-form__actions">
        <button type="submit" className="ops-btn ops-btn--primary" disabled={grant.isPending || isLooking} data-testid="ops-grant-submit">
          {grant.isPending || isLooking ? t('working') : t('grant_submit')}
        </button>
      </div>
    </form>
  );
}
