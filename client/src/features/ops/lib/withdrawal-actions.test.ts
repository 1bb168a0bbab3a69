import { describe, expect, it } from 'vitest';
import { WITHDRAWAL_TRANSITIONS, type WithdrawalStatus } from '@portal/contracts/api/cashier';
import { WITHDRAWAL_STATUSES } from '@portal/contracts/events/events';
import { DONE_STATUSES, WITHDRAWAL_TABS, tabOfStatus, withdrawalActionsFor } from './withdrawal-actions';

describe('withdrawalActionsFor', () => {
  it('offers the operator actions of each legal transition', () => {
    expect(withdrawalActionsFor('requested')).toEqual(['approve', 'reject']);
    expect(withdrawalActionsFor('approved')).toEqual(['paid', 'reject', 'unknown']);
    expect(withdrawalActionsFor('held')).toEqual(['reconcilePaid', 'reconcileFailed']);
  });

  it('offers nothing once paid (the player confirms) or final', () => {
    for (const s of ['paid', 'rejected', 'received', 'partially_received', 'not_received', 'auto_received'] as const) {
      expect(withdrawalActionsFor(s)).toEqual([]);
    }
  });

  it('never offers more actions than the status has legal transitions', () => {
    for (const s of WITHDRAWAL_STATUSES) expect(withdrawalActionsFor(s).length).toBeLessThanOrEqual(WITHDRAWAL_TRANSITIONS[s].length);
  });
});

describe('tabs', () => {
  it('lists every status under exactly one tab', () => {
    const seen = new Map<string, WithdrawalStatus[]>();
    for (const s of WITHDRAWAL_STATUSES) seen.set(tabOfStatus(s), [...(seen.get(tabOfStatus(s)) ?? []), s]);
    expect([...seen.keys()].sort()).toEqual([...WITHDRAWAL_TABS].sort());
    expect(seen.get('done')).toEqual([...DONE_STATUSES]);
  });

  it('done holds the final statuses', () => {
    expect([...DONE_STATUSES].sort()).toEqual(['auto_received', 'not_received', 'partially_received', 'received', 'rejected']);
  });
});
