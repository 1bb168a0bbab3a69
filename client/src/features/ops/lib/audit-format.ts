import { formatMinor } from '@portal/contracts/domain/money';
import { OPERATOR_ROLES, OPS_PERMISSIONS } from '@portal/contracts/api/ops';

/**
 * Audit state fields that hold minor units (withdrawals, deposits, balances, settings, promotions and their
 * envelope drops, red envelopes), shown in major units: an operator read 50000 for a PHP 500.00 envelope.
 */
const MONEY_FIELDS = new Set([
  'amount', 'receivedAmount', 'balance', 'available',
  'depositMin', 'depositMax', 'withdrawMin', 'withdrawMax', 'withdrawDailyMax',
  'rewardAmount', 'rewardCap', 'minDeposit', 'totalAmount', 'minShare', 'grabbedAmount', 'refundedAmount',
]);

/** Known audit actions (the gateway's vocabulary); others show as sent. */
export const AUDIT_ACTIONS = [
  'operator.login', 'operator.logout', 'operator.password',
  'deposit.confirm', 'deposit.reject',
  'withdrawal.approve', 'withdrawal.reject', 'withdrawal.paid', 'withdrawal.unknown', 'withdrawal.reconcile_paid', 'withdrawal.reconcile_failed',
  'balance.adjust', 'member.disable', 'member.enable', 'settings.update',
  'agent.house_contract.grant', 'agent.contract.terminate', 'agent.promote',
  'operator.totp_enrol', 'operator.create', 'operator.update', 'operator.reset', 'permission.denied', 'site.update', 'vendor.update', 'game.update',
  'provider.connect', 'provider.update', 'provider.secret_rotate', 'provider.disconnect',
  'announcement.create', 'announcement.update', 'announcement.delete', 'banner.create', 'banner.update', 'banner.delete',
  'help.create', 'help.update', 'help.delete', 'article.create', 'article.update', 'article.delete', 'content.image.upload',
  'message.campaign', 'envelope.drop', 'feedback.answer', 'chat.close', 'mission.create', 'mission.update',
  'points.config.update', 'points.reward.create', 'points.reward.update', 'points.redeem.approve', 'points.redeem.reject',
  'promotion.create', 'promotion.update', 'promotion.drop.schedule', 'promotion.drop.cancel', 'promotion.reward.approve', 'promotion.reward.reject',
  'rg.family.requested', 'rg.family.approved', 'rg.family.rejected', 'rg.restricted.import', 'rg.restricted.refused',
] as const;
export const AUDIT_TARGET_TYPES = [
  'withdrawal', 'deposit', 'member', 'merchant', 'operator', 'agent_contract', 'action', 'vendor', 'game',
  'announcement', 'banner', 'help', 'article', 'content_image', 'campaign', 'envelope', 'feedback', 'chat', 'mission',
  'points_config', 'point_reward', 'point_redemption', 'promotion', 'promotion_drop', 'promotion_reward', 'rg_family_request', 'rg_restricted_list',
] as const;

/** The translation key of an action ('withdrawal.reconcile_paid' -> 'audit_action_withdrawal_reconcile_paid'). */
export const auditActionKey = (action: string) => `audit_action_${action.replace(/\./g, '_')}`;

/** `items`: a list of words (an operator's roles), each said in the console's language where it can be. */
export type AuditField = { key: string; value: string; changed: boolean; items?: string[] };

/** A group of settings up to this size is shown whole; a longer one only where it changed. */
const GROUP_SHOWN_WHOLE = 6;

/** An ISO instant as the gateway writes it ('2026-12-06T20:53:37.000Z'). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

type FormatTime = (iso: string) => string;

function show(key: string, v: unknown, exponent: number, formatTime?: FormatTime): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number' && MONEY_FIELDS.has(key)) return formatMinor(v, '', exponent);
  // Times on the console's clock, as the page says ("Times: GMT+8"), not in UTC.
  if (typeof v === 'string' && formatTime && ISO_INSTANT.test(v)) return formatTime(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

const asRecord = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/**
 * One side of an audit row as `key: value` pairs (money in major units with the currency's decimals,
 * `exponent`; instants on the console's clock, `formatTime`), each marked `changed` when the other side differs, so the reader sees at a glance what
 * the action did.
 */
export function auditFields(side: unknown, other: unknown, exponent = 2, formatTime?: FormatTime): AuditField[] {
  const rec = asRecord(side);
  if (!rec) return side === null || side === undefined ? [] : [{ key: '', value: show('', side, exponent, formatTime), changed: false }];
  const otherRec = asRecord(other);
  const differs = (a: unknown, b: unknown) => otherRec !== null && JSON.stringify(a) !== JSON.stringify(b);
  return Object.entries(rec).flatMap(([key, v]): AuditField[] => {
    // A group of settings (security, modules, manualBank...) reads as one pair per setting, not as JSON.
    const group = asRecord(v);
    if (group && Object.keys(group).length > 0) {
      const otherGroup = otherRec ? asRecord(otherRec[key]) : null;
      const pairs = Object.entries(group).map(([sub, sv]) => ({ key: `${key}.${sub}`, value: show(sub, sv, exponent, formatTime), changed: differs(otherGroup?.[sub], sv) }));
      // A long group compared with the other side (the 13 module flags) keeps only what changed; the
      // whole state stays in the cell's title.
      return pairs.length > GROUP_SHOWN_WHOLE && otherGroup ? pairs.filter((f) => f.changed) : pairs;
    }
    const items = Array.isArray(v) && v.every((i) => typeof i === 'string') ? (v as string[]) : undefined;
    return [{ key, value: show(key, v, exponent, formatTime), changed: differs(otherRec?.[key], v), ...(items ? { items } : {}) }];
  });
}

