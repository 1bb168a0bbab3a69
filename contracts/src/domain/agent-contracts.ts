/**
 * Agent contracts between an upline and a direct downline (spec section 3 "Contract", section 4
 * "Contract offer", section 9 "Real-time salary settled every 5 minutes"). Schemas and the pure
 * rules the API, the jobs and the client share; no I/O.
 *
 * Units: a rate is an integer in basis points (1 = 0.01 %, RATE_DENOMINATOR = 100 %); amounts are
 * integer minor units (centavos), like every amount in this product.
 */
import { z } from 'zod';
import { ErrorCode } from '../api/errors.ts';
import { DIVIDEND_PERIOD_TYPES, type PeriodType } from './agent-periods.ts';

/** The four contract kinds of issue 11. */
export const CONTRACT_KINDS = ['dividend', 'dailyWages', 'hourlySalary', 'realtimeSalary'] as const;
export type ContractKind = (typeof CONTRACT_KINDS)[number];
/** The ledger kind of a contract's payout (the account record names it: api/wallet LEDGER_RECORD_KINDS). */
export const agentPayoutLedgerKind = (kind: ContractKind) => `agent.${kind}` as const;

/** A rate of RATE_DENOMINATOR is 100 %: rates are basis points. */
export const RATE_DENOMINATOR = 10_000;

/**
 * The widest rates the product accepts per kind; a merchant may configure narrower bounds
 * (validateOffer takes them). A dividend is a share of the team's net loss, up to all of it; a
 * salary is a share of the team's valid bets (turnover), and above 5 % of turnover it would exceed
 * the house edge of most games, so anything higher is refused as a typing mistake.
 */
export const RATE_BOUNDS: Record<ContractKind, { min: number; max: number }> = {
  dividend: { min: 1, max: RATE_DENOMINATOR },
  dailyWages: { min: 1, max: 500 },
  hourlySalary: { min: 1, max: 500 },
  realtimeSalary: { min: 1, max: 500 },
};

/** Largest amount the schemas accept (minor units): keeps every product of an amount and a rate exact. */
export const MAX_CONTRACT_AMOUNT = Number.MAX_SAFE_INTEGER;

const ZRate = z.number().int().min(1).max(RATE_DENOMINATOR);
const ZMinor = z.number().int().min(0).max(MAX_CONTRACT_AMOUNT);

/** Conditions every kind may carry (spec: "active members", "bet amount per day or per hour"). */
const conditions = {
  /** Rate in basis points of the base (team net loss for a dividend, team valid bets for a salary). */
  rate: ZRate,
  /** Minimum number of active members in the downline's team during the period (0: no condition). */
  activeMembers: z.number().int().min(0).max(10_000_000),
  /** Minimum team valid bets during the period, minor units (0: no condition). */
  betAmount: ZMinor,
};

export const ZDividendTerms = z.object({
  kind: z.literal('dividend'),
  ...conditions,
  /** The profit-and-loss period the dividend is settled on. */
  profitLossPeriod: z.enum(DIVIDEND_PERIOD_TYPES),
});
export const ZDailyWagesTerms = z.object({ kind: z.literal('dailyWages'), ...conditions, validBetPeriod: z.literal('daily') });
export const ZHourlySalaryTerms = z.object({ kind: z.literal('hourlySalary'), ...conditions, validBetPeriod: z.literal('hourly') });
export const ZRealtimeSalaryTerms = z.object({ kind: z.literal('realtimeSalary'), ...conditions, validBetPeriod: z.literal('fiveMinutes') });

/** What an upline proposes: the kind, the rate, the conditions and the period. Rate bounds per kind are checked by validateOffer. */
export const ZContractTerms = z.discriminatedUnion('kind', [ZDividendTerms, ZDailyWagesTerms, ZHourlySalaryTerms, ZRealtimeSalaryTerms]);
export type TContractTerms = z.infer<typeof ZContractTerms>;

