import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_KINDS, RATE_BOUNDS, type ContractKind, type TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { DIVIDEND_PERIOD_TYPES, type DividendPeriodType } from '@portal/contracts/domain/agent-periods';
import { parseAmountMinor } from '../../../lib/money-input';
import { toMajorInput } from '@portal/contracts/domain/money';
import { useCurrency } from '../../../lib/use-money';
import { errorKey } from '../../../lib/error-key';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { OFFER_TEXT_KEYS } from '../machines/contract-offer.machine';
import { CONTRACTS_KEY, bpsOf, offerContract, percentOf, useContracts, type TAgentContract } from './api';

export type OfferDraft = { rate: string; activeMembers: string; betAmount: string; period: DividendPeriodType };
const EMPTY: OfferDraft = { rate: '', activeMembers: '0', betAmount: '0', period: 'daily' };

/**
 * What the agent may offer of a kind (contracts/domain/agent-contracts.ts validateOffer): a rate up to
 * its own contract's, conditions at least its own, a dividend on its own contract's period.
 */
export function offerLimits(kind: ContractKind, own: TContractTerms | undefined): { min: number; max: number; period: DividendPeriodType | null } {
  const bounds = RATE_BOUNDS[kind];
  return {
    min: bounds.min,
    max: own && own.kind === kind ? Math.min(bounds.max, own.rate) : bounds.max,
    period: own?.kind === 'dividend' && kind === 'dividend' ? own.profitLossPeriod : null,
  };
}

/** The form as it opens for a kind: the agent's own conditions and period (the least it may ask), no rate yet. */
export function draftFor(own: TContractTerms | undefined, exponent = 2): OfferDraft {
  if (!own) return EMPTY;
  return {
    rate: '',
    activeMembers: String(own.activeMembers),
    betAmount: own.betAmount ? toMajorInput(own.betAmount, exponent) : '0',
    period: own.kind === 'dividend' ? own.profitLossPeriod : EMPTY.period,
  };
}

/** Terms from the form, or the i18n key of what is wrong; the bet amount in the currency's decimals (`exponent`). */
export function termsOf(kind: ContractKind, d: OfferDraft, exponent = 2, own?: TContractTerms): { ok: true; terms: TContractTerms } | { ok: false; error: string } {
  const rate = bpsOf(d.rate);
  const bounds = offerLimits(kind, own);
  if (rate === null || rate < bounds.min || rate > bounds.max) return { ok: false, error: 'contracts.form.rateRange' };
  const activeMembers = /^\d{1,8}$/.test(d.activeMembers.trim()) ? Number(d.activeMembers.trim()) : null;
  if (activeMembers === null) return { ok: false, error: 'contracts.form.activeMembersInvalid' };
  const betAmount = d.betAmount.trim() === '' ? 0 : parseAmountMinor(d.betAmount, exponent);
  if (betAmount === null) return { ok: false, error: 'contracts.form.betAmountInvalid' };
  const base = { rate, activeMembers, betAmount };
  switch (kind) {
    case 'dividend':
      return { ok: true, terms: { kind, ...base, profitLossPeriod: bounds.period ?? d.period } };
    case 'dailyWages':
      return { ok: true, terms: { kind, ...base, validBetPeriod: 'daily' } };
    case 'hourlySalary':
      return { ok: true, terms: { kind, ...base, validBetPeriod: 'hourly' } };
    case 'realtimeSalary':
      return { ok: true, terms: { kind, ...base, validBetPeriod: 'fiveMinutes' } };
  }
}

/** The caller's own live contracts (from its upline or the house): it can only share kinds it holds (else 409). */
export const HELD_FILTER = { role: 'received', status: 'active', pageNo: 1, pageSize: 100 } as const;

/** The kinds an agent can offer: those of its live contracts, in the usual order. */
export function offerableKinds(held: readonly Pick<TAgentContract, 'kind'>[]): ContractKind[] {
  return CONTRACT_KINDS.filter((k) => held.some((c) => c.kind === k));
}

/**
 * "Offer contract" to a direct downline: kind, rate (%), conditions, and for a dividend its period.
 * `preview` renders the what-if for the terms being typed (null while they are invalid).
 */
