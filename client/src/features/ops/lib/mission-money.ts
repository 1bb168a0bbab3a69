import { isMoneyKind, type TMissionKind } from '@portal/contracts/domain/missions';
import { parsePesos, toPesosInput } from './money-input';

/** A mission's target and reward as the form holds them, as typed: major units ("500", "88.50"; VND "50,000"), or a count for a count target ("3"). */
export type MissionMoneyForm = { target: string; reward: string };
/** The same as the API takes them: integer minor units for money, the count as is. */
export type MissionMoney = { target: number; rewardAmount: number };

/** Stored values -> the form: minor units shown as major units (the currency's `exponent`); a count kind's target stays the count. */
export function missionMoneyForm(m: { kind: TMissionKind; target: number; rewardAmount: number } | null, exponent = 2): MissionMoneyForm {
  if (!m) return { target: '', reward: '' };
  return { target: isMoneyKind(m.kind) ? toPesosInput(m.target, exponent) : String(m.target), reward: toPesosInput(m.rewardAmount, exponent) };
}

/** A whole count above zero ("3", "1,000"), else null. */
const countOf = (v: string): number | null => {
  const s = v.trim().replace(/,/g, '');
  return /^\d{1,13}$/.test(s) && Number(s) > 0 ? Number(s) : null;
};

/**
 * The form -> the API: the reward, and the target of a money kind (valid_bet, game_bet, deposit), are
 * major units of the currency (`exponent`: for PHP "50" is ₱50.00 = 5000 centavos, never 50 centavos;
 * for VND "50,000" is ₫50,000); a count kind's target (bets, login days) is a whole number. Both must be
 * above zero. Returns the fields that are wrong instead when any is.
 */
export function missionMoneyOf(kind: TMissionKind, f: MissionMoneyForm, exponent = 2): { ok: true; value: MissionMoney } | { ok: false; bad: Array<keyof MissionMoneyForm> } {
  const target = isMoneyKind(kind) ? parsePesos(f.target, { exponent }) : countOf(f.target);
  const rewardAmount = parsePesos(f.reward, { exponent });
  const bad: Array<keyof MissionMoneyForm> = [];
  if (target === null) bad.push('target');
  if (rewardAmount === null) bad.push('reward');
  if (target === null || rewardAmount === null) return { ok: false, bad };
  return { ok: true, value: { target, rewardAmount } };
}
