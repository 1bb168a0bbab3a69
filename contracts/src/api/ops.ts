import { z } from 'zod';
import { ZInstant } from './instant.ts';
import { defineCall, ZNoQuery } from './envelope.ts';
import { WITHDRAWAL_STATUSES } from '../events/events.ts';
import { DEPOSIT_STATUSES, ZAmount, ZDeposit, ZPageQuery, ZRequestId, ZWithdrawal, zPage } from './cashier.ts';

/**
 * The operator back office under /ops/api: operators are not members. They sign in with their own
 * credentials and send `Authorization: Bearer <operator token>`; a member token is refused. Every
 * action writes an audit row in the same transaction.
 */
export const OPS_PREFIX = '/ops/api';
/** Operator roles: an operator holds one or more; each action names the roles allowed to do it (least privilege). */
export const OPERATOR_ROLES = ['administrator', 'finance', 'support', 'content', 'risk'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
/**
 * The one permission table of the back office: action -> roles. Every /ops/api route names its action
 * (gateway/src/modules/ops/ops-routes.ts, agents/disputes.ts); an operator without one of the roles gets
 * 403 FORBIDDEN and the refused attempt is written to the audit trail.
 */
export const OPS_PERMISSIONS = {
  'deposits.read': ['administrator', 'finance', 'risk'],
  'deposits.decide': ['administrator', 'finance'],
  'withdrawals.read': ['administrator', 'finance', 'risk'],
  'withdrawals.decide': ['administrator', 'finance'],
  'balance.adjust': ['administrator', 'finance'],
  /** Freeze (disable) or unfreeze a player: risk decides (issue 13). */
  'members.status': ['administrator', 'risk'],
  /** Players: search and profile (account, registration data, RG state, login history). */
  'players.read': ['administrator', 'finance', 'support', 'risk'],
  /** A player's money: ledger balances, recent deposits, withdrawals and bets. */
  'players.money': ['administrator', 'finance', 'risk'],
  /** Operator notes on a player (append-only): read and write. */
  'players.notes': ['administrator', 'support', 'risk'],
  'cashier.settings.read': ['administrator', 'finance'],
  'cashier.settings.update': ['administrator'],
  'audit.read': ['administrator', 'risk'],
  'agents.read': ['administrator', 'finance', 'risk', 'support'],
  'agents.manage': ['administrator'],
  'disputes.read': ['administrator', 'finance', 'risk'],
  'disputes.resolve': ['administrator', 'finance'],
  'operators.manage': ['administrator'],
  'site.read': ['administrator', 'content', 'support', 'risk'],
  'site.update': ['administrator'],
  'games.read': ['administrator', 'content', 'support'],
  'games.manage': ['administrator', 'content'],
  /** Connect a game provider (launch URL, signing secret made by the server), rotate its secret, disconnect it (/ops/api/providers). */
  'providers.manage': ['administrator'],
  /** Brand configuration (site name, logo, video, analytics, CDNs) shown by the bootstrap calls. */
  'brand.update': ['administrator', 'content'],
  /** Registration field rules (shown, required, pattern, lengths) of /wps/system/setting/register. */
  'registration.update': ['administrator'],
  /** Announcements, banners, help articles, news (/ops/api/content). */
  'content.read': ['administrator', 'content', 'support'],
  'content.manage': ['administrator', 'content'],
  /** Marketing messages to players (self-excluded and cooling-off players are always left out). */
  'messages.send': ['administrator', 'content'],
  /** Responsible gaming: operator-initiated exclusion and its lifting (/ops/api/rg). */
  'rg.exclude': ['administrator', 'risk'],
  /** Player feedback (/ops/api/feedback): read it with its images, answer it once. */
  'feedback.read': ['administrator', 'support'],
  'feedback.answer': ['administrator', 'support'],
  /** Live chat with players (/ops/api/chats and the console's `ops:{code}` socket): list, read, reply, close. */
  'chat.answer': ['administrator', 'support'],
  /** Promotions (/ops/api/promotions): authoring by content, reward requests decided by finance. */
  'promotions.read': ['administrator', 'content', 'finance'],
  'promotions.manage': ['administrator', 'content'],
  'promotions.decide': ['administrator', 'finance'],
  /** Attach a red envelope drop to a promotion, or cancel one before it runs (who may drop envelopes). */
  'promotions.drops': ['administrator', 'content'],
  /** Missions (/ops/api/missions): authored by content; finance reads them (rewards are a cost). */
  'missions.read': ['administrator', 'content', 'finance'],
  'missions.manage': ['administrator', 'content'],
  /** Responsible gaming: read the restricted-persons list summary, its matches and the family requests. */
  'rg.read': ['administrator', 'risk', 'support'],
  /** Import (replace) the restricted-persons list. */
  'rg.restricted.import': ['administrator', 'risk'],
  /** File a family exclusion request on a caller's behalf (support on the phone). */
  'rg.family.request': ['administrator', 'risk', 'support'],
  /** Approve or reject a family exclusion request. */
  'rg.family.decide': ['administrator', 'risk'],
  /** Red envelopes (/ops/api/envelopes): list them, and drop one (funded from the house). */
  'envelopes.read': ['administrator', 'content', 'finance'],
  'envelopes.drop': ['administrator', 'content'],
  /** Points mall (/ops/api/points): the catalogue and rules by content, redeems decided by finance. */
  'points.read': ['administrator', 'content', 'finance'],
  'points.manage': ['administrator', 'content'],
  'points.decide': ['administrator', 'finance'],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OpsAction = keyof typeof OPS_PERMISSIONS;
/** Whether an operator holding `roles` may do `action`. */
export const opsCan = (roles: readonly string[], action: OpsAction): boolean =>
  (OPS_PERMISSIONS[action] as readonly string[]).some((r) => roles.includes(r));

/** `totp`: the authenticator code, required once the operator has enrolled (401 TOTP_REQUIRED without it). */
export const ZOpsLoginBody = z
  .object({ username: z.string().trim().toLowerCase().max(32), password: z.string().max(128), totp: z.string().trim().max(12).optional() })
  .strict();
export const ZOpsLoginValue = z.object({
  token: z.string(),
  username: z.string(),
  roles: z.array(z.enum(OPERATOR_ROLES)),
  /** The password must be changed before anything else is allowed. */
  mustChangePassword: z.boolean(),
  /** False: the operator must enrol an authenticator (TOTP) before anything else but the password change. */
  totpEnrolled: z.boolean(),
  /** The platform administrator: may list, create and edit merchants (/ops/api/platform). */
  isPlatform: z.boolean(),
});
export const ZTotpSetupValue = z.object({ secret: z.string(), otpauthUrl: z.string(), qr: z.string() });
export const ZTotpConfirmBody = z.object({ code: z.string().trim().regex(/^\d{6}$/) }).strict();

const ZOperatorName = z.string().trim().toLowerCase().regex(/^[a-z0-9_]{3,32}$/);
const ZRoles = z.array(z.enum(OPERATOR_ROLES)).min(1).max(OPERATOR_ROLES.length).refine((r) => new Set(r).size === r.length, 'duplicate role');
export const ZOperatorRow = z.object({
  id: z.number().int(),
  username: z.string(),
  roles: z.array(z.enum(OPERATOR_ROLES)),
  status: z.enum(['active', 'disabled']),
  totpEnrolled: z.boolean(),
  createdAt: z.string(),
});
export type TOperatorRow = z.infer<typeof ZOperatorRow>;
export const ZCreateOperatorBody = z.object({ username: ZOperatorName, roles: ZRoles }).strict();
/** The new operator's one-time password, shown once: it must be changed at first sign-in. */
export const ZCreateOperatorValue = z.object({ operator: ZOperatorRow, password: z.string() });
export const ZUpdateOperatorBody = z
  .object({ roles: ZRoles.optional(), status: z.enum(['active', 'disabled']).optional(), resetTotp: z.literal(true).optional() })
  .strict()
  .refine((b) => b.roles !== undefined || b.status !== undefined || b.resetTotp !== undefined, 'nothing to change');

/** Site settings changed live from the console (audited; announced by a `system.changed` event). */
export const ZSiteSecurity = z.object({
  botCheck: z.boolean(),
  captchaAfterFailures: z.number().int().min(0).max(100),
  passwordMaxAgeDays: z.number().int().min(0).max(3650),
  newIpVerification: z.boolean(),
});
/** An IPv4/IPv6 address or CIDR subnet. */
export const ZCidr = z
  .string()
  .trim()
  .max(64)
  .refine((v) => {
    const [addr, bits, extra] = v.split('/');
    if (extra !== undefined || !addr) return false;
    const v4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(addr);
    const v6 = !v4 && /^[0-9a-fA-F:]+$/.test(addr) && addr.includes(':') && (addr.match(/::/g)?.length ?? 0) <= 1;
    if (!v4 && !v6) return false;
    if (bits === undefined) return true;
    return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
  }, 'not an IP address or CIDR subnet');
export const ZSiteSettings = z.object({
  maintenance: z.boolean(),
  maintenanceMessage: z.string().max(500).nullable(),
  blockedIps: z.array(ZCidr).max(200),
  /** ISO 3166 alpha-2 codes, matched against the configured country header only behind a trusted proxy. */
  blockedRegions: z.array(z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/)).max(250),
  modules: z.record(z.string(), z.boolean()),
  whitelabel: z.record(z.string().regex(/^[A-Z0-9_]{1,32}$/), z.string().max(200)),
  security: ZSiteSecurity,
  /** Whether region blocking can apply here (TRUST_PROXY set): otherwise the list is kept but not used. */
  regionHeader: z.string().nullable(),
  /**
   * Whether this node can send SMS and e-mail (a provider configured, or the development sink). false in
   * production without SMS_GATEWAY_URL / SMTP_URL: the features that send answer 503, and the page says so.
   */
  providers: z.object({ sms: z.boolean(), mail: z.boolean() }).optional(),
});
export type TSiteSettings = z.infer<typeof ZSiteSettings>;
export const ZSiteSettingsPatch = z
  .object({
    maintenance: z.boolean().optional(),
    maintenanceMessage: z.string().trim().max(500).nullable().optional(),
    blockedIps: z.array(ZCidr).max(200).optional(),
    blockedRegions: z.array(z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/)).max(250).optional(),
    modules: z.record(z.string(), z.boolean()).optional(),
    whitelabel: z.record(z.string().regex(/^[A-Z0-9_]{1,32}$/), z.string().max(200)).optional(),
    security: ZSiteSecurity.partial().strict().optional(),
  })
  .strict();
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
/**
 * A balance adjustment as the ledger holds it, newest first: `amount` signed (+ credited to the member,
 * - debited), the operator who made it, the reason, and its reference (A-<requestId>, as the player's
 * account record shows it). Those who may adjust may list them (finance could not: the list was the
 * audit trail, which finance may not read).
 */
