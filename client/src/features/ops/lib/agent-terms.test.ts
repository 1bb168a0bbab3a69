import { describe, expect, it } from 'vitest';
import { ZContractTerms } from '@portal/contracts/domain/agent-contracts';
import { EMPTY_TERMS, formatRate, parseRatePercent, termsFromForm } from './agent-terms';

describe('agent contract terms in the back office', () => {
  it('formats basis points as a percent', () => {
    expect(formatRate(250)).toBe('2.5%');
    expect(formatRate(10_000)).toBe('100%');
    expect(formatRate(1)).toBe('0.01%');
    expect(formatRate(305)).toBe('3.05%');
  });

  it('reads a percent into basis points, refusing what is not one', () => {
    expect(parseRatePercent('2.5')).toBe(250);
    expect(parseRatePercent(' 3.05% ')).toBe(305);
    expect(parseRatePercent('100')).toBe(10_000);
    for (const bad of ['', '0', '0.00', '100.01', '1.234', '-1', 'abc', '1e2', '101']) expect(parseRatePercent(bad), bad).toBeNull();
  });

  it('builds valid terms per kind and names every problem', () => {
    const div = termsFromForm({ ...EMPTY_TERMS, kind: 'dividend', rate: '30', period: 'weekly', activeMembers: '5', betAmount: '1,000.50' });
    expect(div).toEqual({ ok: true, terms: { kind: 'dividend', rate: 3000, activeMembers: 5, betAmount: 100_050, profitLossPeriod: 'weekly' } });
    const wages = termsFromForm({ ...EMPTY_TERMS, kind: 'realtimeSalary', rate: '0.5' });
    expect(wages.ok && ZContractTerms.parse(wages.terms)).toMatchObject({ kind: 'realtimeSalary', rate: 50, validBetPeriod: 'fiveMinutes' });
    // a salary above 5 % is out of the kind's range, a dividend of 30 % is not
    expect(termsFromForm({ ...EMPTY_TERMS, kind: 'dailyWages', rate: '6' })).toEqual({ ok: false, problems: ['rateRange'] });
    expect(termsFromForm({ ...EMPTY_TERMS, rate: 'x', activeMembers: '-1', betAmount: 'lots' })).toEqual({ ok: false, problems: ['rate', 'activeMembers', 'betAmount'] });
  });
});