export const CONTRACT_STATUSES = ['offered', 'active', 'rejected', 'withdrawn', 'terminated', 'ended'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/**
 * Why a contract stopped: a termination by either side or by an operator (terminatedByOperator), the
 * lower-rate rule, or (replacedByNewContract) the downline accepted new terms of the same kind.
 */
export const CONTRACT_END_REASONS = ['terminatedByUpline', 'terminatedByDownline', 'terminatedByOperator', 'rateAboveNewUplineRate', 'uplineContractEnded', 'downlineMoved', 'replacedByNewContract'] as const;
export type ContractEndReason = (typeof CONTRACT_END_REASONS)[number];

export const ZContract = z.object({
  id: z.number().int().positive(),
  /** The payer: the downline's direct upline, or null when the merchant (the house) pays a top agent. */
  uplineId: z.number().int().positive().nullable(),
  downlineId: z.number().int().positive(),
  terms: ZContractTerms,
  status: z.enum(CONTRACT_STATUSES),
  offeredAt: z.iso.datetime(),
  answeredAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  endReason: z.enum(CONTRACT_END_REASONS).nullable(),
});
export type TContract = z.infer<typeof ZContract>;

/** The period a contract of these terms is settled on. */
export function settlementPeriodType(terms: TContractTerms): PeriodType {
  return terms.kind === 'dividend' ? terms.profitLossPeriod : terms.validBetPeriod;
}

export type ContractRuleError =
  | typeof ErrorCode.VALIDATION
  | typeof ErrorCode.CONTRACT_NOT_DIRECT_DOWNLINE
  | typeof ErrorCode.CONTRACT_RATE_OUT_OF_RANGE
  | typeof ErrorCode.CONTRACT_NO_UPLINE_CONTRACT
  | typeof ErrorCode.CONTRACT_PERIOD_MISMATCH
  | typeof ErrorCode.CONTRACT_RATE_ABOVE_UPLINE
  | typeof ErrorCode.CONTRACT_CONDITIONS_BELOW_UPLINE
  | typeof ErrorCode.CONTRACT_CONSENT_REQUIRED;

export type OfferFacts = {
  /** The offering upline, or null when the merchant offers a top agent its contract. */
  uplineId: number | null;
  downlineId: number;
  /** The downline's actual parent in the team tree (null: it has no upline). */
  downlineParentId: number | null;
  /** The upline's own active contract of the same kind; null when it has none. Ignored when the merchant offers. */
  uplineTerms: TContractTerms | null;
  /** The merchant's configured bounds, if narrower than RATE_BOUNDS. */
  merchantBounds?: { min: number; max: number } | undefined;
};

/**
 * Whether an upline may offer these terms to this member: a direct downline (or, for the merchant,
 * a member with no upline), a rate within the kind's and the merchant's bounds, and never above
 * the upline's own rate of the same kind on the same period, with conditions (active members, bet
 * amount) never looser than the upline's own.
 */
export function validateOffer(facts: OfferFacts, proposed: unknown): { ok: true; terms: TContractTerms } | { ok: false; code: ContractRuleError } {
  const parsed = ZContractTerms.safeParse(proposed);
  if (!parsed.success) return { ok: false, code: ErrorCode.VALIDATION };
  const terms = parsed.data;
  if (facts.uplineId === facts.downlineId || facts.downlineParentId !== facts.uplineId) {
    return { ok: false, code: ErrorCode.CONTRACT_NOT_DIRECT_DOWNLINE };
  }
  const kindBounds = RATE_BOUNDS[terms.kind];
  const min = Math.max(kindBounds.min, facts.merchantBounds?.min ?? kindBounds.min);
  const max = Math.min(kindBounds.max, facts.merchantBounds?.max ?? kindBounds.max);
  if (terms.rate < min || terms.rate > max) return { ok: false, code: ErrorCode.CONTRACT_RATE_OUT_OF_RANGE };
  if (facts.uplineId === null) return { ok: true, terms };
  const own = facts.uplineTerms;
  if (!own || own.kind !== terms.kind) return { ok: false, code: ErrorCode.CONTRACT_NO_UPLINE_CONTRACT };
  // Chains share one base only when they share the period: a weekly dividend under a monthly one could not be compared.
  if (settlementPeriodType(own) !== settlementPeriodType(terms)) return { ok: false, code: ErrorCode.CONTRACT_PERIOD_MISMATCH };
  if (terms.rate > own.rate) return { ok: false, code: ErrorCode.CONTRACT_RATE_ABOVE_UPLINE };
  // A downline's team is part of its upline's team, so conditions at least as strict as the upline's mean
  // that whenever the downline qualifies, so does the upline: an upline never pays out of a period it was not paid for.
  if (!conditionsWithin(terms, own)) return { ok: false, code: ErrorCode.CONTRACT_CONDITIONS_BELOW_UPLINE };
  return { ok: true, terms };
}

/** The part of a contract the tree rules compare: its rate and its conditions. */
export type ContractLimits = { rate: number; activeMembers: number; betAmount: number };

/** Whether a downline's terms stay within its upline's: rate not above, conditions not looser. */
export function conditionsWithin(downline: ContractLimits, upline: ContractLimits): boolean {
  return downline.activeMembers >= upline.activeMembers && downline.betAmount >= upline.betAmount;
}

/** An active contract as the lower-rate rule sees it: one edge of the tree with its rate and conditions. */
export type ContractEdge = ContractLimits & { id: number; uplineId: number | null; downlineId: number };

export type ContractToEnd = {
  contractId: number;
  downlineId: number;
  rate: number;
  reason: Extract<ContractEndReason, 'rateAboveNewUplineRate' | 'uplineContractEnded'>;
  /** The payer's terms after the change; null when the payer's own contract ends too. */
  uplineLimits: ContractLimits | null;
};

/**
 * The lower-rate rule (spec section 4): when `agentId`'s own terms of a kind become `next` (or its
 * contract ends: null), every contract it gave that no longer fits under them (a higher rate, or
 * looser conditions) must end, and, since a member whose contract ended has no rate left, every
 * contract that member gave ends in turn, down the tree. `contracts` are the active contracts of
 * that one kind. The result is ordered top-down, by id within a level.
 */
export function contractsEndedByRateChange(contracts: readonly ContractEdge[], agentId: number, next: ContractLimits | null): ContractToEnd[] {
  const byUpline = new Map<number, ContractEdge[]>();
  for (const c of contracts) {
    if (c.uplineId === null) continue;
    const list = byUpline.get(c.uplineId) ?? [];
    list.push(c);
    byUpline.set(c.uplineId, list);
  }
  const ended: ContractToEnd[] = [];
  const seen = new Set<number>([agentId]);
  let level: { memberId: number; limits: ContractLimits | null }[] = [{ memberId: agentId, limits: next }];
  while (level.length > 0) {
    const following: { memberId: number; limits: ContractLimits | null }[] = [];
    for (const { memberId, limits } of level) {
      const given = [...(byUpline.get(memberId) ?? [])].sort((a, b) => a.id - b.id);
      for (const c of given) {
        if (limits !== null && c.rate <= limits.rate && conditionsWithin(c, limits)) continue; // still fits: untouched, and so is its subtree
        if (seen.has(c.downlineId)) continue; // a cycle in bad data must not loop forever
        seen.add(c.downlineId);
        ended.push({ contractId: c.id, downlineId: c.downlineId, rate: c.rate, reason: limits === null ? 'uplineContractEnded' : 'rateAboveNewUplineRate', uplineLimits: limits });
        following.push({ memberId: c.downlineId, limits: null });
      }
    }
    level = following;
  }
  return ended;
}

/**
 * Accepting an offer (spec section 4): if the offered terms are lower than contracts the accepting
 * agent gave, those (and what hangs below them) end in the same transaction, but only if the agent
 * agreed to exactly that list. `consentedContractIds` are the ids the agent confirmed on screen.
 */
export function planAcceptance(
  contracts: readonly ContractEdge[],
  offer: ContractLimits & { downlineId: number },
  consentedContractIds: readonly number[],
): { ok: true; end: ContractToEnd[] } | { ok: false; code: typeof ErrorCode.CONTRACT_CONSENT_REQUIRED; mustEnd: ContractToEnd[] } {
  const end = contractsEndedByRateChange(contracts, offer.downlineId, offer);
  const consented = new Set(consentedContractIds);
  if (end.some((c) => !consented.has(c.contractId))) return { ok: false, code: ErrorCode.CONTRACT_CONSENT_REQUIRED, mustEnd: end };
  return { ok: true, end };
}
