import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';
import { OPS_PREFIX } from './ops.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { ZFieldRule } from './auth.ts';
import { ZRgEvent, ZRgExclusion, ZRgLimit } from './rg.ts';
import { ZRecord } from './wallet.ts';
import { REGISTRATION_FIELDS } from '../domain/registration.ts';
import { ZBrandColors, ZBrandColorsInput } from '../domain/brand-colors.ts';

/**
 * The players section of the operator console (issue 13) and the brand and registration settings
 * the bootstrap calls show. Every call goes through the console's gate (OPS_PERMISSIONS): profile
 * `players.read`, money `players.money`, notes `players.notes`; freezing a player is the existing
 * POST /ops/api/members/:id/status (`members.status`), RG actions the existing /ops/api/rg calls.
 */
const p = (s: string) => `${OPS_PREFIX}${s}`;

export const PLAYER_STATUSES = ['active', 'disabled'] as const;

/** Search: account (contains, case-insensitive), mobile number (contains), or the member id (exact when all digits). */
export const ZOpsPlayersQuery = ZPageQuery.extend({
  search: z.string().trim().max(64).optional(),
  status: z.enum(PLAYER_STATUSES).optional(),
}).strict();
export const ZOpsPlayerRow = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string().nullable(),
  /** Dialing code and number, e.g. +63 9171234567. */
  mobile: z.string().nullable(),
  status: z.enum(PLAYER_STATUSES),
  type: z.number().int(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** An exclusion (self, cooling-off, family or operator) is in force. */
  isExcluded: z.boolean(),
});
export type TOpsPlayerRow = z.infer<typeof ZOpsPlayerRow>;

export const ZOpsPlayerLogin = z.object({
  at: z.string(),
  ip: z.string().nullable(),
  /** member or trial */
  kind: z.string(),
  lastSeenAt: z.string(),
  /** When it was revoked (logout, freeze, exclusion), or null. */
  endedAt: z.string().nullable(),
  isLive: z.boolean(),
});
export const ZOpsPlayerProfile = z.object({
  player: ZOpsPlayerRow,
  registration: z.object({
    registerIp: z.string().nullable(),
    email: z.string().nullable(),
    payeeName: z.string().nullable(),
    language: z.string().nullable(),
    birthday: z.string().nullable(),
    invitationCode: z.string().nullable(),
    upline: z.string().nullable(),
    firstLoginAt: z.string().nullable(),
  }),
  rg: z.object({
    exclusion: ZRgExclusion.nullable(),
    limits: z.array(ZRgLimit),
    realityCheckMinutes: z.number().int().nullable(),
    sessionLimitMinutes: z.number().int().nullable(),
    /** The player's RG events, newest first (at most 20), with the operator who acted and the reason given. */
    events: z.array(ZRgEvent.extend({ operator: z.string().nullable(), reason: z.string().nullable() })),
  }),
  /** The newest 20 sign-ins (sessions), newest first. */
  logins: z.array(ZOpsPlayerLogin),
});
export type TOpsPlayerProfile = z.infer<typeof ZOpsPlayerProfile>;

export const ZOpsPlayerMoney = z.object({
  currency: z.string(),
  /** From the ledger: the member's account balance and what is not held by pending withdrawals. */
  balance: z.number().int(),
  available: z.number().int(),
});
/** A page of one of the player's money records (newest first); pageSize at most 50, pageNo at most 10 000. */
export const ZOpsPlayerRecordsQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
}).strict();
export const ZOpsPlayerDeposit = z.object({ id: z.string(), amount: z.number().int(), status: z.string(), provider: z.string(), createdAt: z.string() });
export const ZOpsPlayerWithdrawal = z.object({ id: z.string(), amount: z.number().int(), status: z.string(), createdAt: z.string() });
/** A bet round of the vendor API (stake and win per round), of the last 90 days. */
export const ZOpsPlayerBetRound = z.object({ vendor: z.string(), roundId: z.string(), gameCode: z.string().nullable(), gameName: z.string().nullable(), stake: z.number().int(), win: z.number().int(), isRolledBack: z.boolean(), at: z.string() });
export type TOpsPlayerMoney = z.infer<typeof ZOpsPlayerMoney>;

export const ZOpsPlayerNote = z.object({ id: z.string(), note: z.string(), author: z.string(), at: z.string() });
export type TOpsPlayerNote = z.infer<typeof ZOpsPlayerNote>;
export const ZOpsPlayerNoteBody = z.object({ note: z.string().trim().min(1).max(2000) }).strict();

