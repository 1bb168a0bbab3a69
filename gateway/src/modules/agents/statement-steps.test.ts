import { describe, expect, it } from 'vitest';
import { statementSteps } from './settlement.ts';

/** The explanation steps of a payout statement, from its figures (pure: no database). */
const base = {
  kind: 'dividend' as const, team: { validBets: 500_000, profitLoss: -200_000, netLoss: 200_000, activeMembers: 3 }, base: 200_000,
  carryOverEnabled: true, carryIn: -50_000, adjustedBase: 150_000, carryOut: 0, rate: 3000, effectiveRate: 3000, amount: 45_000,
  anomaly: null, downlinesTook: 0, kept: 45_000, lines: [],
  conditions: { activeMembers: { required: 2, actual: 3 }, betAmount: { required: 100_000, actual: 500_000 }, isMet: true },
};
const codes = (s: Parameters<typeof statementSteps>[0]) => statementSteps(s).map((x) => x.code);

describe('statement steps', () => {
  it('a dividend with carry-over on shows it; a salary never does (its base cannot be negative)', () => {
    expect(codes(base)).toEqual(['team', 'baseNetLoss', 'baseWithCarry', 'conditionsMet', 'amount']);
    expect(codes({ ...base, carryIn: 0, adjustedBase: -10_000, amount: 0, kept: 0, carryOut: -10_000, base: -10_000 }))
      .toEqual(['team', 'baseNetLoss', 'baseWithCarry', 'conditionsMet', 'amountNoBase', 'carriedOut']);
    const wages = { ...base, kind: 'dailyWages' as const, base: 500_000, carryIn: 0, adjustedBase: 500_000 };
    expect(codes(wages)).toEqual(['team', 'baseValidBets', 'conditionsMet', 'amount']);
  });

  it('names the conditions only when the contract sets some ("3 of 0 required" said nothing)', () => {
    const none = { ...base, conditions: { activeMembers: { required: 0, actual: 3 }, betAmount: { required: 0, actual: 500_000 }, isMet: true } };
    expect(statementSteps(none).find((x) => x.code.startsWith('condition') || x.code === 'noConditions')).toEqual({ code: 'noConditions', params: {} });
    const unmet = { ...base, conditions: { activeMembers: { required: 4, actual: 3 }, betAmount: { required: 0, actual: 500_000 }, isMet: false } };
    expect(codes(unmet)).toEqual(['team', 'baseNetLoss', 'baseWithCarry', 'conditionsNotMet', 'amountConditionsNotMet']);
  });
});
