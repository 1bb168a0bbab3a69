import { z } from 'zod';
import { ZIdInput } from './ids.ts';
import { defineCall, ZNoQuery } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import {
  CONTRACT_END_REASONS, CONTRACT_KINDS, CONTRACT_STATUSES, ZContract, ZDailyWagesTerms, ZDividendTerms, ZHourlySalaryTerms, ZRealtimeSalaryTerms,
} from '../domain/agent-contracts.ts';

/**
 * Agent contract calls (issue 11, spec sections 3-4): an upline offers a direct downline terms of one
 * kind, the downline accepts (with the lower-rate rule's consent list) or rejects, the upline may
 * withdraw an open offer, and either party terminates a live contract. Every call is an agent call:
 * a session of a member whose type is not an agent type gets NON_AGENT (403), a trial session
 * TRIAL_FORBIDDEN (403), a contract or member outside the caller's own contracts or team NOT_IN_TREE (403).
 * `:id` is the contract id.
 */

/** A contract as an agent sees it: the domain contract, the kind, both accounts and who ended it. */
export const ZAgentContract = ZContract.extend({
  kind: z.enum(CONTRACT_KINDS),
  uplineAccount: z.string().nullable(),
  downlineAccount: z.string(),
  /** The member who ended it (either party, or the agent whose acceptance ended it); null for an operator or the system. */
  endedBy: z.number().int().positive().nullable(),
});
export type TAgentContract = z.infer<typeof ZAgentContract>;

export const ZContractId = ZIdInput;

export const ZContractListQuery = ZPageQuery.extend({
  /** given: contracts the caller offered (as upline); received: offered to the caller. Default: both. */
  role: z.enum(['given', 'received']).optional(),
  status: z.enum(CONTRACT_STATUSES).optional(),
  kind: z.enum(CONTRACT_KINDS).optional(),
}).strict();

/** The domain's terms, strict: a field the API does not know is a 400, never silently dropped. */
export const ZStrictContractTerms = z.discriminatedUnion('kind', [ZDividendTerms.strict(), ZDailyWagesTerms.strict(), ZHourlySalaryTerms.strict(), ZRealtimeSalaryTerms.strict()]);
export const ZOfferBody = z.object({ downlineId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), terms: ZStrictContractTerms }).strict();

/** A contract the lower-rate rule ends when the caller accepts: shown to the agent, who consents to exactly this list. */
export const ZContractToEnd = z.object({
  contractId: z.number().int().positive(),
  downlineId: z.number().int().positive(),
  downlineAccount: z.string(),
  rate: z.number().int(),
  reason: z.enum(CONTRACT_END_REASONS),
});
export type TContractToEnd = z.infer<typeof ZContractToEnd>;

export const ZAcceptBody = z.object({
  /** The ids of the caller's downline contracts it agrees to end (from acceptancePlan); must cover the whole list. */
  endContractIds: z.array(ZContractId).max(10_000).default([]),
}).strict();

export const ZAcceptValue = z.object({ contract: ZAgentContract, ended: z.array(ZContractToEnd) });
export const ZTerminateValue = z.object({ contract: ZAgentContract, ended: z.array(ZContractToEnd) });

const NoBody = z.object({}).strict();

export const agentContractCalls = {
  list: defineCall({ method: 'GET', path: '/wps/agent/contracts', auth: true, query: ZContractListQuery, value: zPage(ZAgentContract) }),
  offer: defineCall({ method: 'POST', path: '/wps/agent/contracts', auth: true, body: ZOfferBody, value: ZAgentContract }),
  /** What accepting this offer would end (the lower-rate rule), for the consent screen. Only the offered downline. */
  acceptancePlan: defineCall({ method: 'GET', path: '/wps/agent/contracts/:id/acceptance-plan', auth: true, query: ZNoQuery, value: z.object({ end: z.array(ZContractToEnd) }) }),
  accept: defineCall({ method: 'POST', path: '/wps/agent/contracts/:id/accept', auth: true, body: ZAcceptBody, value: ZAcceptValue }),
  reject: defineCall({ method: 'POST', path: '/wps/agent/contracts/:id/reject', auth: true, body: NoBody, value: ZAgentContract }),
  withdraw: defineCall({ method: 'POST', path: '/wps/agent/contracts/:id/withdraw', auth: true, body: NoBody, value: ZAgentContract }),
  terminate: defineCall({ method: 'POST', path: '/wps/agent/contracts/:id/terminate', auth: true, body: NoBody, value: ZTerminateValue }),
};
