import { describe, expect, it } from 'vitest';
import { isConfirmable, limitEventDetail } from './rg-panel';

describe('a requested limit increase', () => {
  it('offers Confirm only once it may apply (24 hours after the request), never before or without one', () => {
    const from = '2026-12-06T13:31:00.000Z';
    expect(isConfirmable(from, Date.parse('2026-12-05T13:31:00.000Z'))).toBe(false);
    expect(isConfirmable(from, Date.parse(from) - 1)).toBe(false);
    expect(isConfirmable(from, Date.parse(from))).toBe(true);
    expect(isConfirmable(from, Date.parse('2026-12-07T00:00:00.000Z'))).toBe(true);
    expect(isConfirmable(null, Date.now())).toBe(false);
  });
});

describe('the history of limits', () => {
  const label = (k: string) => ({ rg_kind_wager: 'Wagers', rg_period_day: 'Day', rg_none: 'None' } as Record<string, string>)[k] ?? k;
  const money = (n: number) => `₱${(n / 100).toFixed(2)}`;
  it('names the kind, the period and the amount, old to new when it changed', () => {
    expect(limitEventDetail({ action: 'rg.limit.set', before: { kind: 'wager', period: 'day', amount: null }, after: { kind: 'wager', period: 'day', amount: 200000 } }, label, money)).toBe('Wagers · Day · None → ₱2000.00');
    expect(limitEventDetail({ action: 'rg.limit.change_requested', before: { kind: 'wager', period: 'day', amount: 200000 }, after: { kind: 'wager', period: 'day', amount: 900000, appliesFrom: 'x' } }, label, money)).toBe('Wagers · Day · ₱2000.00 → ₱9000.00');
    expect(limitEventDetail({ action: 'rg.limit.confirmed', before: { kind: 'wager', period: 'day', amount: 900000 }, after: { kind: 'wager', period: 'day', amount: 900000 } }, label, money)).toBe('Wagers · Day · ₱9000.00');
    expect(limitEventDetail({ action: 'rg.limit.set', before: { kind: 'wager', period: 'day' }, after: { kind: 'wager', period: 'day', amount: null } }, label, money)).toBe('Wagers · Day · None');
  });
  it('says nothing of other events or of data it does not know', () => {
    expect(limitEventDetail({ action: 'rg.exclusion.start', before: undefined, after: { kind: 'cooling' } }, label, money)).toBe('');
    expect(limitEventDetail({ action: 'rg.limit.set', before: null, after: null }, label, money)).toBe('');
  });
});
