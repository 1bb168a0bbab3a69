import { z } from 'zod';
import { ZIdInput } from './ids.ts';
import { defineCall } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { OPS_PREFIX } from './ops.ts';
import { ZAgentContract, ZStrictContractTerms, ZTerminateValue } from './agent-contracts.ts';
import { CONTRACT_KINDS, CONTRACT_STATUSES } from '../domain/agent-contracts.ts';

/**
 * The operator's view of agents (issue 11) in the back office under /ops/api (operator sessions,
 * roles and audit like every other ops call; a member token is 401). Reading needs the `read`
 * permission; granting a top agent's contract with the house and terminating a contract need `admin`.
 * Every change writes an audit_log row (and the contract's own agent_contract_audit rows) in the
 * same transaction, and emits `contract.updated` / `contract.offered` to the parties through the outbox.
 *
 * An operator termination leaves the contract `terminated` with `endedBy` null and `endReason` null
 * (the reason the operator typed is in the audit trail); what the downline gave below it ends with
 * `uplineContractEnded`, as when a party terminates.
 */

/** A live contract of a member as the tree shows it: its kind and rate, and whether the house pays it. */
export const ZOpsLiveContract = z.object({
  id: z.number().int().positive(),
  kind: z.enum(CONTRACT_KINDS),
  /** Basis points. */
  rate: z.number().int(),
  /** true: the house's contract with a top agent (no upline). */
  house: z.boolean(),
});

export const ZOpsTreeRow = z.object({
  id: z.number().int().positive(),
  account: z.string(),
  nickname: z.string().nullable(),
  type: z.number().int(),
  isAgent: z.boolean(),
  status: z.enum(['active', 'disabled']),
  parentId: z.number().int().positive().nullable(),
  /** Depth in the tree: 0 for a member without an upline. */
  depth: z.number().int().min(0),
  /** Everyone below the member (not the member itself). */
  teamSize: z.number().int().min(0),
  directCount: z.number().int().min(0),
  contracts: z.array(ZOpsLiveContract),
});
export type TOpsTreeRow = z.infer<typeof ZOpsTreeRow>;

export const ZOpsBreadcrumb = z.object({ id: z.number().int().positive(), account: z.string() });

/**
 * rootId: list its direct downlines (drill down), with `path` the breadcrumb from the top of the tree
 * to rootId (both included). search: members of the whole merchant whose account contains the text
 * (case-insensitive), each with its own `path` to find it in the tree. Neither: the members without
 * an upline (top agents first). `root` is the member rootId names, null otherwise.
 */
export const ZOpsTreeQuery = ZPageQuery.extend({
  rootId: ZIdInput.optional(),
  search: z.string().trim().min(1).max(64).optional(),
}).strict();

export const ZOpsTreeSearchRow = ZOpsTreeRow.extend({ path: z.array(ZOpsBreadcrumb) });
export const ZOpsTreeValue = zPage(ZOpsTreeSearchRow).extend({
  root: ZOpsTreeRow.nullable(),
  path: z.array(ZOpsBreadcrumb),
});
export type TOpsTreeValue = z.infer<typeof ZOpsTreeValue>;

/** Every contract of the merchant; `account` matches either party's account exactly (case-insensitive). */
export const ZOpsContractsQuery = ZPageQuery.extend({
  kind: z.enum(CONTRACT_KINDS).optional(),
  status: z.enum(CONTRACT_STATUSES).optional(),
  account: z.string().trim().min(1).max(64).optional(),
  /** true: only the house's contracts with top agents; false: only agent-to-agent contracts. */
  house: z.enum(['true', 'false']).optional(),
}).strict();

export const ZOpsHouseContractBody = z.object({
  memberId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  terms: ZStrictContractTerms,
}).strict();

export const ZOpsTerminateBody = z.object({ reason: z.string().trim().min(2).max(500) }).strict();

/** An operator makes a member without an upline a top agent (type 1): the only way a merchant gets its first agents. */
export const ZOpsTopAgentBody = z.object({ reason: z.string().trim().min(2).max(500) }).strict();
export const ZOpsTopAgentValue = z.object({ id: z.number().int(), account: z.string(), type: z.number().int(), isAgent: z.literal(true) });

const p = (s: string) => `${OPS_PREFIX}${s}`;

export const opsAgentCalls = {
  tree: defineCall({ method: 'GET', path: p('/agents/tree'), auth: true, query: ZOpsTreeQuery, value: ZOpsTreeValue }),
  contracts: defineCall({ method: 'GET', path: p('/agents/contracts'), auth: true, query: ZOpsContractsQuery, value: zPage(ZAgentContract) }),
  /** The house's contract with a top agent (a member without an upline): active at once, replacing its house contract of the kind. */
  grantHouseContract: defineCall({ method: 'POST', path: p('/agents/house-contracts'), auth: true, body: ZOpsHouseContractBody, value: ZAgentContract }),
  /** End a live contract as the operator; what the downline gave below it ends too (`ended`). */
  terminate: defineCall({ method: 'POST', path: p('/agents/contracts/:id/terminate'), auth: true, body: ZOpsTerminateBody, value: ZTerminateValue }),
  makeTopAgent: defineCall({ method: 'POST', path: p('/agents/:id/top-agent'), auth: true, body: ZOpsTopAgentBody, value: ZOpsTopAgentValue }),
};
