import { z } from 'zod';
import { ZInstant } from './instant.ts';
import { ZIdInput as ZId } from './ids.ts';
import { defineCall, relayPath, ZNoQuery } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { CONTRACT_KINDS } from '../domain/agent-contracts.ts';
import { OPS_PREFIX } from './ops.ts';
import { PERIOD_TYPES } from '../domain/agent-periods.ts';
import { SETTLEMENT_ANOMALIES } from '../domain/agent-settlement.ts';
import { ZAcceptValue, ZAgentContract, ZContractId, ZContractToEnd, ZTerminateValue } from './agent-contracts.ts';
import { ZDailyWagesTerms, ZDividendTerms, ZHourlySalaryTerms, ZRealtimeSalaryTerms } from '../domain/agent-contracts.ts';
import { ZDay } from './instant.ts';

/**
 * Agent payouts (issue 11, ag-settle): what the settlement jobs paid each contract per period, the
 * statement that explains each amount, disputes, the what-if simulator, my income, and the spec's
 * relay names for contract actions. Agent calls answer NON_AGENT / TRIAL_FORBIDDEN / NOT_IN_TREE
 * (403) like the contract calls. Amounts are integer minor units; rates are basis points
 * (RATE_DENOMINATOR 10000). Dates `from`/`to` are yyyy-MM-dd on the merchant's calendar.
 */


