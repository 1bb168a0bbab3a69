import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { WITHDRAWAL_STATUSES } from '../events/events.ts';
import { DEPOSIT_STATUSES, ZAmount, ZDeposit, ZPageQuery, ZRequestId, ZWithdrawal, zPage } from './cashier.ts';

/**
 * The operator back office under /ops/api: operators are not members. They sign in with their own
 * credentials and send `Authorization: Bearer <operator token>`; a member token is refused. Every
 * action writes an audit row in the same transaction.
 */
export const OPS_PREFIX = '/ops/api';
export const OPERATOR_ROLES = ['admin', 'cashier', 'auditor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
/** Who may do what: auditors read only; settings and balance adjustments need an admin. */
export const OPS_PERMISSIONS = {
  read: ['admin', 'cashier', 'auditor'],
  cashier: ['admin', 'cashier'],
  admin: ['admin'],
} as const satisfies Record<string, readonly OperatorRole[]>;

export const ZOpsLoginBody = z.object({ username: z.string().trim().toLowerCase().max(32), password: z.string().max(128) }).strict();
export const ZOpsLoginValue = z.object({
  token: z.string(),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  /** The password must be changed before anything else is allowed. */
  mustChangePassword: z.boolean(),
});
export const ZOpsPasswordBody = z
  .object({ oldPassword: z.string().max(128), newPassword: z.string().min(10).max(128), confirmNewPassword: z.string().max(128) })
  .strict();

export const ZOpsDeposit = ZDeposit.extend({ memberId: z.number().int(), account: z.string(), failureReason: z.string().nullable() });
export const ZOpsDepositQuery = ZPageQuery.extend({
  status: z.enum(DEPOSIT_STATUSES).default('pending'),
  provider: z.string().max(32).optional(),
}).strict();
export const ZOpsNoteBody = z.object({ note: z.string().trim().max(500).optional() }).strict();
export const ZOpsReasonBody = z.object({ reason: z.string().trim().min(2).max(500) }).strict();

export const ZOpsWithdrawal = ZWithdrawal.extend({ memberId: z.number().int(), account: z.string(), payoutReference: z.string().nullable(), fullAccountNumber: z.string() });
export const ZOpsWithdrawalQuery = ZPageQuery.extend({ status: z.enum(WITHDRAWAL_STATUSES).default('requested') }).strict();
export const ZOpsPaidBody = z.object({ payoutReference: z.string().trim().max(128).optional() }).strict();
export const ZOpsReconcileBody = z
  .object({ outcome: z.enum(['paid', 'failed']), note: z.string().trim().min(2).max(500), payoutReference: z.string().trim().max(128).optional() })
  .strict();

/** A manual balance adjustment against the merchant's 'adjustment' account: positive credits the member. */
export const ZOpsAdjustmentBody = z
  .object({
    account: z.string().trim().max(64),
    amount: z.number().int().refine((n) => n !== 0 && Math.abs(n) <= 1_000_000_000_000, 'non-zero amount'),
    reason: z.string().trim().min(3).max(500),
    requestId: ZRequestId,
  })
  .strict();
export const ZOpsAdjustmentValue = z.object({ transferId: z.string(), memberId: z.number().int(), balance: z.number().int(), available: z.number().int(), replayed: z.boolean() });

export const ZOpsSettings = z.object({
  depositMin: ZAmount,
  depositMax: ZAmount,
  withdrawMin: ZAmount,
  withdrawMax: ZAmount,
  withdrawDailyMax: ZAmount,
  autoReceiveMinutes: z.number().int().min(1).max(10080),
});
export type TOpsSettings = z.infer<typeof ZOpsSettings>;

export const ZAuditEntry = z.object({
  id: z.string(),
  operator: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  at: z.string(),
});
export const ZAuditQuery = ZPageQuery.extend({ action: z.string().max(64).optional(), targetType: z.string().max(32).optional(), targetId: z.string().max(64).optional() }).strict();

const NoQuery = z.object({}).strict();
const p = (s: string) => `${OPS_PREFIX}${s}`;

/** Disable (sessions end, sockets close at once) or re-enable a member account. */
export const ZOpsMemberStatusBody = z.object({ status: z.enum(['active', 'disabled']), reason: z.string().trim().min(1).max(500) }).strict();
export const ZOpsMemberStatus = z.object({ memberId: z.number().int(), account: z.string(), status: z.enum(['active', 'disabled']) });

export const opsCalls = {
  login: defineCall({ method: 'POST', path: p('/session/login'), auth: false, body: ZOpsLoginBody, value: ZOpsLoginValue }),
  logout: defineCall({ method: 'DELETE', path: p('/session'), auth: true, value: z.object({}) }),
  me: defineCall({ method: 'GET', path: p('/session'), auth: true, query: NoQuery, value: ZOpsLoginValue.omit({ token: true }) }),
  changePassword: defineCall({ method: 'POST', path: p('/session/password'), auth: true, body: ZOpsPasswordBody, value: z.object({ changed: z.literal(true) }) }),
  /** Keep this operator session's token in an HttpOnly cookie readable only by `restoreSession`, so a reload finds it. */
  keepSession: defineCall({ method: 'POST', path: p('/session/keep'), auth: true, body: z.object({}).strict(), value: z.object({}) }),
  /** The kept operator token (from that cookie) when it is still live for this merchant; null otherwise. */
  restoreSession: defineCall({ method: 'GET', path: p('/session/keep'), auth: false, query: NoQuery, value: z.object({ token: z.string().nullable() }) }),

  deposits: defineCall({ method: 'GET', path: p('/deposits'), auth: true, query: ZOpsDepositQuery, value: zPage(ZOpsDeposit) }),
  confirmDeposit: defineCall({ method: 'POST', path: p('/deposits/:id/confirm'), auth: true, body: ZOpsNoteBody, value: ZOpsDeposit }),
  rejectDeposit: defineCall({ method: 'POST', path: p('/deposits/:id/reject'), auth: true, body: ZOpsReasonBody, value: ZOpsDeposit }),

  withdrawals: defineCall({ method: 'GET', path: p('/withdrawals'), auth: true, query: ZOpsWithdrawalQuery, value: zPage(ZOpsWithdrawal) }),
  withdrawal: defineCall({ method: 'GET', path: p('/withdrawals/:id'), auth: true, query: NoQuery, value: ZOpsWithdrawal }),
  approveWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/approve'), auth: true, body: ZOpsNoteBody, value: ZOpsWithdrawal }),
  rejectWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/reject'), auth: true, body: ZOpsReasonBody, value: ZOpsWithdrawal }),
  payWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/paid'), auth: true, body: ZOpsPaidBody, value: ZOpsWithdrawal }),
  unknownWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/unknown'), auth: true, body: ZOpsReasonBody, value: ZOpsWithdrawal }),
  reconcileWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/reconcile'), auth: true, body: ZOpsReconcileBody, value: ZOpsWithdrawal }),
  /** The n-th proof image (0-based) of a withdrawal confirmation: the image bytes, not an envelope. */
  withdrawalProofPath: p('/withdrawals/:id/proofs/:n'),

  adjust: defineCall({ method: 'POST', path: p('/adjustments'), auth: true, body: ZOpsAdjustmentBody, value: ZOpsAdjustmentValue }),
  settings: defineCall({ method: 'GET', path: p('/settings'), auth: true, query: NoQuery, value: ZOpsSettings }),
  updateSettings: defineCall({ method: 'PUT', path: p('/settings'), auth: true, body: ZOpsSettings.partial().strict(), value: ZOpsSettings }),
  memberStatus: defineCall({ method: 'POST', path: p('/members/:id/status'), auth: true, body: ZOpsMemberStatusBody, value: ZOpsMemberStatus }),
  audit: defineCall({ method: 'GET', path: p('/audit'), auth: true, query: ZAuditQuery, value: zPage(ZAuditEntry) }),
};
