import { formatMinor } from '@portal/contracts/domain/money';

/** Audit state fields that hold centavos (withdrawals, deposits, balances, settings). */
const MONEY_FIELDS = new Set([
  'amount', 'receivedAmount', 'balance', 'available',
  'depositMin', 'depositMax', 'withdrawMin', 'withdrawMax', 'withdrawDailyMax',
]);

/** Known audit actions (the gateway's vocabulary); others show as sent. */
export const AUDIT_ACTIONS = [
  'operator.login', 'operator.logout', 'operator.password',
  'deposit.confirm', 'deposit.reject',
  'withdrawal.approve', 'withdrawal.reject', 'withdrawal.paid', 'withdrawal.unknown', 'withdrawal.reconcile_paid', 'withdrawal.reconcile_failed',
  'balance.adjust', 'member.disable', 'member.enable', 'settings.update',
  'agent.house_contract.grant', 'agent.contract.terminate', 'agent.promote',
  'operator.totp_enrol', 'operator.create', 'operator.update', 'permission.denied', 'site.update', 'vendor.update', 'game.update',
] as const;
export const AUDIT_TARGET_TYPES = ['withdrawal', 'deposit', 'member', 'merchant', 'operator', 'agent_contract', 'action', 'vendor', 'game'] as const;

/** The translation key of an action ('withdrawal.reconcile_paid' -> 'audit_action_withdrawal_reconcile_paid'). */
export const auditActionKey = (action: string) => `audit_action_${action.replace(/\./g, '_')}`;

export type AuditField = { key: string; value: string; changed: boolean };

function show(key: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number' && MONEY_FIELDS.has(key)) return formatMinor(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

const asRecord = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/**
 * One side of an audit row as `key: value` pairs (money as pesos), each marked `changed` when
 * the other side differs, so the reader sees at a glance what the action did.
 */
export function auditFields(side: unknown, other: unknown): AuditField[] {
  const rec = asRecord(side);
  if (!rec) return side === null || side === undefined ? [] : [{ key: '', value: show('', side), changed: false }];
  const otherRec = asRecord(other);
  return Object.entries(rec).map(([key, v]) => ({
    key,
    value: show(key, v),
    changed: otherRec !== null && JSON.stringify(otherRec[key]) !== JSON.stringify(v),
  }));
}
