import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_KINDS, RATE_BOUNDS, type ContractKind, type TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { DIVIDEND_PERIOD_TYPES, type DividendPeriodType } from '@portal/contracts/domain/agent-periods';
import { parseAmountMinor } from '../../../lib/money-input';
import { useCurrency } from '../../../lib/use-money';
import { errorKey } from '../../../lib/error-key';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { OFFER_TEXT_KEYS } from '../machines/contract-offer.machine';
import { CONTRACTS_KEY, bpsOf, offerContract, percentOf, useContracts, type TAgentContract } from './api';

export type OfferDraft = { rate: string; activeMembers: string; betAmount: string; period: DividendPeriodType };
const EMPTY: OfferDraft = { rate: '', activeMembers: '0', betAmount: '0', period: 'daily' };

/** Terms from the form, or the i18n key of what is wrong; the bet amount in the currency's decimals (`exponent`). */
export function termsOf(kind: ContractKind, d: OfferDraft, exponent = 2): { ok: true; terms: TContractTerms } | { ok: false; error: string } {
  const rate = bpsOf(d.rate);
  const bounds = RATE_BOUNDS[kind];
  if (rate === null || rate < bounds.min || rate > bounds.max) return { ok: false, error: 'contracts.form.rateRange' };
  const activeMembers = /^\d{1,8}$/.test(d.activeMembers.trim()) ? Number(d.activeMembers.trim()) : null;
  if (activeMembers === null) return { ok: false, error: 'contracts.form.activeMembersInvalid' };
  const betAmount = d.betAmount.trim() === '' ? 0 : parseAmountMinor(d.betAmount, exponent);
  if (betAmount === null) return { ok: false, error: 'contracts.form.betAmountInvalid' };
  const base = { rate, activeMembers, betAmount };
  switch (kind) {
    case 'dividend':
      return { ok: true, terms: { kind, ...base, profitLossPeriod: d.period } };
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
  const [draft, setDraft] = useState<OfferDraft>(EMPTY);
  const [touched, setTouched] = useState(false);
  const { exponent } = useCurrency();
  const parsed = termsOf(kind, draft, exponent);
  const m = useMutation({
    mutationFn: (terms: TContractTerms) => offerContract(downlineId, terms),
    onSuccess: () => {
      setDraft(EMPTY);
      setTouched(false);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: CONTRACTS_KEY }),
  });
  // "Offer sent; waiting for the answer" lasts until the downline answers (or the offer ends): the row above shows the outcome.
  useRealtimeEvent('contract.updated', (env) => {
    if (m.isSuccess && env.payload.contractId === String(m.data.id)) m.reset();
  });
  const bounds = RATE_BOUNDS[kind];
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
        {kind === 'dividend' ? (
          <label className="form-field">
            <span className="form-field__label">{t(OFFER_TEXT_KEYS.period)}</span>
            <select className="form-field__input" value={draft.period} onChange={(e) => setDraft({ ...draft, period: e.target.value as DividendPeriodType })} data-testid="offer-period">
              {DIVIDEND_PERIOD_TYPES.map((p) => <option key={p} value={p}>{t(`contracts.periodName.${p}`)}</option>)}
            </select>
          </label>
        ) : (
          <div className="form-field">
            <span className="form-field__label">{t(OFFER_TEXT_KEYS.period)}</span>
            <span>{t(`contracts.periodName.${kind === 'dailyWages' ? 'daily' : kind === 'hourlySalary' ? 'hourly' : 'fiveMinutes'}`)}</span>
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