export const ZOpsAdjustment = z.object({
  transferId: z.string(), at: z.string(), memberId: z.number().int(), account: z.string(), amount: z.number().int(), reason: z.string(), operator: z.string(), reference: z.string(),
});
export const ZOpsAdjustmentsQuery = ZPageQuery.extend({ pageNo: z.coerce.number().int().min(1).max(10_000).default(1) }).strict();

export const ZOpsSettings = z.object({
  depositMin: ZAmount,
  depositMax: ZAmount,
  withdrawMin: ZAmount,
  withdrawMax: ZAmount,
  withdrawDailyMax: ZAmount,
  autoReceiveMinutes: z.number().int().min(1).max(10080),
  /**
   * The account players send a manual bank deposit to (shown on the deposit page). `null`: none set, and
   * the manual bank channel is not offered. Only the demo seed starts with one (a made-up account).
   */
  manualBank: z
    .object({
      bankName: z.string().trim().min(2).max(64),
      accountName: z.string().trim().min(2).max(64),
      accountNumber: z.string().trim().regex(/^[0-9A-Za-z][0-9A-Za-z -]{2,32}[0-9A-Za-z]$/, '4 to 34 letters, digits, spaces or hyphens'),
    })
    .strict()
    .nullable(),
});
export type TOpsSettings = z.infer<typeof ZOpsSettings>;
export type TManualBank = NonNullable<TOpsSettings['manualBank']>;

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
/** Audit search: actor (operator name), action, target, and a date range [from, to) as ISO instants. */
export const ZAuditFilter = z.object({
  actor: z.string().trim().max(32).optional(),
  action: z.string().max(64).optional(),
  targetType: z.string().max(32).optional(),
  targetId: z.string().max(64).optional(),
  from: ZInstant.optional(),
  to: ZInstant.optional(),
});
export const ZAuditQuery = ZPageQuery.extend(ZAuditFilter.shape).strict()
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { path: ['from'], message: 'after to' });
export const ZAuditExportQuery = ZAuditFilter.strict();


