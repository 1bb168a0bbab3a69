import { z } from 'zod';
import { ZIdInput } from './ids.ts';
import { defineCall, relayPath } from './envelope.ts';
import { ZPageQuery, ZRequestId, ZWithdrawPassword, zPage } from './cashier.ts';
import { MAX_REDEEM_QUANTITY, POINTS_KINDS, REDEEM_STATUSES, REWARD_STATUSES } from '../domain/points.ts';

/**
 * The points mall (issue 14; spec sections 1, 3, 4, 7): balance (MCS2_getPointBalance), the rewards
 * catalogue (getPointReward), redeem history (getRedeemPointList), the merchant's rules (getPointConfig),
 * redeem and convert under the transaction password (passwordCheck/MCS2_redeemPointReward,
 * passwordCheck/MCS2_convertPoint), and the points details (earn and spend history). Points are whole
 * numbers; money in minor units.
 */
export const POINTS_PREFIX = '/wps/v2/points';
const ZLang = z.enum(['EN', 'TY']);
const ZPoints = z.number().int().nonnegative();
const LangQuery = z.object({ language: ZLang.default('EN') }).strict();

export const ZPointBalance = z.object({
  balance: ZPoints,
  /** Points a rolled-back bet could not take back (already spent): netted against later earnings. */
  owed: ZPoints,
  /** Points earned from bets so far (after rollbacks). */
  earned: z.number().int(),
});
export type TPointBalance = z.infer<typeof ZPointBalance>;

export const ZPointConfig = z.object({
  /** Points ratio: minor units of valid bet that earn one point (per bet, rounded down). */
  betPerPoint: z.number().int().positive(),
  /** Conversion rate: cash (minor units) one point converts to. */
  minorPerPoint: z.number().int().positive(),
  /** Fewest points one conversion takes. */
  minConvert: z.number().int().positive(),
  enabled: z.boolean(),
});
export type TPointConfig = z.infer<typeof ZPointConfig>;

/** A reward of the catalogue (spec section 3): points required, amount required, quantity, remark, status. */
export const ZPointReward = z.object({
  id: z.string(),
  title: z.string(),
  remark: z.string(),
  pointsRequired: z.number().int().positive(),
  /** Cash the reward pays (minor units); 0: a non-cash item described by its remark. */
  amount: z.number().int().nonnegative(),
  /** What is left to redeem. */
  quantity: z.number().int().nonnegative(),
  status: z.enum(REWARD_STATUSES),
});
export type TPointReward = z.infer<typeof ZPointReward>;