/**
 * Audit state fields the console names in its own language (audit_field_<key>; a group's setting is
 * audit_field_<group>_<setting>); any other shows as the API names it.
 */
export const AUDIT_FIELD_LABELS = [
  'ip', 'roles', 'status', 'totpEnrolled', 'path', 'method', 'balance', 'available', 'amount', 'reason', 'account', 'transferId',
  'receivedAmount', 'payoutReference', 'failureReason', 'mustChangePassword', 'via', 'username', 'siteName', 'logoUrl', 'videoUrl',
  'colors', 'gtagId', 'imageCDNs', 'launchGameCDNs', 'state', 'launchUrl', 'secretSetAt', 'title', 'enabled', 'note', 'kind', 'duration',
  'endsAt', 'startAt', 'endAt', 'quantity', 'pointsRequired', 'betPerPoint', 'minorPerPoint', 'minConvert', 'totalAmount', 'shares', 'minShare',
  'code', 'name', 'category', 'maintenance', 'hot', 'sort', 'language', 'answer', 'recipients', 'count', 'decision', 'proof',
  'id', 'revocableFrom', 'source', 'request', 'relationship', 'requesterName', 'endedAt', 'until',
  'depositMin', 'depositMax', 'withdrawMin', 'withdrawMax', 'withdrawDailyMax', 'autoReceiveMinutes',
  'period', 'appliesFrom', 'realityCheckMinutes', 'sessionLimitMinutes',
] as const;
const FIELD_LABELS: ReadonlySet<string> = new Set(AUDIT_FIELD_LABELS);
/**
 * Settings the console already names on their own pages (/ops/site's login security, /ops/settings'
 * manual bank account): the audit trail says them the same way. Module flags (`modules.<CODE>`) are
 * named by their `module_<CODE>` label. They showed as `security.botCheck`, `modules.TRANSREC3`, in TY too.
 */
export const AUDIT_FIELD_ALIASES: Readonly<Record<string, string>> = {
  'security.botCheck': 'site_bot_check',
  'security.newIpVerification': 'site_new_ip',
  'security.captchaAfterFailures': 'site_captcha_after',
  'security.passwordMaxAgeDays': 'site_password_max_age',
  manualBank: 'bank_title',
  'manualBank.bankName': 'bank_bankName',
  'manualBank.accountName': 'bank_accountName',
  'manualBank.accountNumber': 'bank_accountNumber',
};
/** Values the console says in its own language (statuses, yes and no): audit_value_<value>. */
export const AUDIT_VALUE_LABELS = [
  'true', 'false', 'active', 'disabled', 'requested', 'approved', 'pending', 'paid', 'rejected', 'failed', 'held', 'received',
  'partially_received', 'not_received', 'auto_received', 'cancelled', 'scheduled', 'dropped', 'connected', 'disconnected', 'processing',
  'family', 'support', 'operator', 'self', 'cooling', 'restricted', 'spouse', 'parent', 'adult_child', 'sibling', 'other',
  // an RG limit's kind and period (they showed as "deposit", "day" in TY too)
  'deposit', 'loss', 'wager', 'day', 'week', 'month',
] as const;
const VALUE_LABELS: ReadonlySet<string> = new Set(AUDIT_VALUE_LABELS);

/** The translation key of a field's name, or null when the console has none (it shows the API's). */
export function auditFieldKey(key: string): string | null {
  const alias = AUDIT_FIELD_ALIASES[key];
  if (alias) return alias;
  if (/^modules\.[A-Z0-9]+$/.test(key)) return `module_${key.slice('modules.'.length)}`;
  const flat = key.replace(/\./g, '_');
  const top = key.split('.')[0]!;
  return FIELD_LABELS.has(key) ? `audit_field_${key}` : FIELD_LABELS.has(top) && top !== key ? `audit_field_${flat}` : null;
}
/**
 * The translation key of a shown value, or null when it is shown as it is. A member's `disabled` is the
 * account frozen (the player page's word; "disabled" here read as another state), and a role in `roles`
 * is named as the console names it (`role_<role>`).
 */
export function auditValueKey(value: string, field?: string, targetType?: string): string | null {
  if (field === 'roles' && (OPERATOR_ROLES as readonly string[]).includes(value)) return `role_${value}`;
  if (targetType === 'member' && field === 'status' && value === 'disabled') return 'audit_value_member_disabled';
  return VALUE_LABELS.has(value) ? `audit_value_${value}` : null;
}

/**
 * The translation key of an audit target's name where the console has one: a refused call's target is
 * the permission it lacked (`action` #envelopes.drop), named `perm_envelopes_drop`.
 */
export function auditTargetLabelKey(targetType: string, targetId: string): string | null {
  return targetType === 'action' && Object.hasOwn(OPS_PERMISSIONS, targetId) ? `perm_${targetId.replace(/\./g, '_')}` : null;
}
