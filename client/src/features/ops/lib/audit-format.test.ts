import { describe, expect, it } from 'vitest';
import { auditActionKey, auditFields } from './audit-format';

describe('auditFields', () => {
  it('shows money fields in pesos and marks what changed', () => {
    const before = { status: 'requested', amount: 150000, reason: null };
    const after = { status: 'approved', amount: 150000, reason: null };
    expect(auditFields(after, before)).toEqual([
      { key: 'status', value: 'approved', changed: true },
      { key: 'amount', value: '1,500.00', changed: false },
      { key: 'reason', value: '—', changed: false },
    ]);
  });

  it('marks every field changed when the other side has none of them', () => {
    expect(auditFields({ balance: -500 }, {})).toEqual([{ key: 'balance', value: '-5.00', changed: true }]);
  });

  it('does not mark anything when there is no other side', () => {
    expect(auditFields({ ip: '127.0.0.1' }, null)).toEqual([{ key: 'ip', value: '127.0.0.1', changed: false }]);
  });

  it('reads nothing from null and shows scalars as they are', () => {
    expect(auditFields(null, { a: 1 })).toEqual([]);
    expect(auditFields('x', null)).toEqual([{ key: '', value: 'x', changed: false }]);
  });
});

describe('auditActionKey', () => {
  it('makes a flat translation key', () => {
    expect(auditActionKey('withdrawal.reconcile_paid')).toBe('audit_action_withdrawal_reconcile_paid');
  });
});
