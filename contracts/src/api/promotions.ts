import { z } from 'zod';
import { ZInstant } from './instant.ts';
import { ZIdInput as ZId } from './ids.ts';
import { defineCall, relayPath, ZNoQuery } from './envelope.ts';
import { ZEnvelopeMessage } from './red-envelopes.ts';
import { RED_ENVELOPE_LIMITS } from '../domain/red-envelope-split.ts';
import { GAME_TYPES } from '../domain/constants.ts';
import { ACTIVITY_STATUSES, PROMOTION_CATEGORIES, PROMOTION_KINDS, REMARK_MAX, REWARD_STATES } from '../domain/promotions.ts';

/**
 * Promotions and activities (issue 14; spec sections 3, 4, 5, 7): the list by category with each
 * promotion's status for the caller, sign-up (MCSFE_signUpPromotionJoin), reward requests
 * (MCSFE_signUpRequestReward), raffle claims (MCS2_claimRafflePromotion), the reward centre and the
 * bonus details. Money in minor units.
 */
export const PROMOTIONS_PREFIX = '/wps/v2/promotions';
const ZLang = z.enum(['EN', 'TY']);

/** A promotion's terms as players and operators read them (amounts in minor units). */
const PROMOTION_TERMS = {
  requiresJoin: z.boolean(),
  rewardAmount: z.number().int(),
  rewardBps: z.number().int(),
  rewardCap: z.number().int().nullable(),
  minDeposit: z.number().int(),
  wageringBonusX: z.number().int(),
  wageringDepositX: z.number().int(),
  /** Percent of a bet counted towards wagering per game type (missing: 100). */
  weights: z.record(z.string(), z.number().int()),
  /** Rebate per game type, basis points. */
  rebateBps: z.record(z.string(), z.number().int()),
  bonusDays: z.number().int(),
  drawAt: z.string().nullable(),
  winners: z.number().int().nullable(),
};

export const ZPromotion = z.object({
  id: z.string(),
  category: z.enum(PROMOTION_CATEGORIES),
  kind: z.enum(PROMOTION_KINDS),
  title: z.string(),
  rules: z.string(),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  ...PROMOTION_TERMS,
  /** The caller's status (spec section 4); guests see join or the promotion's own state. */
  status: z.enum(ACTIVITY_STATUSES),
  /** The caller's reward on it now, when there is one. */
  rewardId: z.string().nullable(),
  /**
   * Why a running first-deposit promotion is closed to the caller: they have deposited, or they joined
   * another first-deposit promotion (one first-deposit bonus each), or they joined it and their first
   * deposit was below its `minDeposit` (no bonus can come of it now). Absent otherwise.
   */
  closedBecause: z.enum(['deposited', 'joined_other', 'below_minimum']).optional(),
});
export type TPromotion = z.infer<typeof ZPromotion>;

/** A category as the spec writes it ("high rebate", "VIP") or as the API does ("high_rebate", "vip"). */
const ZCategoryParam = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase().replace(/[\s-]+/g, '_') : v), z.enum(PROMOTION_CATEGORIES));
export const ZPromotionListQuery = z.object({ category: ZCategoryParam.optional(), language: ZLang.default('EN') }).strict();
export const ZPromotionList = z.object({ list: z.array(ZPromotion) });
export const ZPromotionIdBody = z.object({ promotionId: ZId }).strict();
export const ZRequestRewardBody = z.object({
  promotionId: ZId,
  /** Activity remark: at most 140 characters (spec section 5). */
  remark: z.string().trim().max(REMARK_MAX).default(''),
}).strict();
export const ZClaimRewardBody = z.object({ rewardId: ZId }).strict();