/** Brand configuration: what the whitelabel (brand) and domain route (analytics, CDNs) calls show. */
/** '//host/x' and '/\host/x' are not paths: the browser reads both as another site (over the page's scheme). */
const HTTPS_OR_PATH = z.string().trim().max(500).refine((v) => v === '' || /^https:\/\/[^\s"'<>\\]+$/.test(v) || /^\/(?![/\\])[^\s"'<>\\]*$/.test(v), 'an https URL or a path starting with /');
const CDN = z.string().trim().max(200).regex(/^https:\/\/[^\s"'<>/]+(\/[^\s"'<>]*)?$/, 'an https URL');
export const ZOpsBrand = z.object({
  siteName: z.string(),
  logoUrl: z.string(),
  videoUrl: z.string().nullable(),
  lotteryType: z.string(),
  gtagId: z.string().nullable(),
  imageCDNs: z.array(z.string()),
  launchGameCDNs: z.array(z.string()),
  /** Primary and accent colours for the dark and the light theme (null: the design card's). */
  colors: ZBrandColors.nullable(),
});
export type TOpsBrand = z.infer<typeof ZOpsBrand>;
export const ZOpsBrandPatch = z.object({
  siteName: z.string().trim().min(1).max(100).optional(),
  logoUrl: HTTPS_OR_PATH.optional(),
  videoUrl: HTTPS_OR_PATH.nullable().optional(),
  /** Google tag id such as G-ABC123; null removes it. */
  gtagId: z.string().trim().regex(/^(G|GT|AW|UA)-[A-Z0-9-]{4,20}$/).nullable().optional(),
  imageCDNs: z.array(CDN).max(10).optional(),
  launchGameCDNs: z.array(CDN).max(10).optional(),
  /** #rrggbb, each readable on its theme's background (BRAND_MIN_CONTRAST); null: back to the defaults. */
  colors: ZBrandColorsInput.nullable().optional(),
}).strict().refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change');

/** A registration field's rule as the console edits it (the pattern's regular expression follows patternId). */
export const ZOpsRegistrationRule = z.object({
  field: z.enum(REGISTRATION_FIELDS),
  enabled: z.boolean(),
  required: z.boolean(),
  patternId: z.number().int().min(0).max(20),
  minLength: z.number().int().min(0).max(255),
  maxLength: z.number().int().min(1).max(255),
}).strict();
export const ZOpsRegistrationBody = z.object({ fields: z.array(ZOpsRegistrationRule).min(1).max(REGISTRATION_FIELDS.length) }).strict();
/** Fields a site cannot switch off or make optional: an account needs them. */
export const REGISTRATION_FIXED_FIELDS = ['username', 'password', 'confirmPassword'] as const;
/**
 * The merchant's registration rules, and the fields it cannot switch off or make optional: the account's
 * own (REGISTRATION_FIXED_FIELDS) and those its market requires (the Philippines screens identities: full
 * name and birth date). A change to one of them is refused (400), not saved and ignored.
 */
export const ZOpsRegistrationValue = z.object({ fields: z.array(ZFieldRule), fixed: z.array(z.enum(REGISTRATION_FIELDS)) });

export const opsPlayerCalls = {
  players: defineCall({ method: 'GET', path: p('/players'), auth: true, query: ZOpsPlayersQuery, value: zPage(ZOpsPlayerRow) }),
  player: defineCall({ method: 'GET', path: p('/players/:id'), auth: true, query: ZNoQuery, value: ZOpsPlayerProfile }),
  playerMoney: defineCall({ method: 'GET', path: p('/players/:id/money'), auth: true, query: ZNoQuery, value: ZOpsPlayerMoney }),
  playerDeposits: defineCall({ method: 'GET', path: p('/players/:id/deposits'), auth: true, query: ZOpsPlayerRecordsQuery, value: zPage(ZOpsPlayerDeposit) }),
  playerWithdrawals: defineCall({ method: 'GET', path: p('/players/:id/withdrawals'), auth: true, query: ZOpsPlayerRecordsQuery, value: zPage(ZOpsPlayerWithdrawal) }),
  playerBets: defineCall({ method: 'GET', path: p('/players/:id/bets'), auth: true, query: ZOpsPlayerRecordsQuery, value: zPage(ZOpsPlayerBetRound) }),
  /** The player's account record (every ledger movement of the last 90 days, as the player's own shows it): what reconciles the balance. */
  playerLedger: defineCall({ method: 'GET', path: p('/players/:id/ledger'), auth: true, query: ZOpsPlayerRecordsQuery, value: zPage(ZRecord) }),
  notes: defineCall({ method: 'GET', path: p('/players/:id/notes'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpsPlayerNote) }) }),
  addNote: defineCall({ method: 'POST', path: p('/players/:id/notes'), auth: true, body: ZOpsPlayerNoteBody, value: ZOpsPlayerNote }),

  brand: defineCall({ method: 'GET', path: p('/brand'), auth: true, query: ZNoQuery, value: ZOpsBrand }),
  updateBrand: defineCall({ method: 'PUT', path: p('/brand'), auth: true, body: ZOpsBrandPatch, value: ZOpsBrand }),
  registration: defineCall({ method: 'GET', path: p('/registration'), auth: true, query: ZNoQuery, value: ZOpsRegistrationValue }),
  updateRegistration: defineCall({ method: 'PUT', path: p('/registration'), auth: true, body: ZOpsRegistrationBody, value: ZOpsRegistrationValue }),
};
