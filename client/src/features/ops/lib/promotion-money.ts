import { parsePesos, toPesosInput } from './money-input';

/** A promotion's money terms as the form holds them: pesos, as typed ("100", "1,250.50"). */
export type PromotionMoneyForm = { rewardAmount: string; rewardCap: string; minDeposit: string };
/** The same terms as the API takes them: integer centavos (the cap null when none). */
export type PromotionMoney = { rewardAmount: number; rewardCap: number | null; minDeposit: number };

/** Stored centavos -> the form's pesos (an empty cap is "no cap"). */
export function promotionMoneyForm(p: PromotionMoney | null): PromotionMoneyForm {
  return {
    rewardAmount: toPesosInput(p?.rewardAmount ?? 0),
    rewardCap: p?.rewardCap != null ? toPesosInput(p.rewardCap) : '',
    minDeposit: toPesosInput(p?.minDeposit ?? 0),
  };
}

/**
 * The form's pesos -> centavos for the API: "100" is ₱100.00 = 10000, never 100 centavos. Zero is
 * allowed for the fixed reward and the minimum deposit (none), an empty cap means no cap. Returns the
 * fields that are not a peso amount (at most 2 decimals, not negative) instead when any is wrong.
 */
export function promotionMoneyOf(f: PromotionMoneyForm): { ok: true; value: PromotionMoney } | { ok: false; bad: Array<keyof PromotionMoneyForm> } {
  const rewardAmount = parsePesos(f.rewardAmount, { allowZero: true });
  const rewardCap = f.rewardCap.trim() ? parsePesos(f.rewardCap) : null;
  const minDeposit = parsePesos(f.minDeposit, { allowZero: true });
  const bad: Array<keyof PromotionMoneyForm> = [];
  if (rewardAmount === null) bad.push('rewardAmount');
  if (f.rewardCap.trim() && rewardCap === null) bad.push('rewardCap');
  if (minDeposit === null) bad.push('minDeposit');
  if (bad.length > 0 || rewardAmount === null || minDeposit === null) return { ok: false, bad };
  return { ok: true, value: { rewardAmount, rewardCap, minDeposit } };
}