/** Vendors and games in the console: maintenance, ordering (lower sort first) and hot games (hot rank, lower first). */
export const ZOpsVendor = z.object({ vassalage: z.string(), gameType: z.string(), displayName: z.string(), sort: z.number().int(), maintenance: z.boolean() });
export const ZOpsVendorBody = z
  .object({ vassalage: z.string().trim().min(1).max(32), gameType: z.string().trim().min(1).max(32), maintenance: z.boolean().optional(), sort: z.number().int().min(-100_000).max(100_000).optional() })
  .strict()
  .refine((b) => b.maintenance !== undefined || b.sort !== undefined, 'nothing to change');
export const ZOpsGame = z.object({
  id: z.number().int(), vassalage: z.string(), gameCode: z.string(), gameType: z.string(), gameName: z.string(),
  sort: z.number().int(), hotRank: z.number().int().nullable(), maintenance: z.boolean(),
});
export const ZOpsGamesQuery = ZPageQuery.extend({
  search: z.string().trim().max(64).optional(),
  vassalage: z.string().trim().max(32).optional(),
  hot: z.enum(['true', 'false']).optional(),
}).strict();
export const ZOpsGameBody = z
  .object({ maintenance: z.boolean().optional(), sort: z.number().int().min(-100_000).max(100_000).optional(), hotRank: z.number().int().min(0).max(1000).nullable().optional() })
  .strict()
  .refine((b) => b.maintenance !== undefined || b.sort !== undefined || b.hotRank !== undefined, 'nothing to change');
