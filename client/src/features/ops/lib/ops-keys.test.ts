import { describe, expect, it } from 'vitest';
import { DEPOSIT_STATUSES } from '@portal/contracts/api/cashier';
import { OPERATOR_ROLES } from '@portal/contracts/api/ops';
import { MODULE_FLAGS } from '@portal/contracts/domain/constants';
import { WITHDRAWAL_STATUSES } from '@portal/contracts/events/events';
import en from '../../../i18n/locales/en/ops.json';
import ty from '../../../i18n/locales/ty/ops.json';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, auditActionKey } from './audit-format';
import { MONEY_SETTINGS } from './settings-form';
import { WITHDRAWAL_TABS } from './withdrawal-actions';
import { CONTRACT_END_REASONS, CONTRACT_KINDS, CONTRACT_STATUSES } from '@portal/contracts/domain/agent-contracts';
import { PERIOD_TYPES } from '@portal/contracts/domain/agent-periods';
import { DISPUTE_STATUSES, PAYOUT_STATUSES } from '@portal/contracts/api/agent-payouts';

/** Keys built at run time (t(`withdrawal_status_${s}`)): the locale test only sees literal keys. */
const dynamicKeys = [
  ...WITHDRAWAL_STATUSES.map((s) => `withdrawal_status_${s}`),
  ...DEPOSIT_STATUSES.map((s) => `deposit_status_${s}`),
  ...OPERATOR_ROLES.map((r) => `role_${r}`),
  ...(['approve', 'reject', 'paid', 'unknown', 'reconcilePaid', 'reconcileFailed'] as const).flatMap((a) => [`action_${a}`, `action_${a}_title`]),
  ...AUDIT_ACTIONS.map(auditActionKey),
  ...AUDIT_TARGET_TYPES.map((tt) => `target_${tt}`),
  ...[...MONEY_SETTINGS, 'autoReceiveMinutes'].map((k) => `setting_${k}`),
  ...['amount', 'minutes', 'below_min', 'below_max'].map((e) => `settings_error_${e}`),
  ...['manual', 'all'].map((p) => `provider_filter_${p}`),
  ...WITHDRAWAL_TABS.filter((tab) => tab !== 'done').map((s) => `withdrawal_status_${s}`),
  ...CONTRACT_KINDS.map((k) => `contract_kind_${k}`),
  ...CONTRACT_STATUSES.map((s) => `contract_status_${s}`),
  ...CONTRACT_END_REASONS.map((r) => `contract_end_${r}`),
  ...PERIOD_TYPES.map((p) => `contract_period_${p}`),
  ...['active', 'disabled'].map((s) => `member_status_${s}`),
  ...DISPUTE_STATUSES.map((s) => `dispute_status_${s}`),
  ...PAYOUT_STATUSES.map((s) => `payout_status_${s}`),
  ...(['rejected', 'adjusted'] as const).map((d) => `disputes_decide_${d}`),
  ...MODULE_FLAGS.map((f) => `module_${f}`),
];

describe('ops translations', () => {
  it('has every key built at run time in EN and TY', () => {
    const missing = dynamicKeys.flatMap((k) => [
      ...(k in en ? [] : [`EN ${k}`]),
      ...(k in ty ? [] : [`TY ${k}`]),
    ]);
    expect(missing).toEqual([]);
  });
});
