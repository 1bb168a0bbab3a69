import { z } from 'zod';
import { ZIdInput as ZId } from './ids.ts';
import { defineCall, relayPath, ZNoQuery } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { ZAgentContract } from './agent-contracts.ts';
import { ZDay } from './instant.ts';

/**
 * Agent reports and the register centre (issue 11, spec "Agent centre"): team overview, downlines
 * (search in the whole subtree, drill by parent with a breadcrumb), direct creation of a downline,
 * set a direct downline as agent, a downline's contracts, invitations with quota and account type,
 * team bets, profit and loss per downline, account details (relay ODSFE2_MemTransDet) and the
 * consolidated contract flags. Every /wps/agent call is an agent call: a member whose type is not an
 * agent type gets NON_AGENT (403), a trial session TRIAL_FORBIDDEN (403), a member id outside the
 * caller's own team NOT_IN_TREE (403). Money in integer minor units. Dates `from`/`to` are yyyy-MM-dd
 * on the merchant's calendar (its brand's GMT offset), both days included; default today.
 */

const ZMoney = z.number().int();
/** The widest from..to span of an agent report, in days. */
export const AGENT_REPORT_MAX_DAYS = 93;

export const ZRangeQuery = z.object({ from: ZDay.optional(), to: ZDay.optional() }).strict();

// ---- team overview ----

export const ZTeamOverviewQuery = ZRangeQuery.extend({
  /** A member of the caller's team whose own team to show; default the caller. */
  memberId: ZId.optional(),
}).strict();
export const ZTeamOverview = z.object({
  from: z.string(),
  to: z.string(),
  gmtOffsetMinutes: z.number().int(),
  /** Members of the team, the agent itself left out. */
  teamSize: z.number().int(),
  directCount: z.number().int(),
  /** Members of the team with an agent type. */
  agentCount: z.number().int(),
  newMembers: z.number().int(),
  activeMembers: z.number().int(),
  deposits: ZMoney,
  withdrawals: ZMoney,
  validBets: ZMoney,
  betCount: z.number().int(),
  payout: ZMoney,
  /** The team players' result: payout - validBets (positive when they won). */
  profitLoss: ZMoney,
  /** When the figures were read (ISO). */
  asOf: z.string(),
});
export type TTeamOverview = z.infer<typeof ZTeamOverview>;

// ---- downlines ----

export const ZDownlinesQuery = ZPageQuery.extend({
  /** Whose direct downlines to list: the caller (default) or a member of its team. Ignored with `search`. */
  parentId: ZId.optional(),
  /** An account prefix (case-insensitive), matched in the caller's whole team. */
  search: z.string().trim().min(1).max(64).optional(),
}).strict();
export const ZDownline = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string().nullable(),
  type: z.number().int(),
  isAgent: z.boolean(),
  /** 1 for the caller's direct downlines, 2 below them, ... */
  depth: z.number().int(),
  /** Members of this downline's own team, itself left out. */
  teamSize: z.number().int(),
  directCount: z.number().int(),
  status: z.enum(['active', 'disabled']),
  registeredAt: z.string(),
  lastLoginAt: z.string().nullable(),
  balance: ZMoney,
});
export type TDownline = z.infer<typeof ZDownline>;
export const ZPathItem = z.object({ id: z.number().int(), account: z.string() });
export const ZDownlinesValue = zPage(ZDownline).extend({
  /** The breadcrumb from the caller down to parentId (both included); with `search`, the caller only. */
  path: z.array(ZPathItem),
});

export const DOWNLINE_ACCOUNT_TYPES = ['player', 'agent'] as const;
export const ZCreateDownlineBody = z
  .object({
    account: z.string().trim().min(1).max(64),
    password: z.string().max(128),
    nickname: z.string().trim().max(32).optional(),
    accountType: z.enum(DOWNLINE_ACCOUNT_TYPES),
  })
  .strict();

export const ZDownlineContracts = z.object({
  /** Live contracts of the downline with the caller as upline. */
  live: z.array(ZAgentContract),
  /** Offers the caller made to the downline that are still open. */
  offers: z.array(ZAgentContract),
});

// ---- invitations ----

export const INVITATION_STATUSES = ['active', 'exhausted', 'expired', 'disabled'] as const;
export const INVITATION_MAX_QUOTA = 10_000;
export const ZCreateInvitationBody = z
  .object({
    accountType: z.enum(DOWNLINE_ACCOUNT_TYPES),
    quota: z.number().int().min(1).max(INVITATION_MAX_QUOTA),
    /** Days until the link stops working; none: no expiry. */
    expiresInDays: z.number().int().min(1).max(365).optional(),
  })
  .strict();