export function OfferContractForm({ downlineId, preview }: { downlineId: number; preview?: (terms: TContractTerms | null) => ReactNode }) {
  const { t } = useTranslation(['agents', 'common']);
  const qc = useQueryClient();
  const held = useContracts(HELD_FILTER);
  const kinds = offerableKinds(held.data?.list ?? []);
  const [chosen, setKind] = useState<ContractKind>('dailyWages');
  const kind: ContractKind = kinds.includes(chosen) ? chosen : (kinds[0] ?? chosen);
  // The agent's own live contract of this kind: the most it may offer and the least it may ask.
  const own = held.data?.list.find((c) => c.kind === kind)?.terms;
  const { exponent } = useCurrency();
  const [draft, setDraftState] = useState<OfferDraft>(EMPTY);
  const [touched, setTouched] = useState(false);
  const ownKey = own ? JSON.stringify(own) : '';
  useEffect(() => {
    setDraftState(draftFor(own, exponent));
    setTouched(false);
    // Reset when the kind or the own contract changes (ownKey stands for `own`).
  }, [kind, ownKey, exponent]);
  const parsed = termsOf(kind, draft, exponent, own);
  const m = useMutation({
    mutationFn: (terms: TContractTerms) => offerContract(downlineId, terms),
    onSuccess: () => {
      setDraftState(draftFor(own, exponent));
      setTouched(false);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: CONTRACTS_KEY }),
  });
  // "Offer sent; waiting for the answer" lasts until the downline answers (or the offer ends): the row above shows the outcome.
  useRealtimeEvent('contract.updated', (env) => {
    if (m.isSuccess && env.payload.contractId === String(m.data.id)) m.reset();
  });
  // A change to the terms takes the last refusal off the form (it was about other terms).
  const setDraft = (d: OfferDraft) => {
    if (m.isError) m.reset();
    setDraftState(d);
  };
  const bounds = offerLimits(kind, own);
  if (held.isError) return <p className="form-field__error" role="alert">{t(errorKey(held.error), { ns: 'common' })}</p>;
  if (held.isPending) return <p className="cx-muted">{t('contracts.loading')}</p>;
  if (kinds.length === 0) {
    return (
      <div className="ag-section" data-testid="offer-none">
        <h3>{t('contracts.form.title')}</h3>
        <p className="cx-muted">{t('contracts.form.noneHeld')}</p>
      </div>
    );
  }
  return (
    <form
      className="ag-section"
      data-testid="offer-contract-form"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (parsed.ok) m.mutate(parsed.terms);
      }}
    >
      <h3>{t('contracts.form.title')}</h3>
      <div className="ag-form">
        <label className="form-field">
          <span className="form-field__label">{t('contracts.field.kind')}</span>
          <select className="form-field__input" value={kind} onChange={(e) => setKind(e.target.value as ContractKind)} data-testid="offer-kind">
            {kinds.map((k) => <option key={k} value={k}>{t(OFFER_TEXT_KEYS.kind[k])}</option>)}
          </select>
        </label>
        <label className="form-field">
          <span className="form-field__label">{t('contracts.form.ratePercent', { min: percentOf(bounds.min), max: percentOf(bounds.max) })}</span>
          <input className="form-field__input" inputMode="decimal" value={draft.rate} onChange={(e) => setDraft({ ...draft, rate: e.target.value })} data-testid="offer-rate" />
        </label>
        <label className="form-field">
          <span className="form-field__label">{t(OFFER_TEXT_KEYS.activeMembers)}</span>
          <input className="form-field__input" inputMode="numeric" value={draft.activeMembers} onChange={(e) => setDraft({ ...draft, activeMembers: e.target.value })} data-testid="offer-active-members" />
        </label>
        <label className="form-field">
          <span className="form-field__label">{t(OFFER_TEXT_KEYS.betAmount)}</span>
          <input className="form-field__input" inputMode="decimal" value={draft.betAmount} onChange={(e) => setDraft({ ...draft, betAmount: e.target.value })} data-testid="offer-bet-amount" />
        </label>
        {kind === 'dividend' && !bounds.period ? (
          <label className="form-field">
            <span className="form-field__label">{t(OFFER_TEXT_KEYS.period)}</span>
            <select className="form-field__input" value={draft.period} onChange={(e) => setDraft({ ...draft, period: e.target.value as DividendPeriodType })} data-testid="offer-period">
              {DIVIDEND_PERIOD_TYPES.map((p) => <option key={p} value={p}>{t(`contracts.periodName.${p}`)}</option>)}
            </select>
          </label>
        ) : (
          <div className="form-field">
            <span className="form-field__label">{t(OFFER_TEXT_KEYS.period)}</span>
            <span data-testid="offer-period">{t(`contracts.periodName.${bounds.period ?? (kind === 'dailyWages' ? 'daily' : kind === 'hourlySalary' ? 'hourly' : 'fiveMinutes')}`)}</span>
          </div>
        )}
        <button type="submit" className="btn btn--primary" disabled={m.isPending} data-testid="offer-submit">{t('contracts.action.offer')}</button>
      </div>
      {touched && !parsed.ok && <p className="form-field__error" role="alert" data-testid="offer-invalid">{t(parsed.error, { min: percentOf(bounds.min), max: percentOf(bounds.max) })}</p>}
      {m.isError && <p className="form-field__error" role="alert" data-testid="offer-error">{t(errorKey(m.error), { ns: 'common' })}</p>}
      {m.isSuccess && <p className="cx-muted" role="status" data-testid="offer-sent">{t('contracts.form.sent', { account: m.data.downlineAccount })}</p>}
      {preview?.(parsed.ok ? parsed.terms : null)}
    </form>
  );
}