const p = (s: string) => `${OPS_PREFIX}${s}`;

/** Disable (sessions end, sockets close at once) or re-enable a member account. */
export const ZOpsMemberStatusBody = z.object({ status: z.enum(['active', 'disabled']), reason: z.string().trim().min(1).max(500) }).strict();
export const ZOpsMemberStatus = z.object({ memberId: z.number().int(), account: z.string(), status: z.enum(['active', 'disabled']) });

export const opsCalls = {
  login: defineCall({ method: 'POST', path: p('/session/login'), auth: false, body: ZOpsLoginBody, value: ZOpsLoginValue }),
  logout: defineCall({ method: 'DELETE', path: p('/session'), auth: true, value: z.object({}) }),
  me: defineCall({ method: 'GET', path: p('/session'), auth: true, query: ZNoQuery, value: ZOpsLoginValue.omit({ token: true }) }),
  changePassword: defineCall({ method: 'POST', path: p('/session/password'), auth: true, body: ZOpsPasswordBody, value: z.object({ changed: z.literal(true) }) }),
  /** Keep this operator session's token in an HttpOnly cookie readable only by `restoreSession`, so a reload finds it. */
  keepSession: defineCall({ method: 'POST', path: p('/session/keep'), auth: true, body: z.object({}).strict(), value: z.object({}) }),
  /** The kept operator token (from that cookie) when it is still live for this merchant; null otherwise. */
  restoreSession: defineCall({ method: 'GET', path: p('/session/keep'), auth: false, query: ZNoQuery, value: z.object({ token: z.string().nullable() }) }),

  deposits: defineCall({ method: 'GET', path: p('/deposits'), auth: true, query: ZOpsDepositQuery, value: zPage(ZOpsDeposit) }),
  confirmDeposit: defineCall({ method: 'POST', path: p('/deposits/:id/confirm'), auth: true, body: ZOpsNoteBody, value: ZOpsDeposit }),
  rejectDeposit: defineCall({ method: 'POST', path: p('/deposits/:id/reject'), auth: true, body: ZOpsReasonBody, value: ZOpsDeposit }),

  withdrawals: defineCall({ method: 'GET', path: p('/withdrawals'), auth: true, query: ZOpsWithdrawalQuery, value: zPage(ZOpsWithdrawal) }),
  withdrawal: defineCall({ method: 'GET', path: p('/withdrawals/:id'), auth: true, query: ZNoQuery, value: ZOpsWithdrawal }),
  approveWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/approve'), auth: true, body: ZOpsNoteBody, value: ZOpsWithdrawal }),
  rejectWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/reject'), auth: true, body: ZOpsReasonBody, value: ZOpsWithdrawal }),
  payWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/paid'), auth: true, body: ZOpsPaidBody, value: ZOpsWithdrawal }),
  unknownWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/unknown'), auth: true, body: ZOpsReasonBody, value: ZOpsWithdrawal }),
  reconcileWithdrawal: defineCall({ method: 'POST', path: p('/withdrawals/:id/reconcile'), auth: true, body: ZOpsReconcileBody, value: ZOpsWithdrawal }),
  /** The n-th proof image (0-based) of a withdrawal confirmation: the image bytes, not an envelope. */
  withdrawalProofPath: p('/withdrawals/:id/proofs/:n'),

  adjust: defineCall({ method: 'POST', path: p('/adjustments'), auth: true, body: ZOpsAdjustmentBody, value: ZOpsAdjustmentValue }),
  adjustments: defineCall({ method: 'GET', path: p('/adjustments'), auth: true, query: ZOpsAdjustmentsQuery, value: zPage(ZOpsAdjustment) }),
  settings: defineCall({ method: 'GET', path: p('/settings'), auth: true, query: ZNoQuery, value: ZOpsSettings }),
  updateSettings: defineCall({ method: 'PUT', path: p('/settings'), auth: true, body: ZOpsSettings.partial().strict(), value: ZOpsSettings }),
  memberStatus: defineCall({ method: 'POST', path: p('/members/:id/status'), auth: true, body: ZOpsMemberStatusBody, value: ZOpsMemberStatus }),
  audit: defineCall({ method: 'GET', path: p('/audit'), auth: true, query: ZAuditQuery, value: zPage(ZAuditEntry) }),
  /** The filtered audit trail as CSV (streamed; cells starting with = + - @ are prefixed with '). Not an envelope. */
  auditExportPath: p('/audit/export'),

  totpSetup: defineCall({ method: 'POST', path: p('/session/totp/setup'), auth: true, body: z.object({}).strict(), value: ZTotpSetupValue }),
  totpConfirm: defineCall({ method: 'POST', path: p('/session/totp/confirm'), auth: true, body: ZTotpConfirmBody, value: z.object({ enrolled: z.literal(true) }) }),

  operators: defineCall({ method: 'GET', path: p('/operators'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOperatorRow) }) }),
  createOperator: defineCall({ method: 'POST', path: p('/operators'), auth: true, body: ZCreateOperatorBody, value: ZCreateOperatorValue }),
  updateOperator: defineCall({ method: 'POST', path: p('/operators/:id'), auth: true, body: ZUpdateOperatorBody, value: ZOperatorRow }),

  vendors: defineCall({ method: 'GET', path: p('/vendors'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpsVendor) }) }),
  updateVendor: defineCall({ method: 'POST', path: p('/vendors'), auth: true, body: ZOpsVendorBody, value: ZOpsVendor }),
  games: defineCall({ method: 'GET', path: p('/games'), auth: true, query: ZOpsGamesQuery, value: zPage(ZOpsGame) }),
  updateGame: defineCall({ method: 'POST', path: p('/games/:id'), auth: true, body: ZOpsGameBody, value: ZOpsGame }),

  site: defineCall({ method: 'GET', path: p('/site'), auth: true, query: ZNoQuery, value: ZSiteSettings }),
  updateSite: defineCall({ method: 'PUT', path: p('/site'), auth: true, body: ZSiteSettingsPatch, value: ZSiteSettings }),
};
