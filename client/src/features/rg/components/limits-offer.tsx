import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RG_PERIODS, type TRgLimitKind, type TRgPeriod } from '@portal/contracts/api/rg';
import { errorMessage } from '../../../lib/field-message';
import { minorPerMajor } from '@portal/contracts/domain/money';
import { useCurrency, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { useRgState, useSetLimit } from '../api/rg';
import '../../../ui/cashier.css';

const OFFERED_KINDS: readonly TRgLimitKind[] = ['deposit', 'loss'];
/** Whole currency units typed by the player -> minor units (the currency's `exponent`); null when not a whole positive amount. */
const toMinor = (s: string, exponent: number) => (/^\d{1,9}$/.test(s.trim()) && Number(s.trim()) > 0 ? Number(s.trim()) * minorPerMajor(exponent) : null);

/**
 * The limits offered to a new player: right after registering, and on the deposit page before the
 * first deposit. Optional: the player sets a deposit or loss limit per day, week or month (saved by
 * the same call as the member centre's, so the same rules apply) or goes on without one.
 */
export function RgLimitsOffer({ where, onDone }: { where: 'register' | 'deposit'; onDone: () => void }) {
  const { t } = useTranslation('rg');
  const money = useMoney();
  const { exponent } = useCurrency();
  const state = useRgState();
  const setLimit = useSetLimit();
  const [kind, setKind] = useState<TRgLimitKind>('deposit');
  const [period, setPeriod] = useState<TRgPeriod>('week');
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState(false);
  const saved = (state.data?.limits ?? []).filter((l) => l.amount !== null);
  // Before the first deposit the offer is for a player with no limit yet: one who set a limit when
  // registering was offered it again, above the deposit form. Decided once, when the state first
  // arrives, so a limit saved here keeps the offer (and its list) in view.
  const hadLimit = useRef<boolean | null>(null);
  if (state.data && hadLimit.current === null) hadLimit.current = saved.length > 0;
  const save = () => {
    const v = toMinor(amount, exponent);
    setInvalid(v === null);
    if (v !== null) setLimit.mutate({ kind, period, amount: v }, { onSuccess: () => setAmount('') });
  };
  if (where === 'deposit' && hadLimit.current !== false) return null;
  return (
    <section className="mc-card rg-offer" data-testid={`rg-offer-${where}`} aria-labelledby={`rg-offer-${where}-title`}>
      <h2 className="mc-title" id={`rg-offer-${where}-title`}>{t('rg_offer_title')}</h2>
      <p className="cx-muted">{t(where === 'register' ? 'rg_offer_text_register' : 'rg_offer_text_deposit')}</p>
      <div className="cx-form">
        <label>{t('rg_kind')} <select value={kind} onChange={(e) => setKind(e.target.value as TRgLimitKind)} data-testid="rg-offer-kind">
          {OFFERED_KINDS.map((k) => <option key={k} value={k}>{t(`rg_kind_${k}`)}</option>)}
        </select></label>
        <label>{t('rg_period')} <select value={period} onChange={(e) => setPeriod(e.target.value as TRgPeriod)} data-testid="rg-offer-period">
          {RG_PERIODS.map((p) => <option key={p} value={p}>{t(`rg_period_${p}`)}</option>)}
        </select></label>
        <label>{t('rg_amount')} <input inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="rg-offer-amount" /></label>
        <button type="button" className="btn btn--primary" disabled={setLimit.isPending} onClick={save} data-testid="rg-offer-save">{t('rg_set_limit')}</button>
      </div>
      {invalid && <p className="form-error" role="alert">{t('rg_offer_amount_invalid')}</p>}
      {setLimit.error && <FormMessage message={errorMessage(setLimit.error)} />}
      {saved.length > 0 && (
        <ul className="rg-offer__saved" data-testid="rg-offer-saved">
          {saved.map((l) => <li key={`${l.kind}-${l.period}`}>{t(`rg_kind_${l.kind}`)} · {t(`rg_period_${l.period}`)}: {money(l.amount ?? 0)}</li>)}
        </ul>
      )}
      {/* In the form's column, as wide as its own button. */}
      <div className="cx-form">
        <button type="button" className="btn btn--outline" onClick={onDone} data-testid="rg-offer-done">
          {saved.length > 0 ? t('rg_offer_continue') : t('rg_offer_skip')}
        </button>
      </div>
    </section>
  );
}
