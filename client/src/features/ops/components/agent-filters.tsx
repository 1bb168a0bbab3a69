import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { CONTRACT_KINDS, type ContractKind } from '@portal/contracts/domain/agent-contracts';

export const isContractKind = (v: string | null): v is ContractKind => v !== null && (CONTRACT_KINDS as readonly string[]).includes(v);

/**
 * A list's filters kept in the address (so a filtered list can be linked and reloaded): the params, and
 * `set` that writes some of them (an empty value removes one) and calls `onChange` (back to page 1).
 */
export function useFilterParams(onChange: () => void): [URLSearchParams, (patch: Record<string, string>) => void] {
  const [params, setParams] = useSearchParams();
  const set = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    onChange();
    setParams(next, { replace: true });
  };
  return [params, set];
}

/** A filter of the agent lists picking one of `options` (by its label key `${prefix}${option}`), or all. */
export function OptionFilter({ label, options, prefix, value, onChange, testId }: {
  label: string; options: readonly string[]; prefix: string; value: string | null; onChange: (v: string) => void; testId: string;
}) {
  const { t } = useTranslation('ops');
  return (
    <label className="ops-filter">
      <span className="ops-field__label">{label}</span>
      <select className="ops-input" value={value !== null && options.includes(value) ? value : ''} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">{t('filter_all')}</option>
        {options.map((k) => (
          <option key={k} value={k}>
            {t(`${prefix}${k}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The contract kind filter of the agent lists (contracts, payouts): all kinds, or one. */
export function ContractKindFilter({ value, onChange, testId }: { value: string | null; onChange: (v: string) => void; testId: string }) {
  const { t } = useTranslation('ops');
  return <OptionFilter label={t('contracts_col_kind')} options={CONTRACT_KINDS} prefix="contract_kind_" value={value} onChange={onChange} testId={testId} />;
}

/** The account box (either party) and the Apply and Clear buttons that end the agent lists' filter rows. */
export function AccountFilterEnd({ value, onChange, onClear, testPrefix }: { value: string; onChange: (v: string) => void; onClear: () => void; testPrefix: string }) {
  const { t } = useTranslation('ops');
  return (
    <>
      <label className="ops-filter">
        <span className="ops-field__label">{t('contracts_filter_account')}</span>
        <input className="ops-input" value={value} onChange={(e) => onChange(e.target.value)} maxLength={64} data-testid={`${testPrefix}-account`} />
      </label>
      <button type="submit" className="ops-btn" data-testid={`${testPrefix}-apply`}>
        {t('filter_apply')}
      </button>
      <button type="button" className="ops-btn ops-btn--ghost" data-testid={`${testPrefix}-clear`} onClick={onClear}>
        {t('filter_clear')}
      </button>
    </>
  );
}
