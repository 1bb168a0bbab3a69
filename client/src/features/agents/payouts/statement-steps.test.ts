import { beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_STEP_CODES, ZStatementStep, type TStatementStep } from '@portal/contracts/api/agent-payouts';
import { SETTLEMENT_ANOMALIES } from '@portal/contracts/domain/agent-settlement';
import { formatMinor } from '@portal/contracts/domain/money';
import { i18n } from '../../../i18n/i18n';
import { stepText, stepValues } from './statement-steps';

const money = (minor: number) => formatMinor(minor, '₱');

/** One step of every code with numbers, so each wording is rendered in each language. */
const SAMPLE: Record<TStatementStep['code'], TStatementStep['params']> = {
  team: { validBets: 1_000_000, profitLoss: -600_000, activeMembers: 3 },
  baseNetLoss: { base: 600_000 },
  baseValidBets: { base: 1_000_000 },
  baseWithCarry: { base: 600_000, carryIn: -100_000, adjustedBase: 500_000 },
  conditionsMet: { activeMembers: 3, activeMembersRequired: 2, betAmount: 1_000_000, betAmountRequired: 500_000 },
  conditionsNotMet: { activeMembers: 1, activeMembersRequired: 2, betAmount: 1_000_000, betAmountRequired: 500_000 },
  noConditions: {},
  rateCapped: { rate: 300, effectiveRate: 250 },
  amount: { base: 1_000_000, rate: 200, amount: 20_000 },
  amountNoBase: { base: -5_000 },
  amountConditionsNotMet: {},
  anomaly: {},
  passedOn: { amount: 20_000, downlinesTook: 10_000, kept: 10_000 },
  carriedOut: { carryOut: -100_000 },
};
const steps = STATEMENT_STEP_CODES.map((code) => ZStatementStep.parse({ code, params: SAMPLE[code] }));

// Texts load on demand (i18n/i18n.ts): both languages' agent namespaces first.
beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agents', 'agent-office']);
  }
});

describe('payout statement steps', () => {
  it('formats amounts as money, rates as percentages and counts as numbers', () => {
    expect(stepValues(steps.find((s) => s.code === 'amount')!, money)).toEqual({ base: money(1_000_000), rate: '2%', amount: money(20_000) });
    expect(stepValues(steps.find((s) => s.code === 'conditionsMet')!, money)).toMatchObject({ activeMembers: '3', activeMembersRequired: '2' });
  });

  it.each(['EN', 'TY'])('words every step code in %s with all its numbers and no placeholder left', async (lang) => {
    await i18n.changeLanguage(lang);
    const t = i18n.getFixedT(lang);
    for (const step of steps) {
      const key = `agents:payouts.steps.${step.code}`;
      expect([lang, step.code, i18n.exists(key, { lng: lang, fallbackLng: [] })]).toEqual([lang, step.code, true]);
      const text = stepText(t, step, money, 'RATE_ABOVE_UPLINE');
      expect(text).not.toMatch(/\{\{|payouts\./);
      for (const v of Object.values(stepValues(step, money))) expect([step.code, text.includes(v)]).toEqual([step.code, true]);
    }
    expect(stepText(t, steps.find((s) => s.code === 'amount')!, money, null)).toContain('2%');
  });

  it.each(['EN', 'TY'])('names every settlement anomaly in %s', (lang) => {
    for (const a of SETTLEMENT_ANOMALIES) expect([a, i18n.exists(`agents:payouts.anomalyName.${a}`, { lng: lang, fallbackLng: [] })]).toEqual([a, true]);
  });
});
