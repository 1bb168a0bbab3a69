import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContractKind } from '@portal/contracts/domain/agent-contracts';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { errorKey } from '../../../lib/error-key';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { Pager, pagesOf } from '../../../ui/pager';
import { AWAITING_STATE_MESSAGE_KEYS, AWAITING_TEXT_KEYS, contractAwaitingMachine, OFFER_TEXT_KEYS } from '../machines/contract-offer.machine';
import { CONTRACTS_KEY, percentOf, terminateContract, useContracts, withdrawContract, type TAgentContract } from './api';
import { payloadOf } from './offer-popup';
import { reopenOffer } from './offer-store';
import '../../../ui/cashier.css';
import './contracts.css';

const STATUS_PILL: Record<TAgentContract['status'], string> = {
  offered: 'cx-pill--wait', active: 'cx-pill--ok', rejected: 'cx-pill--bad', withdrawn: '', terminated: 'cx-pill--bad', ended: '',
};

export function StatusPill({ status }: { status: TAgentContract['status'] }) {
  const { t } = useTranslation('agents');
  return <span className={`cx-pill ${STATUS_PILL[status]}`} data-testid="contract-status" data-status={status}>{t(`contracts.status.${status}`)}</span>;
}

/** The upline's open offer: withdraw it (contractAwaitingMachine); the row follows `contract.updated`. */
function AwaitingAnswer({ contract }: { contract: TAgentContract }) {
  const { t } = useTranslation(['agents', 'common']);
  const qc = useQueryClient();
  const machine = useMemo(
    () => contractAwaitingMachine.provide({
      actors: {
        withdrawOffer: fromPromise(async ({ input }) => {
          await withdrawContract(input.contractId);
          return { contractId: input.contractId };
        }),
      },
    }),
    [],
  );
  const [snap, send] = useMachine(machine, { input: { offer: payloadOf(contract) } });
  useRealtimeEvent('contract.updated', (env) => send({ type: 'contract.updated', payload: env.payload }));
  const state = snap.value as keyof typeof AWAITING_STATE_MESSAGE_KEYS;
  useEffect(() => {
    if (snap.status === 'done') void qc.invalidateQueries({ queryKey: CONTRACTS_KEY });
  }, [snap.status, qc]);
  return (
    <span className="ag-actions">
      <span className="muted" data-testid="contract-awaiting-state">{t(AWAITING_STATE_MESSAGE_KEYS[state])}</span>
      {state === 'awaitingAnswer' && (
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => send({ type: 'WITHDRAW' })} data-testid="contract-withdraw">
          {t(AWAITING_TEXT_KEYS.withdraw)}
        </button>
      )}
      {state === 'withdrawFailed' && (
        <>
          <span className="form-field__error" role="alert">{t(errorKey(snap.context.error), { ns: 'common' })}</span>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => send({ type: 'RETRY' })}>{t(AWAITING_TEXT_KEYS.retry)}</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => send({ type: 'CLOSE' })}>{t(AWAITING_TEXT_KEYS.close)}</button>
        </>
      )}
    </span>
  );
}

/** Terminate a live contract, after a confirmation. */
function TerminateButton({ contract }: { contract: TAgentContract }) {
  const { t } = useTranslation(['agents', 'common']);
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const m = useMutation({
    mutationFn: () => terminateContract(contract.id),
    onSettled: () => void qc.invalidateQueries({ queryKey: CONTRACTS_KEY }),
  });
  if (!confirming) {
    return (
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setConfirming(true)} data-testid="contract-terminate">
        {t('contracts.action.terminate')}
      </button>
    );
  }
  return (
    <span className="ag-actions">
      <span>{t('contracts.terminateConfirm')}</span>
      <button type="button" className="btn btn--primary btn--sm" disabled={m.isPending} onClick={() => m.mutate()} data-testid="contract-terminate-confirm">
        {t('contracts.action.confirm')}
      </button>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setConfirming(false)}>{t('contracts.action.cancel')}</button>
      {m.isError && <span className="form-field__error" role="alert">{t(errorKey(m.error), { ns: 'common' })}</span>}
    </span>
  );
}