export const PAYOUT_STATUSES = [
  /** Paid: the ledger transfer committed (amount > 0). */
  'paid',
  /** Nothing to pay this period (amount 0: base <= 0, conditions unmet, or anomaly). */
  'nothing',
  /** An operator resolved a dispute with an adjustment on top of the payout. */
  'adjusted',
  /** The payer (an agent) could not fund the amount: nothing moved, shown to both sides and to ops. */
  'unfunded',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const DISPUTE_STATUSES = ['open', 'rejected', 'adjusted'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const ZPayout = z.object({
  id: z.number().int().positive(),
  kind: z.enum(CONTRACT_KINDS),
  contractId: z.number().int().positive(),
  periodType: z.enum(PERIOD_TYPES),
  periodKey: z.string(),
  /** ISO instants, start inclusive, end exclusive. */
  periodStart: z.string(),
  periodEnd: z.string(),
  payeeId: z.number().int().positive(),
  payeeAccount: z.string(),
  /** null: the house (merchant) paid. */
  payerId: z.number().int().positive().nullable(),
  payerAccount: z.string().nullable(),
  amount: z.number().int().min(0),
  /** Carry-over into this period (<= 0) and out of it (<= 0); 0 when the merchant has carry-over off. */
  carryIn: z.number().int().max(0),
  carryOver: z.number().int().max(0),
  /** Sum of operator adjustments paid on this payout after a dispute. */
  adjustedAmount: z.number().int().min(0),
  /** The part of `adjustedAmount` its payer paid (the rest came from the house): what a payer's list counts. */
  payerAdjustedAmount: z.number().int().min(0),
  /** `amount` moved when it was settled (false: unfunded, the payer could not pay; an adjustment may settle it). */
  funded: z.boolean(),
  status: z.enum(PAYOUT_STATUSES),
  settledAt: z.string(),
  /** The latest dispute's status, null when never disputed. */
  disputeStatus: z.enum(DISPUTE_STATUSES).nullable(),
});
export type TPayout = z.infer<typeof ZPayout>;

export const ZPayoutListQuery = ZPageQuery.extend({
  kind: z.enum(CONTRACT_KINDS).optional(),
  /** received (default): paid to the caller; paid: the caller paid its downlines. Dates filter the period start; both omitted: the last 31 days. */
  role: z.enum(['received', 'paid']).default('received'),
  from: ZDay.optional(),
  to: ZDay.optional(),
}).strict();

const ZTeamFigures = z.object({
  validBets: z.number().int(),
  profitLoss: z.number().int(),
  netLoss: z.number().int(),
  activeMembers: z.number().int(),
});

export const ZStatementLine = ZTeamFigures.extend({
  memberId: z.number().int().positive(),
  account: z.string(),
  isSelf: z.boolean(),
  contractId: z.number().int().positive().nullable(),
  rate: z.number().int().nullable(),
  took: z.number().int(),
});

const int = z.number().int();
const step = <C extends string, P extends z.ZodRawShape>(code: C, params: P) => z.object({ code: z.literal(code), params: z.object(params).strict() }).strict();
/**
 * One step of a statement's explanation: a code the client words (EN, TY) and its numbers. Amounts
 * (validBets, profitLoss, base, carryIn, adjustedBase, betAmount*, amount, downlinesTook, kept,
 * carryOut) are minor units; rate and effectiveRate basis points (RATE_DENOMINATOR 10000);
 * activeMembers* counts. `anomaly` names no number: the statement's `anomaly` says which.
 */
export const ZStatementStep = z.discriminatedUnion('code', [
  step('team', { validBets: int, profitLoss: int, activeMembers: int }),
  /** The base is the team's net loss (dividend) or its valid bets (salaries). */
  step('baseNetLoss', { base: int }),
  step('baseValidBets', { base: int }),
  step('baseWithCarry', { base: int, carryIn: int, adjustedBase: int }),
  step('conditionsMet', { activeMembers: int, activeMembersRequired: int, betAmount: int, betAmountRequired: int }),
  step('conditionsNotMet', { activeMembers: int, activeMembersRequired: int, betAmount: int, betAmountRequired: int }),
  /** The contract sets no condition (both required figures 0): "3 of 0 required" said nothing. */
  step('noConditions', {}),
  step('rateCapped', { rate: int, effectiveRate: int }),
  /** amount = floor(max(0, base) × rate / 10000). */
  step('amount', { base: int, rate: int, amount: int }),
  step('amountNoBase', { base: int }),
  step('amountConditionsNotMet', {}),
  step('anomaly', {}),
  step('passedOn', { amount: int, downlinesTook: int, kept: int }),
  step('carriedOut', { carryOut: int }),
]);
export type TStatementStep = z.infer<typeof ZStatementStep>;
export type StatementStepCode = TStatementStep['code'];
export const STATEMENT_STEP_CODES = ZStatementStep.options.map((o) => o.shape.code.value) as StatementStepCode[];

/** The stored statement of a payout: settlePeriod's PayoutStatement plus accounts and the explanation steps. */
export const ZPayoutStatement = z.object({
  contractId: z.number().int().positive(),
  kind: z.enum(CONTRACT_KINDS),
  period: z.object({ type: z.enum(PERIOD_TYPES), key: z.string(), start: z.string(), end: z.string() }),
  payerId: z.number().int().positive().nullable(),
  payeeId: z.number().int().positive(),
  rate: z.number().int(),
  effectiveRate: z.number().int(),
  rateDenominator: z.number().int(),
  team: ZTeamFigures,
  conditions: z.object({
    activeMembers: z.object({ required: z.number().int(), actual: z.number().int() }),
    betAmount: z.object({ required: z.number().int(), actual: z.number().int() }),
    isMet: z.boolean(),
  }),
  base: z.number().int(),
  carryOverEnabled: z.boolean(),
  carryIn: z.number().int(),
  adjustedBase: z.number().int(),
  carryOut: z.number().int(),
  amount: z.number().int(),
  lines: z.array(ZStatementLine),
  downlinesTook: z.number().int(),
  kept: z.number().int(),
  /** Structured arithmetic (numbers and operators only) from the domain. */
  arithmetic: z.object({ adjustedBase: z.string(), amount: z.string(), kept: z.string() }),
  /** The explanation, step by step, as codes with their numbers (the client words them). */
  steps: z.array(ZStatementStep),
  anomaly: z.enum(SETTLEMENT_ANOMALIES).nullable(),
  idempotencyKey: z.string(),
});
export type TPayoutStatement = z.infer<typeof ZPayoutStatement>;

export const ZDispute = z.object({
  id: z.number().int().positive(),
  payoutId: z.number().int().positive(),
  memberId: z.number().int().positive(),
  account: z.string(),
  kind: z.enum(CONTRACT_KINDS),
  periodKey: z.string(),
  payoutAmount: z.number().int(),
  reason: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  /** Operator's decision note and adjustment (minor units, paid to the payee). */
  resolutionNote: z.string().nullable(),
  adjustment: z.number().int().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type TDispute = z.infer<typeof ZDispute>;

export const ZDisputeBody = z.object({ reason: z.string().trim().min(5).max(500) }).strict();
export const ZDisputeListQuery = ZPageQuery.extend({ status: z.enum(DISPUTE_STATUSES).optional() }).strict();

/** Simulator: terms without `kind` constraints beyond the domain's; the kind comes from the terms. */
export const ZSimulateTerms = z.discriminatedUnion('kind', [ZDividendTerms.strict(), ZDailyWagesTerms.strict(), ZHourlySalaryTerms.strict(), ZRealtimeSalaryTerms.strict()]);
export const ZSimulateBody = z.object({
  downlineId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  terms: ZSimulateTerms,
  /** How many past closed periods of the terms' period type (1..12). */
  periods: z.number().int().min(1).max(12),
}).strict();
export const ZSimulatedPeriod = z.object({
  periodKey: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  validBets: z.number().int(),
  profitLoss: z.number().int(),
  netLoss: z.number().int(),
  activeMembers: z.number().int(),
  /** net loss (dividend) or valid bets (salaries). */
  base: z.number().int(),
  /** The rate applied (capped at the caller's own effective rate). */
  effectiveRate: z.number().int(),
  conditionsMet: z.boolean(),
  amount: z.number().int(),
});
export const ZSimulateValue = z.object({
  kind: z.enum(CONTRACT_KINDS),
  periodType: z.enum(PERIOD_TYPES),
  periods: z.array(ZSimulatedPeriod),
  totals: z.object({ base: z.number().int(), amount: z.number().int() }),
});
export type TSimulateValue = z.infer<typeof ZSimulateValue>;

export const ZIncomeQuery = z.object({ from: ZDay.optional(), to: ZDay.optional() }).strict();
export const ZIncomeKind = z.object({
  kind: z.enum(CONTRACT_KINDS),
  /** From the upline or the house (payouts + adjustments). */
  received: z.number().int(),
  /** To the caller's downlines. */
  paid: z.number().int(),
  net: z.number().int(),
});
export const ZIncomeValue = z.object({
  from: z.string(),
  to: z.string(),
  gmtOffsetMinutes: z.number().int(),
  kinds: z.array(ZIncomeKind),
  totals: z.object({ received: z.number().int(), paid: z.number().int(), net: z.number().int() }),
  /** Per settled period, newest first (at most 500). */
  periods: z.array(z.object({ kind: z.enum(CONTRACT_KINDS), periodKey: z.string(), periodStart: z.string(), received: z.number().int(), paid: z.number().int(), net: z.number().int() })),
});
export type TIncomeValue = z.infer<typeof ZIncomeValue>;

/** The spec's relay names, one per kind, mapping actions to the /wps/agent/contracts calls of that kind. */
export const CONTRACT_RELAY_NAMES = {
  dividend: 'MCS2_processDividendReq',
  dailyWages: 'MCS2_processDailySalContract',
  hourlySalary: 'MCS2_processContractHourSalary',
  realtimeSalary: 'MCSFE_processRealTimeSalaryContract',
} as const;
export const ZRelayContractBody = z.object({
  action: z.enum(['list', 'offer', 'accept', 'reject', 'withdraw', 'terminate']),
  contractId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  downlineId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** Terms without `kind` (the relay name fixes it). */
  terms: z.record(z.string(), z.unknown()).optional(),
  endContractIds: z.array(ZContractId).max(10_000).optional(),
  role: z.enum(['given', 'received']).optional(),
  pageNo: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
}).strict();
/** list -> page of contracts; offer/reject/withdraw -> contract; accept/terminate -> {contract, ended}. */
export const ZRelayContractValue = z.union([zPage(ZAgentContract), ZAcceptValue, ZTerminateValue, ZAgentContract, z.object({ contract: ZAgentContract, ended: z.array(ZContractToEnd) })]);

/** Ops. */
export const ZOpsDispute = ZDispute.extend({
  payeeId: z.number().int().positive(),
  payerId: z.number().int().positive().nullable(),
  /** null: the house pays this payout. */
  payerAccount: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  /** The payout's status now (unfunded: its paying agent could not fund it at settlement). */
  payoutStatus: z.enum(PAYOUT_STATUSES),
  /** What the paying agent of an unfunded payout still owes the payee (0 otherwise): an adjustment up to it is charged to that agent. */
  owedByPayer: z.number().int().min(0),
  /** An adjusted dispute: the part charged to the paying agent and the part the house's adjustment account paid (null before). */
  adjustmentFromPayer: z.number().int().min(0).nullable(),
  adjustmentFromHouse: z.number().int().min(0).nullable(),
});
export const ZOpsDisputeQuery = ZPageQuery.extend({ status: z.enum(DISPUTE_STATUSES).optional() }).strict();
/**
 * The merchant's contract payouts for operators, newest period first: by status (an `unfunded` payout is
 * one its paying agent could not fund: an operator settles it through a dispute), kind, and the exact
 * account of the payee or the payer (case-insensitive).
 */
export const ZOpsPayoutQuery = ZPageQuery.extend({
  status: z.enum(PAYOUT_STATUSES).optional(),
  kind: z.enum(CONTRACT_KINDS).optional(),
  account: z.string().trim().min(1).max(64).optional(),
}).strict();
export const ZResolveDisputeBody = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('rejected'), note: z.string().trim().min(1).max(500) }).strict(),
  z.object({ decision: z.literal('adjusted'), amount: z.number().int().positive().max(1_000_000_000_000), note: z.string().trim().min(1).max(500) }).strict(),
]);

