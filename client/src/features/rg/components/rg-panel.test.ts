import { describe, expect, it } from 'vitest';
import { breaksOffered, isConfirmable, limitEventDetail, withCurrent } from './rg-panel';

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
  it('names the reality check and the session time a session event set', () => {
    const l = (k: string, o?: { count: number }) => (k === 'rg_minutes' ? `${o!.count} minutes` : ({ rg_reality_check: 'Remind me every', rg_session_limit: 'End my session after', rg_off: 'Off' } as Record<string, string>)[k] ?? k);
    expect(limitEventDetail({ action: 'rg.session.set', before: undefined, after: { realityCheckMinutes: 30, sessionLimitMinutes: null } }, l, money))
      .toBe('Remind me every: 30 minutes · End my session after: Off');
    expect(limitEventDetail({ action: 'rg.session.set', before: undefined, after: { realityCheckMinutes: null, sessionLimitMinutes: 120 } }, l, money))
      .toBe('Remind me every: Off · End my session after: 120 minutes');
    expect(limitEventDetail({ action: 'rg.session.set', before: undefined, after: null }, l, money)).toBe('');
  });
  it('says nothing of other events or of data it does not know', () => {
    expect(limitEventDetail({ action: 'rg.exclusion.start', before: undefined, after: { kind: 'cooling' } }, label, money)).toBe('');
    expect(limitEventDetail({ action: 'rg.limit.set', before: null, after: null }, label, money)).toBe('');
  });
});

describe('a limit amount typed on the RG page', () => {
  it('is a whole amount above 0 in minor units; empty removes the limit; 0, decimals and words are refused on the page', async () => {
    const { toMinor } = await import('./rg-panel');
    expect(toMinor('50', 2)).toBe(5000);
    expect(toMinor(' 7 ', 0)).toBe(7);
    expect(toMinor('', 2)).toBeNull();
    for (const bad of ['0', '00', '12.345', '-1', 'abc', '1e3']) expect(Number.isNaN(toMinor(bad, 2)), bad).toBe(true);
  });
});

describe('the breaks offered', () => {
  const now = Date.parse('2026-12-07T00:00:00.000Z');
  it('offers every break without an exclusion', () => {
    expect(breaksOffered(null, now)).toEqual({ cooling: ['24h', '7d', '30d'], self: ['6m', '1y', '5y'] });
  });
  it('during one, only those that end after it (the server refuses a shorter one)', () => {
    expect(breaksOffered({ endsAt: '2026-12-14T00:00:00.000Z' }, now)).toEqual({ cooling: ['30d'], self: ['6m', '1y', '5y'] });
    // the 7 days ending exactly with it would change nothing: not offered
    expect(breaksOffered({ endsAt: '2026-12-14T00:00:00.000Z' }, now).cooling).not.toContain('7d');
    expect(breaksOffered({ endsAt: '2027-06-07T00:00:00.000Z' }, now)).toEqual({ cooling: [], self: ['1y', '5y'] });
  });
  it('none during an exclusion without an end', () => {
    expect(breaksOffered({ endsAt: null }, now)).toEqual({ cooling: [], self: [] });
  });
});

describe('the session choices', () => {
  it('include the one in force when it is not among them, in order', () => {
    expect(withCurrent([15, 30, 60, 120], 5)).toEqual([5, 15, 30, 60, 120]);
    expect(withCurrent([30, 60, 120, 240], 1440)).toEqual([30, 60, 120, 240, 1440]);
    expect(withCurrent([15, 30, 60, 120], 30)).toEqual([15, 30, 60, 120]);
    expect(withCurrent([15, 30, 60, 120], null)).toEqual([15, 30, 60, 120]);
  });
});