export const ZReward = z.object({
  id: z.string(),
  promotionId: z.string(),
  title: z.string(),
  category: z.enum(PROMOTION_CATEGORIES),
  state: z.enum(REWARD_STATES),
  status: z.enum(ACTIVITY_STATUSES),
  amount: z.number().int(),
  periodKey: z.string(),
  remark: z.string().nullable(),
  decisionReason: z.string().nullable(),
  wagerRequired: z.number().int(),
  wagerProgress: z.number().int(),
  /**
   * What the player kept of a converted bonus that a cancelled bet then took back while the wallet
   * held less (migration 062): the bonus account holds amount - owed, and the next release pays that.
   */
  owed: z.number().int(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TReward = z.infer<typeof ZReward>;
export const ZRewardList = z.object({
  list: z.array(ZReward),
  /** Badge of the reward centre: rewards waiting for the player's claim. */
  claimable: z.number().int(),
  /** Badge of bonus details: bonuses under wagering. */
  processing: z.number().int(),
  /** The bonus balance (kept apart from the withdrawable balance until wagering is met). */
  bonusBalance: z.number().int(),
});
export const ZJoinValue = z.object({ promotion: ZPromotion });
export const ZRewardValue = z.object({ reward: ZReward });

export const ZRaffle = z.object({
  promotionId: z.string(),
  drawAt: z.string(),
  winners: z.number().int(),
  /** sha256 (hex) of the seed, published before the draw. */
  seedHash: z.string(),
  /** Revealed after the draw. */
  seed: z.string().nullable(),
  drawnAt: z.string().nullable(),
  /** Entry ids in ascending order (the draw's input) and, for the caller, their own entry. */
  entries: z.array(z.string()),
  myEntry: z.string().nullable(),
  /** Winning entry ids in draw order. */
  winningEntries: z.array(z.string()),
});
export const ZRaffleQuery = z.object({ promotionId: ZId }).strict();
const LangQuery = z.object({ language: ZLang.default('EN') }).strict();

export const promotionCalls = {
  list: defineCall({ method: 'GET', path: PROMOTIONS_PREFIX, auth: false, query: ZPromotionListQuery, value: ZPromotionList }),
  join: defineCall({ method: 'POST', path: relayPath('MCSFE_signUpPromotionJoin'), auth: true, body: ZPromotionIdBody, value: ZJoinValue }),
  requestReward: defineCall({ method: 'POST', path: relayPath('MCSFE_signUpRequestReward'), auth: true, body: ZRequestRewardBody, value: ZRewardValue }),
  claimRaffle: defineCall({ method: 'POST', path: relayPath('MCS2_claimRafflePromotion'), auth: true, body: ZPromotionIdBody, value: ZRewardValue }),
  claim: defineCall({ method: 'POST', path: `${PROMOTIONS_PREFIX}/rewards/claim`, auth: true, body: ZClaimRewardBody, value: ZRewardValue }),
  rewards: defineCall({ method: 'GET', path: `${PROMOTIONS_PREFIX}/rewards`, auth: true, query: LangQuery, value: ZRewardList }),
  raffle: defineCall({ method: 'GET', path: `${PROMOTIONS_PREFIX}/raffle`, auth: false, query: ZRaffleQuery, value: ZRaffle }),
};

// ------------------------------------------------------------------ operator console

export const OPS_PROMOTIONS = '/ops/api/promotions';
const ZText = z.object({ EN: z.string().trim().min(1).max(200), TY: z.string().trim().min(1).max(200) }).strict();
const ZRules = z.object({ EN: z.string().trim().min(1).max(4000), TY: z.string().trim().min(1).max(4000) }).strict();
/**
 * A rate per game type, keyed by the catalogue's game types: a key no bet carries (SLOTS for RNG) would
 * be shown to players as a rate that never pays.
 */
const byGameType = (value: z.ZodNumber) => z.record(z.string(), value).superRefine((map, ctx) => {
  for (const k of Object.keys(map)) {
    if (!(GAME_TYPES as readonly string[]).includes(k)) ctx.addIssue({ code: 'custom', path: [k], message: `Not a game type (one of ${GAME_TYPES.join(', ')})` });
  }
});
const ZPercentMap = byGameType(z.number().int().min(0).max(100));
const ZBpsMap = byGameType(z.number().int().min(0).max(10_000));
export const ZOpsPromotionBody = z.object({
  category: z.enum(PROMOTION_CATEGORIES),
  kind: z.enum(PROMOTION_KINDS),
  title: ZText,
  rules: ZRules,
  startsAt: ZInstant,
  endsAt: ZInstant.nullable().default(null),
  enabled: z.boolean().default(true),
  requiresJoin: z.boolean().default(true),
  rewardAmount: z.number().int().min(0).max(1_000_000_000).default(0),
  rewardBps: z.number().int().min(0).max(100_000).default(0),
  rewardCap: z.number().int().positive().max(1_000_000_000).nullable().default(null),
  minDeposit: z.number().int().min(0).max(1_000_000_000).default(0),
  wageringBonusX: z.number().int().min(0).max(100).default(0),
  wageringDepositX: z.number().int().min(0).max(100).default(0),
  weights: ZPercentMap.default({}),
  rebateBps: ZBpsMap.default({}),
  bonusDays: z.number().int().min(1).max(365).default(7),
  drawAt: ZInstant.nullable().default(null),
  winners: z.number().int().min(1).max(1000).nullable().default(null),
}).strict()
  .refine((b) => b.kind !== 'raffle' || (b.drawAt !== null && b.winners !== null), { message: 'a raffle needs drawAt and winners', path: ['drawAt'] })
  // Compared as instants: the strings may carry different offsets ('...T08:00:00+08:00' is before '...T01:00:00Z').
  .refine((b) => b.endsAt === null || Date.parse(b.endsAt) > Date.parse(b.startsAt), { message: 'endsAt must be after startsAt', path: ['endsAt'] })
  .refine((b) => b.drawAt === null || Date.parse(b.drawAt) > Date.parse(b.startsAt), { message: 'drawAt must be after startsAt', path: ['drawAt'] });
export const ZOpsPromotion = z.object({
  id: z.string(),
  category: z.enum(PROMOTION_CATEGORIES),
  kind: z.enum(PROMOTION_KINDS),
  title: ZText,
  rules: ZRules,
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  enabled: z.boolean(),
  ...PROMOTION_TERMS,
  seedHash: z.string().nullable(),
  drawnAt: z.string().nullable(),
  joins: z.number().int(),
});
export type TOpsPromotion = z.infer<typeof ZOpsPromotion>;
export const ZOpsPromotionList = z.object({ list: z.array(ZOpsPromotion) });
/** A promotion's title in both languages: the operator lists show both, as the promotions list does. */
export const ZOpsPromotionTitle = z.object({ EN: z.string(), TY: z.string() });
export const ZOpsRewardRequest = z.object({
  id: z.string(),
  promotionId: z.string(),
  promotionTitle: ZOpsPromotionTitle,
  memberId: z.number().int(),
  account: z.string(),
  remark: z.string().nullable(),
  createdAt: z.string(),
});
/** Requests waiting for a decision (`pending`, the default), or the latest 100 an operator decided (`decided`). */
export const ZOpsRewardRequestsQuery = z.object({ state: z.enum(['pending', 'decided']).default('pending') }).strict();
/** A decided request: its outcome, the amount issued, who decided, when and why. */
export const ZOpsDecidedRequest = ZOpsRewardRequest.extend({
  state: z.enum(REWARD_STATES),
  amount: z.number().int().nonnegative(),
  decidedBy: z.string(),
  decidedAt: z.string(),
  reason: z.string().nullable(),
});
export const ZOpsRewardRequestList = z.object({ list: z.array(ZOpsRewardRequest) });
export const ZOpsDecidedRequestList = z.object({ list: z.array(ZOpsDecidedRequest) });
export const ZOpsDecideBody = z.object({
  approve: z.boolean(),
  /** Amount granted on approval (defaults to the promotion's reward amount). */
  amount: z.number().int().positive().max(1_000_000_000).optional(),
  /** Optional on approval; a rejection says why (at least 2 characters), as a deposit's or a withdrawal's does. */
  reason: z.string().trim().max(REMARK_MAX).default(''),
}).strict().refine((b) => b.approve || b.reason.length >= 2, { path: ['reason'], message: 'A rejection needs a reason' });
export const ZOpsDecideValue = z.object({ id: z.string(), state: z.enum(REWARD_STATES) });

/**
 * A red envelope drop attached to a promotion (issue 14): at `runAt` ONE envelope drops to the
 * promotion's participants (the envelope segment 'promotion'), funded as an operator drop is. Cancellable
 * until it runs. Terms as an operator drop's (ZDropEnvelopeBody) without the audience.
 */
export const ZOpsEnvelopeDropBody = z.object({
  totalAmount: z.number().int().min(1).max(RED_ENVELOPE_LIMITS.MAX_TOTAL),
  count: z.number().int().min(1).max(RED_ENVELOPE_LIMITS.MAX_COUNT),
  minShare: z.number().int().min(1),
  expiresInMinutes: z.number().int().min(1).max(7 * 24 * 60),
  /** When it drops: now or later (at most a year ahead). */
  runAt: ZInstant,
  message: ZEnvelopeMessage.default({}),
}).strict()
  .refine((b) => b.count * b.minShare <= b.totalAmount, { message: 'the total cannot give every share its minimum', path: ['minShare'] });
export const ENVELOPE_DROP_STATES = ['scheduled', 'dropped', 'cancelled', 'failed'] as const;
export const ZOpsEnvelopeDrop = z.object({
  id: z.string(),
  promotionId: z.string(),
  promotionTitle: ZOpsPromotionTitle,
  totalAmount: z.number().int(),
  count: z.number().int(),
  minShare: z.number().int(),
  expiresInMinutes: z.number().int(),
  runAt: z.string(),
  status: z.enum(ENVELOPE_DROP_STATES),
  /** The envelope it dropped (status dropped). */
  envelopeId: z.string().nullable(),
  /** Why nothing dropped (status failed), e.g. no participant we may send an envelope to. */
  failure: z.string().nullable(),
  createdBy: z.string(),
  cancelledBy: z.string().nullable(),
  createdAt: z.string(),
});
export type TOpsEnvelopeDrop = z.infer<typeof ZOpsEnvelopeDrop>;
export const ZOpsEnvelopeDropList = z.object({ list: z.array(ZOpsEnvelopeDrop) });
/**
 * A reward whose converted bonus was taken back after a rolled-back bet while the wallet held less than
 * the bonus (migration 062): `owed` is what the player kept of `amount` (balances never go negative).
 */
export const ZOpsOwedReward = z.object({
  id: z.string(),
  promotionId: z.string(),
  promotionTitle: ZOpsPromotionTitle,
  memberId: z.number().int(),
  account: z.string(),
  state: z.enum(REWARD_STATES),
  amount: z.number().int(),
  owed: z.number().int(),
  updatedAt: z.string(),
});
/** A page of the owed list (newest first): pageSize at most 100, pageNo at most 10 000; anything else is a 400. */
export const ZOpsOwedQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
}).strict();
export const ZOpsOwedRewardList = z.object({ list: z.array(ZOpsOwedReward), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() });

/** The operator calls (permissions: promotions.read, promotions.manage, promotions.decide, promotions.drops of OPS_PERMISSIONS). */
export const opsPromotionCalls = {
  list: defineCall({ method: 'GET', path: OPS_PROMOTIONS, auth: true, query: ZNoQuery, value: ZOpsPromotionList }),
  create: defineCall({ method: 'POST', path: OPS_PROMOTIONS, auth: true, body: ZOpsPromotionBody, value: ZOpsPromotion }),
  update: defineCall({ method: 'PUT', path: `${OPS_PROMOTIONS}/:id`, auth: true, body: ZOpsPromotionBody, value: ZOpsPromotion }),
  requests: defineCall({ method: 'GET', path: `${OPS_PROMOTIONS}/requests`, auth: true, value: ZOpsRewardRequestList }),
  decidedRequests: defineCall({ method: 'GET', path: `${OPS_PROMOTIONS}/requests`, auth: true, query: ZOpsRewardRequestsQuery, value: ZOpsDecidedRequestList }),
  decide: defineCall({ method: 'POST', path: `${OPS_PROMOTIONS}/requests/:id/decide`, auth: true, body: ZOpsDecideBody, value: ZOpsDecideValue }),
  drops: defineCall({ method: 'GET', path: `${OPS_PROMOTIONS}/drops`, auth: true, query: ZNoQuery, value: ZOpsEnvelopeDropList }),
  scheduleDrop: defineCall({ method: 'POST', path: `${OPS_PROMOTIONS}/:id/drops`, auth: true, body: ZOpsEnvelopeDropBody, value: ZOpsEnvelopeDrop }),
  cancelDrop: defineCall({ method: 'POST', path: `${OPS_PROMOTIONS}/drops/:id/cancel`, auth: true, value: ZOpsEnvelopeDrop }),
  owed: defineCall({ method: 'GET', path: `${OPS_PROMOTIONS}/owed`, auth: true, query: ZOpsOwedQuery, value: ZOpsOwedRewardList }),
};