/** One table of contracts with the actions the caller's side allows. */
export function ContractTable({ list, side, testId }: { list: readonly TAgentContract[]; side: 'given' | 'received'; testId: string }) {
  const { t } = useTranslation('agents');
  const dateTime = useDateTime();
  const money = useMoney();
  if (list.length === 0) return <p className="cx-muted" data-testid={`${testId}-empty`}>{t('contracts.empty')}</p>;
  return (
    <div className="cx-table-wrap">
      <table className="cx-table" data-testid={testId}>
        <thead>
          <tr>
            <th>{t('contracts.field.kind')}</th>
            <th>{side === 'given' ? t('contracts.field.downline') : t('contracts.field.upline')}</th>
            <th>{t(OFFER_TEXT_KEYS.rate)}</th>
            <th>{t('contracts.field.conditions')}</th>
            <th>{t('contracts.field.status')}</th>
            <th>{t('contracts.field.offeredAt')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.map((c) => (
            <tr key={c.id} data-testid="contract-row" data-contract-id={c.id} data-status={c.status}>
              <td data-label={t('contracts.field.kind')}>{t(OFFER_TEXT_KEYS.kind[c.kind])}</td>
              <td data-label={side === 'given' ? t('contracts.field.downline') : t('contracts.field.upline')}>{side === 'given' ? c.downlineAccount : (c.uplineAccount ?? t('contracts.house'))}</td>
              <td data-label={t(OFFER_TEXT_KEYS.rate)} data-testid="contract-rate">{percentOf(c.terms.rate)}</td>
              <td data-label={t('contracts.field.conditions')}>{t('contracts.conditionsLine', { active: c.terms.activeMembers, bet: money(c.terms.betAmount), period: t(`contracts.periodName.${c.terms.kind === 'dividend' ? c.terms.profitLossPeriod : c.terms.validBetPeriod}`) })}</td>
              <td data-label={t('contracts.field.status')}>
                <StatusPill status={c.status} />
                {c.endReason && <div className="cx-muted">{t(`contracts.endReason.${c.endReason}`)}</div>}
              </td>
              <td data-label={t('contracts.field.offeredAt')}>{dateTime(c.offeredAt)}</td>
              <td>
                {c.status === 'offered' && side === 'given' && <AwaitingAnswer contract={c} />}
                {c.status === 'offered' && side === 'received' && (
                  <button type="button" className="btn btn--primary btn--sm" onClick={() => reopenOffer(c.id)} data-testid="contract-answer">
                    {t(OFFER_TEXT_KEYS.view)}
                  </button>
                )}
                {c.status === 'active' && (side === 'received' ? c.uplineId !== null : true) && <TerminateButton contract={c} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "My contracts": the contracts the agent received (from its upline or the house) and those it gave,
 * with statuses; of one kind when `kind` is given. `embedded` (a tab of a payout record, which names
 * it) leaves the title out.
 */
export function MyContractsScreen({ kind, embedded = false }: { kind?: ContractKind; embedded?: boolean } = {}) {
  const { t } = useTranslation('agents');
  const [role, setRole] = useState<'received' | 'given'>('received');
  const [page, setPage] = useState(1);
  const q = useContracts({ role, kind, pageNo: page, pageSize: 20 });
  return (
    <section className="ag-section" data-testid="my-contracts" data-kind={kind}>
      {!embedded && <h2>{t('contracts.myTitle')}</h2>}
      <div className="ag-tabs" role="tablist">
        {(['received', 'given'] as const).map((r) => (
          <button key={r} type="button" role="tab" aria-selected={role === r} className={`btn btn--sm ${role === r ? 'btn--primary' : 'btn--ghost'}`} onClick={() => { setRole(r); setPage(1); }} data-testid={`my-contracts-${r}`}>
            {t(`contracts.role.${r}`)}
          </button>
        ))}
      </div>
      {q.isError ? (
        <p className="form-field__error" role="alert">{t(errorKey(q.error), { ns: 'common' })}</p>
      ) : q.isPending ? (
        <p className="cx-muted">{t('contracts.loading')}</p>
      ) : (
        <>
          <ContractTable list={q.data.list} side={role} testId="my-contracts-table" />
          <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="my-contracts" />
        </>
      )}
    </section>
  );
}
