import { CONTRACT_KINDS, RATE_BOUNDS, RATE_DENOMINATOR, type ContractKind, type TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { DIVIDEND_PERIOD_TYPES, type DividendPeriodType } from '@portal/contracts/domain/agent-periods';
import { parsePesos } from './money-input';

export { CONTRACT_KINDS, DIVIDEND_PERIOD_TYPES };

/** A rate in basis points as a percent with up to two decimals: 250 -> '2.5%', 10000 -> '100%'. */
export function formatRate(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const frac = String(Math.abs(bps % 100)).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''}%`;
}

/** An operator's percent ('2.5', '2.50%') as basis points; null unless 0.01..100 with at most two decimals. */
export function parseRatePercent(input: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%?$/.exec(input.trim());
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps >= 1 && bps <= RATE_DENOMINATOR ? bps : null;
}

export type TermsForm = { kind: ContractKind; rate: string; activeMembers: string; betAmount: string; period: DividendPeriodType };
export const EMPTY_TERMS: TermsForm = { kind: 'dividend', rate: '', activeMembers: '0', betAmount: '0', period: 'monthly' };

export type TermsProblem = 'rate' | 'rateRange' | 'activeMembers' | 'betAmount';

/**
 * The house contract terms from the grant form, or what is wrong with it: a percent within the kind's
 * bounds (RATE_BOUNDS: a salary at most 5 %), a whole number of active members, an amount of bets in
 * major units with the currency's decimals (`exponent`: 2 for PHP, 0 for VND).
 */
export function termsFromForm(f: TermsForm, exponent = 2): { ok: true; terms: TContractTerms } | { ok: false; problems: TermsProblem[] } {
  const problems: TermsProblem[] = [];
  const rate = parseRatePercent(f.rate);
  if (rate === null) problems.push('rate');
  else if (rate < RATE_BOUNDS[f.kind].min || rate > RATE_BOUNDS[f.kind].max) problems.push('rateRange');
  const active = /^\d{1,8}$/.test(f.activeMembers.trim()) ? Number(f.activeMembers.trim()) : null;
  if (active === null || active > 10_000_000) problems.push('activeMembers');
  const bet = parsePesos(f.betAmount, { allowZero: true, exponent });
  if (bet === null) problems.push('betAmount');
  if (problems.length || rate === null || active === null || bet === null) return { ok: false, problems };
  const base = { rate, activeMembers: active, betAmount: bet };
  switch (f.kind) {
    case 'dividend':
      return { ok: true, terms: { kind: 'dividend', ...base, profitLossPeriod: f.period } };
    case 'dailyWages':
      return { ok: true, terms: { kind: 'dailyWages', ...base, validBetPeriod: 'daily' } };
    case 'hourlySalary':
      return { ok: true, terms: { kind: 'hourlySalary', ...base, validBetPeriod: 'hourly' } };
    case 'realtimeSalary':
      return { ok: true, terms: { kind: 'realtimeSalary', ...base, validBetPeriod: 'fiveMinutes' } };
  }
}

/** The period a contract is settled on, as a translation key suffix. */
export const periodOf = (t: TContractTerms) => (t.kind === 'dividend' ? t.profitLossPeriod : t.validBetPeriod);
