import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TContractToEnd } from '@portal/contracts/api/agent-contracts';
import type { ContractToEnd } from '@portal/contracts/domain/agent-contracts';
import { useAuth } from '../../auth/hooks/use-auth';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { Modal } from '../../../ui/modal';
import { errorKey } from '../../../lib/error-key';
import {
  contractOfferMachine, isRetryable, OFFER_STATE_MESSAGE_KEYS, OFFER_TEXT_KEYS, type ContractEventPayload,
} from '../machines/contract-offer.machine';
import { CONTRACTS_KEY, acceptContract, acceptancePlan, percentOf, rejectContract, useContracts, type TAgentContract } from './api';
import { TermsLines } from './terms';
import { nextOfferToShow, putOfferAway, usePutAwayOffers } from './offer-store';
import './contracts.css';

// The event vocabulary names kinds and statuses its own way (gateway contracts-service eventsFor).
const EVENT_KIND: Record<TAgentContract['kind'], ContractEventPayload['kind']> = {
  dividend: 'dividend', dailyWages: 'daily_salary', hourlySalary: 'hour_salary', realtimeSalary: 'realtime_salary',
};
const EVENT_STATUS: Record<TAgentContract['status'], ContractEventPayload['status']> = {
  offered: 'offered', active: 'accepted', rejected: 'rejected', withdrawn: 'withdrawn', terminated: 'terminated', ended: 'ended',
};

/** The contract-event payload of a contract from the list (the machine's input). */
export function payloadOf(c: TAgentContract): ContractEventPayload {
  return {
    contractId: String(c.id), kind: EVENT_KIND[c.kind], status: EVENT_STATUS[c.status], uplineId: c.uplineId ?? 0, uplineAccount: c.uplineAccount ?? '',
    downlineId: c.downlineId, rateBps: c.terms.rate,
  };
}

/**
 * The global contract offer popup (spec section 4 "Contract offer"): mounted in every layout. While an
 * agent is signed in, its open offers (received, status offered) are listed at login and refetched on
 * `contract.offered` / `contract.updated`; the first one not put away opens a popup anywhere in the portal.
 */
export function ContractOfferHost() {
  const { isLogin, isAgent, isTrial, member } = useAuth();
  const enabled = isLogin && isAgent && !isTrial;
  const qc = useQueryClient();
  const pending = useContracts({ role: 'received', status: 'offered', pageNo: 1, pageSize: 20 }, enabled);
  const [current, setCurrent] = useState<TAgentContract | null>(null);
  const [answered, setAnswered] = useState<ReadonlySet<number>>(new Set());
  const putAway = usePutAwayOffers();

  useRealtimeEvent('contract.offered', () => void qc.invalidateQueries({ queryKey: CONTRACTS_KEY }));
  useRealtimeEvent('contract.updated', () => void qc.invalidateQueries({ queryKey: CONTRACTS_KEY }));

  useEffect(() => {
    if (!enabled) {
      setCurrent(null);
      return;
    }
    if (current) return;
    const next = nextOfferToShow(pending.data?.list, putAway, answered, member?.id ?? null);
    if (next) setCurrent(next);
  }, [enabled, current, pending.data, putAway, answered, member]);

  if (!enabled || !current) return null;
  const close = (keepOpen: boolean) => {
    const id = current.id;
    if (keepOpen) putOfferAway(id);
    else setAnswered((a) => new Set([...a, id]));
    setCurrent(null);
    void qc.invalidateQueries({ queryKey: CONTRACTS_KEY });
  };
  return <OfferDialog key={current.id} contract={current} onClose={close} />;
}

function OfferDialog({ contract, onClose }: { contract: TAgentContract; onClose: (keepOpen: boolean) => void }) {
  const plan = useQuery({
    queryKey: ['agents', 'contract-plan', contract.id] as const,
    queryFn: () => acceptancePlan(contract.id),
    staleTime: 0,
    retry: 1,
  });
  const { t } = useTranslation('agents');
  if (plan.isPending) {
    return (
      <Modal name="contractOfferModal" open onClose={() => onClose(true)} title={t(OFFER_TEXT_KEYS.title)}>
        <p className="muted" data-testid="contract-offer-loading">{t('contracts.loading')}</p>
      </Modal>
    );
  }
  // Without the plan the offer is still shown: the server asks for the consent list itself (CONTRACT_CONSENT_REQUIRED).
  return <OfferMachineDialog contract={contract} mustEnd={plan.data?.end ?? []} onClose={onClose} />;
}