export const ZInvitation = z.object({
  id: z.number().int(),
  code: z.string(),
  /** `<merchant origin>/register?affiliateCode=<code>` */
  link: z.string(),
  accountType: z.enum(DOWNLINE_ACCOUNT_TYPES),
  quota: z.number().int(),
  used: z.number().int(),
  status: z.enum(INVITATION_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type TInvitation = z.infer<typeof ZInvitation>;

// ---- team bets ----

export const ZTeamBetsQuery = ZPageQuery.extend({
  from: ZDay.optional(),
  to: ZDay.optional(),
  /** Exact account of a member of the caller's team (case-insensitive). */
  account: z.string().trim().min(1).max(64).optional(),
  gameType: z.string().trim().regex(/^[A-Za-z0-9_]{1,32}$/).optional(),
}).strict();
export const ZTeamBet = z.object({
  roundId: z.string(),
  memberId: z.number().int(),
  account: z.string(),
  vendor: z.string(),
  gameCode: z.string().nullable(),
  gameName: z.string().nullable(),
  gameType: z.string().nullable(),
  stake: ZMoney,
  win: ZMoney,
  time: z.string(),
  status: z.enum(['settled', 'open', 'rolled_back']),
});
export type TTeamBet = z.infer<typeof ZTeamBet>;
export const ZTeamBetsValue = zPage(ZTeamBet).extend({
  from: z.string(),
  to: z.string(),
  /** Over the whole filter (all pages), rolled-back rounds left out. */
  totalStake: ZMoney,
  totalWin: ZMoney,
});

// ---- profit and loss per downline ----

export const ZTeamPnlQuery = ZPageQuery.extend({
  from: ZDay.optional(),
  to: ZDay.optional(),
  /** Whose direct downlines to list: the caller (default) or a member of its team. */
  parentId: ZId.optional(),
}).strict();
export const ZPnlFigures = z.object({
  validBets: ZMoney,
  betCount: z.number().int(),
  payout: ZMoney,
  /** payout - validBets (the players' result). */
  profitLoss: ZMoney,
  deposits: ZMoney,
  withdrawals: ZMoney,
});
export const ZPnlLine = ZPnlFigures.extend({
  id: z.number().int(),
  account: z.string(),
  isAgent: z.boolean(),
  /** Members of this downline's team, itself left out (the line covers it and its team). */
  teamSize: z.number().int(),
});
export type TPnlLine = z.infer<typeof ZPnlLine>;
export const ZTeamPnlValue = zPage(ZPnlLine).extend({
  from: z.string(),
  to: z.string(),
  parent: ZPathItem,
  path: z.array(ZPathItem),
  /** parentId's own play. */
  self: ZPnlFigures,
  /** parentId and its whole team (all pages). */
  totals: ZPnlFigures,
});

// ---- account details (relay ODSFE2_MemTransDet) ----

export const ZMemTransQuery = ZPageQuery.extend({
  from: ZDay.optional(),
  to: ZDay.optional(),
  /** Exact account of the caller or a member of its team; default the whole team and the caller. */
  account: z.string().trim().min(1).max(64).optional(),
  /** Ledger entry kind: deposit, withdrawal, transfer_upline, transfer_downline, adjustment, bet, win, ... */
  type: z.string().trim().regex(/^[a-z_]{1,32}$/).optional(),
}).strict();
export const ZMemTrans = z.object({
  id: z.string(),
  account: z.string(),
  time: z.string(),
  type: z.string(),
  /** Signed: negative leaves the account. */
  amount: ZMoney,
  balanceAfter: ZMoney.nullable(),
  reference: z.string(),
});
export type TMemTrans = z.infer<typeof ZMemTrans>;
export const ZMemTransValue = zPage(ZMemTrans).extend({ from: z.string(), to: z.string() });

// ---- consolidated contract flags ----

export const ZContractFlag = z.object({
  active: z.boolean(),
  /** The live contract's rate (basis points); null without one. */
  rateBps: z.number().int().nullable(),
  /** An offer to the caller of this kind is open. */
  pendingOffer: z.boolean(),
  /** The caller received or paid payouts of this kind (its record stays reachable after its contract ended). */
  hasPayouts: z.boolean(),
});
export const ZConsolidatedFunds = z.object({
  dividend: ZContractFlag,
  dailySalary: ZContractFlag,
  hourSalary: ZContractFlag,
  realtimeSalary: ZContractFlag,
  pendingOffers: z.number().int(),
  isAgent: z.boolean(),
});
export type TConsolidatedFunds = z.infer<typeof ZConsolidatedFunds>;

const NoBody = z.object({}).strict();

export const agentReportCalls = {
  teamOverview: defineCall({ method: 'GET', path: '/wps/agent/team/overview', auth: true, query: ZTeamOverviewQuery, value: ZTeamOverview }),
  downlines: defineCall({ method: 'GET', path: '/wps/agent/downlines', auth: true, query: ZDownlinesQuery, value: ZDownlinesValue }),
  createDownline: defineCall({ method: 'POST', path: '/wps/agent/downlines', auth: true, body: ZCreateDownlineBody, value: ZDownline }),
  /** Direct downline only; it becomes an agent (type 2). */
  setAgent: defineCall({ method: 'POST', path: '/wps/agent/downlines/:id/set-agent', auth: true, body: NoBody, value: ZDownline }),
  /** Direct downline only. */
  downlineContracts: defineCall({ method: 'GET', path: '/wps/agent/downlines/:id/contracts', auth: true, query: ZNoQuery, value: ZDownlineContracts }),
  invitations: defineCall({ method: 'GET', path: '/wps/agent/invitations', auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZInvitation) }) }),
  createInvitation: defineCall({ method: 'POST', path: '/wps/agent/invitations', auth: true, body: ZCreateInvitationBody, value: ZInvitation }),
  disableInvitation: defineCall({ method: 'POST', path: '/wps/agent/invitations/:id/disable', auth: true, body: NoBody, value: ZInvitation }),
  teamBets: defineCall({ method: 'GET', path: '/wps/agent/team/bets', auth: true, query: ZTeamBetsQuery, value: ZTeamBetsValue }),
  teamPnl: defineCall({ method: 'GET', path: '/wps/agent/team/pnl', auth: true, query: ZTeamPnlQuery, value: ZTeamPnlValue }),
  memTransDet: defineCall({ method: 'GET', path: relayPath('ODSFE2_MemTransDet'), auth: true, query: ZMemTransQuery, value: ZMemTransValue }),
  /** Any non-trial member (players get all false); trial => TRIAL_FORBIDDEN; module AGENTPOLICY3 off => MODULE_DISABLED. */
  consolidatedFunds: defineCall({ method: 'GET', path: '/wps/member/info/funds/consolidated', auth: true, query: ZNoQuery, value: ZConsolidatedFunds }),
};