/** Dev test clock. */
export const ZSettlementRunBody = z.object({ kind: z.enum(CONTRACT_KINDS).optional(), at: ZInstant.optional() }).strict();
export const ZSettledPeriod = z.object({
  kind: z.enum(CONTRACT_KINDS),
  periodType: z.enum(PERIOD_TYPES),
  periodKey: z.string(),
  merchantCode: z.string(),
  /** Payout rows inserted now (0 when the period was already settled). */
  inserted: z.number().int(),
  paid: z.number().int(),
  unfunded: z.number().int(),
});
export const ZSettlementRunValue = z.object({
  at: z.string(),
  settled: z.array(ZSettledPeriod),
  /** Periods that could not be settled (inconsistent data): left unsettled, retried by the next run. */
  failed: z.array(z.object({ kind: z.enum(CONTRACT_KINDS), periodType: z.enum(PERIOD_TYPES), periodKey: z.string(), merchantCode: z.string(), error: z.string() })),
});


export const agentPayoutCalls = {
  list: defineCall({ method: 'GET', path: '/wps/agent/payouts', auth: true, query: ZPayoutListQuery, value: zPage(ZPayout) }),
  /** The payee must be the caller or in its team (so the payer and every upline of the payee within the caller's subtree may read); else NOT_IN_TREE. */
  get: defineCall({ method: 'GET', path: '/wps/agent/payouts/:id', auth: true, query: ZNoQuery, value: z.object({ payout: ZPayout, statement: ZPayoutStatement }) }),
  /** Only the payee disputes (another member of the tree: FORBIDDEN); one open dispute per payout (CONFLICT 409). */
  dispute: defineCall({ method: 'POST', path: '/wps/agent/payouts/:id/disputes', auth: true, body: ZDisputeBody, value: ZDispute }),
  disputes: defineCall({ method: 'GET', path: '/wps/agent/disputes', auth: true, query: ZDisputeListQuery, value: zPage(ZDispute) }),
  simulate: defineCall({ method: 'POST', path: '/wps/agent/contracts/simulate', auth: true, body: ZSimulateBody, value: ZSimulateValue }),
  income: defineCall({ method: 'GET', path: '/wps/agent/income', auth: true, query: ZIncomeQuery, value: ZIncomeValue }),
  /** The spec's relay names (module AGENTPOLICY3, MODULE_DISABLED when off), one per contract kind. */
  relayDividend: defineCall({ method: 'POST', path: relayPath(CONTRACT_RELAY_NAMES.dividend), auth: true, body: ZRelayContractBody, value: ZRelayContractValue }),
  relayDailyWages: defineCall({ method: 'POST', path: relayPath(CONTRACT_RELAY_NAMES.dailyWages), auth: true, body: ZRelayContractBody, value: ZRelayContractValue }),
  relayHourlySalary: defineCall({ method: 'POST', path: relayPath(CONTRACT_RELAY_NAMES.hourlySalary), auth: true, body: ZRelayContractBody, value: ZRelayContractValue }),
  relayRealtimeSalary: defineCall({ method: 'POST', path: relayPath(CONTRACT_RELAY_NAMES.realtimeSalary), auth: true, body: ZRelayContractBody, value: ZRelayContractValue }),
};

/**
 * Operator calls (ops session + audit), under the back office prefix /ops/api like every other
 * operator call (the plan's /wps/ops/... does not exist: operator tokens are served under /ops/api).
 */
export const opsAgentDisputeCalls = {
  list: defineCall({ method: 'GET', path: `${OPS_PREFIX}/agent-disputes`, auth: true, query: ZOpsDisputeQuery, value: zPage(ZOpsDispute) }),
  payouts: defineCall({ method: 'GET', path: `${OPS_PREFIX}/agent-payouts`, auth: true, query: ZOpsPayoutQuery, value: zPage(ZPayout) }),
  resolve: defineCall({ method: 'POST', path: `${OPS_PREFIX}/agent-disputes/:id/resolve`, auth: true, body: ZResolveDisputeBody, value: ZOpsDispute }),
};

/** Non-production test clock: settles every closed period up to `at` (default now) through the job code path. */
export const devAgentSettlementCalls = {
  run: defineCall({ method: 'POST', path: '/wps/dev/agent-settlement/run', auth: false, body: ZSettlementRunBody, value: ZSettlementRunValue }),
};

export { ZId as ZPayoutId };
