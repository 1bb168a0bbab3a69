import type { TFunction } from 'i18next';
import type { TPayoutStatement, TStatementStep } from '@portal/contracts/api/agent-payouts';
import { percentOf } from '../contracts/api';

/** Params of a step that are rates (basis points) or counts; every other param is an amount in minor units. */
const RATE_PARAMS: ReadonlySet<string> = new Set(['rate', 'effectiveRate']);
const COUNT_PARAMS: ReadonlySet<string> = new Set(['activeMembers', 'activeMembersRequired']);

/** A step's numbers as text: amounts with `money`, rates as percentages, counts as they are. */
export function stepValues(step: TStatementStep, money: (minor: number) => string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(step.params as Record<string, number>).map(([k, v]) => [k, RATE_PARAMS.has(k) ? percentOf(v) : COUNT_PARAMS.has(k) ? String(v) : money(v)]),
  );
}

/**
 * One step of a payout statement in the reader's language (namespace agents, `payouts.steps.<code>`);
 * the anomaly step names the statement's anomaly (`payouts.anomalyName.<code>`).
 */
export function stepText(t: TFunction, step: TStatementStep, money: (minor: number) => string, anomaly: TPayoutStatement['anomaly']): string {
  const values = stepValues(step, money);
  const extra = step.code === 'anomaly' && anomaly ? { anomaly: t(`agents:payouts.anomalyName.${anomaly}`) } : {};
  return t(`agents:payouts.steps.${step.code}`, { ...values, ...extra });
}