export const ZRedeem = z.object({
  id: z.string(),
  rewardId: z.string(),
  title: z.string(),
  /** Redeem quantity. */
  quantity: z.number().int().positive(),
  points: z.number().int().positive(),
  amount: z.number().int().nonnegative(),
  status: z.enum(REDEEM_STATUSES),
  reason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TRedeem = z.infer<typeof ZRedeem>;

export const ZPointsEntry = z.object({
  id: z.string(),
  kind: z.enum(POINTS_KINDS),
  /** Signed change of the balance. */
  delta: z.number().int(),
  /** Signed change of the owed points. */
  owedDelta: z.number().int(),
  balanceAfter: ZPoints,
  ref: z.string().nullable(),
  createdAt: z.string(),
});
export type TPointsEntry = z.infer<typeof ZPointsEntry>;

export const ZRedeemBody = z.object({
  rewardId: ZIdInput,
  quantity: z.number().int().min(1).max(MAX_REDEEM_QUANTITY).default(1),
  withdrawPassword: ZWithdrawPassword,
  requestId: ZRequestId,
}).strict();
export const ZConvertBody = z.object({
  points: z.number().int().positive().max(1_000_000_000),
  withdrawPassword: ZWithdrawPassword,
  requestId: ZRequestId,
}).strict();
export const ZConvertValue = z.object({ points: z.number().int().positive(), amount: z.number().int().positive(), transferId: z.string(), balance: ZPoints, replayed: z.boolean() });
/** The redeem history; `status` narrows it to one status, none: all of them. */
export const ZRedeemListQuery = ZPageQuery.extend({ language: ZLang.default('EN'), status: z.enum(REDEEM_STATUSES).optional() }).strict();

export const pointCalls = {
  balance: defineCall({ method: 'GET', path: relayPath('MCS2_getPointBalance'), auth: true, query: z.object({}).strict(), value: ZPointBalance }),
  /** The catalogue: guests see it too (active rewards only). */
  rewards: defineCall({ method: 'GET', path: relayPath('getPointReward'), auth: false, query: LangQuery, value: z.object({ list: z.array(ZPointReward) }) }),
  redeems: defineCall({ method: 'GET', path: relayPath('getRedeemPointList'), auth: true, query: ZRedeemListQuery, value: zPage(ZRedeem) }),
  config: defineCall({ method: 'GET', path: relayPath('getPointConfig'), auth: false, query: z.object({}).strict(), value: ZPointConfig }),
  /**
   * Redeem a reward: points and stock taken at once, status processing until an operator decides.
   * 409 POINTS_INSUFFICIENT, 409 POINTS_OUT_OF_STOCK, 400 WITHDRAW_PASSWORD_WRONG, 403 RG_EXCLUDED, 403 TRIAL_FORBIDDEN.
   * The same requestId again answers the first redeem.
   */
  redeem: defineCall({ method: 'POST', path: relayPath('passwordCheck/MCS2_redeemPointReward'), auth: true, body: ZRedeemBody, value: z.object({ redeem: ZRedeem, balance: ZPoints }) }),
  /** Convert points to cash at the conversion rate: one ledger transfer; 400 AMOUNT_OUT_OF_RANGE under the minimum. */
  convert: defineCall({ method: 'POST', path: relayPath('passwordCheck/MCS2_convertPoint'), auth: true, body: ZConvertBody, value: ZConvertValue }),
  /** Points details: every change of the balance, newest first. */
  history: defineCall({ method: 'GET', path: `${POINTS_PREFIX}/history`, auth: true, query: ZPageQuery, value: zPage(ZPointsEntry) }),
};

// ------------------------------------------------------------------ operator console

export const OPS_POINTS = '/ops/api/points';
const ZText = z.object({ EN: z.string().trim().min(1).max(100), TY: z.string().trim().min(1).max(100) }).strict();
const ZRemark = z.object({ EN: z.string().trim().max(500), TY: z.string().trim().max(500) }).strict();
export const ZOpsRewardBody = z.object({
  title: ZText,
  remark: ZRemark,
  pointsRequired: z.number().int().min(1).max(1_000_000_000),
  amount: z.number().int().min(0).max(1_000_000_000),
  quantity: z.number().int().min(0).max(1_000_000),
  status: z.enum(REWARD_STATUSES),
  sort: z.number().int().min(0).max(10_000).default(0),
}).strict();
export const ZOpsReward = z.object({
  id: z.string(),
  title: z.object({ EN: z.string(), TY: z.string() }),
  remark: z.object({ EN: z.string(), TY: z.string() }),
  pointsRequired: z.number().int(),
  amount: z.number().int(),
  quantity: z.number().int(),
  status: z.enum(REWARD_STATUSES),
  sort: z.number().int(),
  /** Redeems of it still waiting for a decision. */
  processing: z.number().int(),
});
export type TOpsReward = z.infer<typeof ZOpsReward>;
export const ZOpsRedeem = ZRedeem.extend({ memberId: z.number().int(), account: z.string(), decidedBy: z.string().nullable() });
export type TOpsRedeem = z.infer<typeof ZOpsRedeem>;
/** `language`: the reward's title in the console's language. */
export const ZOpsRedeemQuery = ZPageQuery.extend({ status: z.enum(REDEEM_STATUSES).optional(), language: ZLang.default('EN') }).strict();
export const ZOpsDecideRedeemBody = z.object({ approve: z.boolean(), reason: z.string().trim().max(140).default('') }).strict();
/** The operator's settings, within what the table holds (migration 058's checks): beyond them a 400, not a 500. */
export const ZOpsPointConfigBody = ZPointConfig.extend({
  betPerPoint: z.number().int().min(1).max(100_000_000),
  minorPerPoint: z.number().int().min(1).max(1_000_000),
  minConvert: z.number().int().min(1).max(100_000_000),
}).strict();

/** The operator calls (permissions points.read, points.manage, points.decide of OPS_PERMISSIONS). */
export const opsPointCalls = {
  rewards: defineCall({ method: 'GET', path: `${OPS_POINTS}/rewards`, auth: true, query: z.object({}).strict(), value: z.object({ list: z.array(ZOpsReward) }) }),
  createReward: defineCall({ method: 'POST', path: `${OPS_POINTS}/rewards`, auth: true, body: ZOpsRewardBody, value: ZOpsReward }),
  updateReward: defineCall({ method: 'PUT', path: `${OPS_POINTS}/rewards/:id`, auth: true, body: ZOpsRewardBody, value: ZOpsReward }),
  redeems: defineCall({ method: 'GET', path: `${OPS_POINTS}/redeems`, auth: true, query: ZOpsRedeemQuery, value: zPage(ZOpsRedeem) }),
  decide: defineCall({ method: 'POST', path: `${OPS_POINTS}/redeems/:id/decide`, auth: true, body: ZOpsDecideRedeemBody, value: ZOpsRedeem }),
  config: defineCall({ method: 'GET', path: `${OPS_POINTS}/config`, auth: true, query: z.object({}).strict(), value: ZPointConfig }),
  updateConfig: defineCall({ method: 'PUT', path: `${OPS_POINTS}/config`, auth: true, body: ZOpsPointConfigBody, value: ZPointConfig }),
};
