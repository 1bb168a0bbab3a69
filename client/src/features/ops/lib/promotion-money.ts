import { parsePesos, toPesosInput } from './money-input';

/** A promotion's money terms as the form holds them: major units as typed ("100", "1,250.50"; VND "50,000"). */
export type PromotionMoneyForm = { rewardAmount: string; rewardCap: string; minDeposit: string };
/** The same terms as the API takes them: integer minor units (the cap null when none). */
export type PromotionMoney = { rewardAmount: number; rewardCap: number | null; minDeposit: number };

/** Stored minor units -> the form's major units with the currency's `exponent` (an empty cap is "no cap"). */
export function promotionMoneyForm(p: PromotionMoney | null, exponent = 2): PromotionMoneyForm {
  return {
    rewardAmount: toPesosInput(p?.rewardAmount ?? 0, exponent),
    rewardCap: p?.rewardCap != null ? toPesosInput(p.rewardCap, exponent) : '',
    minDeposit: toPesosInput(p?.minDeposit ?? 0, exponent),
  };
}

/**
 * The form's major units -> minor units for the API with the currency's `exponent`: for PHP "100" is
 * ₱100.00 = 10000, never 100 centavos; for VND "100" is ₫100 = 100. Zero is allowed for the fixed reward
 * and the minimum deposit (none), an empty cap means no cap. Returns the fields that are not an amount
 * (at most `exponent` decimals, not negative) instead when any is wrong.
 */
export function promotionMoneyOf(f: PromotionMoneyForm, exponent = 2): { ok: true; value: PromotionMoney } | { ok: false; bad: Array<keyof PromotionMoneyForm> } {
  const rewardAmount = parsePesos(f.rewardAmount, { allowZero: true, exponent });
  const rewardCap = f.rewardCap.trim() ? parsePesos(f.rewardCap, { exponent }) : null;
  const minDeposit = parsePesos(f.minDeposit, { allowZero: true, exponent });
  const bad: Array<keyof PromotionMoneyForm> = [];
  if (rewardAmount === null) bad.push('rewardAmount');
  if (f.rewardCap.trim() && rewardCap === null) bad.push('rewardCap');
  if (minDeposit === null) bad.push('minDeposit');
  if (bad.length > 0 || rewardAmount === null || minDeposit === null) return { ok: false, bad };
  return { ok: true, value: { rewardAmount, rewardCap, minDeposit } };
}