function OfferMachineDialog({ contract, mustEnd, onClose }: { contract: TAgentContract; mustEnd: TContractToEnd[]; onClose: (keepOpen: boolean) => void }) {
  const { t } = useTranslation(['agents', 'common']);
  const qc = useQueryClient();
  const machine = useMemo(
    () =>
      contractOfferMachine.provide({
        actors: {
          acceptOffer: fromPromise(async ({ input }) => {
            const r = await acceptContract(input.contractId, input.endContractIds);
            return { contractId: input.contractId, endedContractIds: r.ended.map((e) => e.contractId) };
          }),
          rejectOffer: fromPromise(async ({ input }) => {
            await rejectContract(input.contractId);
            return { contractId: input.contractId };
          }),
        },
      }),
    [],
  );
  // The plan's lines carry the account for display; the machine keeps them as they are (uplineLimits is not shown).
  const [snap, send] = useMachine(machine, { input: { offer: payloadOf(contract), terms: contract.terms, mustEnd: mustEnd.map((e) => ({ ...e, uplineLimits: null })) as ContractToEnd[] } });
  useRealtimeEvent('contract.updated', (env) => send({ type: 'contract.updated', payload: env.payload }));
  const state = snap.value as keyof typeof OFFER_STATE_MESSAGE_KEYS;
  useEffect(() => {
    if (snap.status === 'done') void qc.invalidateQueries({ queryKey: CONTRACTS_KEY });
  }, [snap.status, qc]);
  useEffect(() => {
    if (state === 'deferred') onClose(true);
  }, [state, onClose]);

  const ctx = snap.context;
  const done = snap.status === 'done';
  const busy = state === 'accepting' || state === 'rejecting';
  const accept = () => {
    if (state === 'offered') send({ type: 'OPEN' });
    if (ctx.mustEnd.length === 0) send({ type: 'ACCEPT' });
  };
  const reject = () => {
    if (state === 'offered') send({ type: 'OPEN' });
    send({ type: 'REJECT' });
  };
  const showActions = state === 'offered' || state === 'reviewing';
  const needAgree = ctx.mustEnd.length > 0 && (state === 'reviewing');

  return (
    <Modal name="contractOfferModal" open onClose={() => (done ? onClose(false) : state === 'reviewing' ? send({ type: 'CLOSE' }) : send({ type: 'DISMISS' }))} title={t(OFFER_TEXT_KEYS.title)} className="ag-offer">
      <div className="ag-offer__body" data-testid="contract-offer-popup" data-state={state} data-contract-id={contract.id}>
        <p className="ag-offer__state" role="status" data-testid="contract-offer-state">{t(OFFER_STATE_MESSAGE_KEYS[state])}</p>
        <dl className="ag-terms">
          <dt>{t('contracts.field.kind')}</dt>
          <dd data-testid="contract-offer-kind">{t(OFFER_TEXT_KEYS.kind[contract.kind])}</dd>
          <dt>{t(OFFER_TEXT_KEYS.rate)}</dt>
          <dd data-testid="contract-offer-rate">{percentOf(contract.terms.rate)}</dd>
          <TermsLines terms={contract.terms} />
          <dt>{t('contracts.field.upline')}</dt>
          <dd data-testid="contract-offer-upline">{contract.uplineAccount ?? t('contracts.house')}</dd>
        </dl>
        {ctx.mustEnd.length > 0 && (state === 'reviewing' || state === 'offered') && (
          <div className="ag-offer__mustend" data-testid="contract-offer-mustend">
            <p><strong>{t(OFFER_TEXT_KEYS.mustEndTitle)}</strong></p>
            <ul>
              {ctx.mustEnd.map((c) => (
                <li key={c.contractId}>
                  {t('contracts.mustEndLine', { contractId: c.contractId, account: 'downlineAccount' in c ? String(c.downlineAccount) : String(c.downlineId), rate: percentOf(c.rate) })}
                </li>
              ))}
            </ul>
            {state === 'reviewing' && (
              <label className="ag-offer__agree">
                <input type="checkbox" checked={ctx.agreed} onChange={(e) => send({ type: 'AGREE', agreed: e.target.checked })} data-testid="contract-offer-agree" />{' '}
                {t(OFFER_TEXT_KEYS.mustEndAgree)}
              </label>
            )}
            {state === 'reviewing' && !ctx.agreed && <p className="muted">{t(OFFER_TEXT_KEYS.mustEndNeedAgree)}</p>}
          </div>
        )}
        {ctx.error != null && !done && !busy && <p className="form-field__error" role="alert" data-testid="contract-offer-error">{t(errorKey(ctx.error), { ns: 'common' })}</p>}
        <div className="ag-actions">
          {showActions && (
            <>
              <button type="button" className="btn btn--primary btn--sm" disabled={needAgree && !ctx.agreed} onClick={() => (state === 'reviewing' ? send({ type: 'ACCEPT' }) : accept())} data-testid="contract-offer-accept">
                {t(OFFER_TEXT_KEYS.accept)}
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={reject} data-testid="contract-offer-reject">
                {t(OFFER_TEXT_KEYS.reject)}
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => send({ type: state === 'reviewing' ? 'CLOSE' : 'DISMISS' })} data-testid="contract-offer-later">
                {t(OFFER_TEXT_KEYS.later)}
              </button>
            </>
          )}
          {(state === 'acceptFailed' || state === 'rejectFailed') && (
            <>
              {isRetryable(ctx.error) && (
                <button type="button" className="btn btn--primary btn--sm" onClick={() => send({ type: 'RETRY' })} data-testid="contract-offer-retry">
                  {t(OFFER_TEXT_KEYS.retry)}
                </button>
              )}
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => send({ type: 'CLOSE' })}>
                {t(OFFER_TEXT_KEYS.close)}
              </button>
            </>
          )}
          {done && (
            <button type="button" className="btn btn--primary btn--sm" onClick={() => onClose(false)} data-testid="contract-offer-close">
              {t(OFFER_TEXT_KEYS.close)}
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}
