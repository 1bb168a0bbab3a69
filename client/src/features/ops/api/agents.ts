import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TAgentContract } from '@portal/contracts/api/agent-contracts';
import { opsAgentCalls, type ZOpsContractsQuery, type ZOpsTreeQuery } from '@portal/contracts/api/ops-agents';
import type { TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { opsAgentDisputeCalls, type ZOpsDispute, type ZOpsDisputeQuery, type ZOpsPayoutQuery, type ZResolveDisputeBody } from '@portal/contracts/api/agent-payouts';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type { TAgentContract };
export type OpsTreeFilter = z.input<typeof ZOpsTreeQuery>;
export type OpsContractsFilter = z.input<typeof ZOpsContractsQuery>;

const AGENTS_KEY = [...OPS_KEY, 'agents'] as const;

/** GET /ops/api/agents/tree: top members, one member's direct downlines (rootId), or a search. */
export const agentTreeQuery = (f: OpsTreeFilter) =>
  queryOptions({
    queryKey: [...AGENTS_KEY, 'tree', f],
    queryFn: ({ signal }) => opsCall(opsAgentCalls.tree, { query: f, signal }),
    placeholderData: keepPreviousData,
  });
export const useAgentTree = (f: OpsTreeFilter) => useQuery(agentTreeQuery(f));

/** GET /ops/api/agents/contracts, polled like the other lists. */
export const agentContractsQuery = (f: OpsContractsFilter) =>
  queryOptions({
    queryKey: [...AGENTS_KEY, 'contracts', f],
    queryFn: ({ signal }) => opsCall(opsAgentCalls.contracts, { query: f, signal }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
export const useAgentContracts = (f: OpsContractsFilter) => useQuery(agentContractsQuery(f));

export function useGrantHouseContract() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { memberId: number; terms: TContractTerms }) => opsCall(opsAgentCalls.grantHouseContract, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }),
  });
}

export function useTerminateContract() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { id: number; reason: string }) => opsCall(opsAgentCalls.terminate, { params: { id: String(b.id) }, body: { reason: b.reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }),
  });
}

/** POST /ops/api/agents/:id/top-agent: a member without an upline becomes a top agent. */
export function useMakeTopAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { id: number; reason: string }) => opsCall(opsAgentCalls.makeTopAgent, { params: { id: String(b.id) }, body: { reason: b.reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }),
  });
}

export type OpsDisputeFilter = z.input<typeof ZOpsDisputeQuery>;
export type TOpsDispute = z.infer<typeof ZOpsDispute>;
export type DisputeResolution = { id: number; body: z.input<typeof ZResolveDisputeBody> };

/** GET /ops/api/agent-disputes by status, polled. */
export const agentDisputesQuery = (f: OpsDisputeFilter) =>
  queryOptions({
    queryKey: [...AGENTS_KEY, 'disputes', f],
    queryFn: ({ signal }) => opsCall(opsAgentDisputeCalls.list, { query: f, signal }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
export const useAgentDisputes = (f: OpsDisputeFilter) => useQuery(agentDisputesQuery(f));

export type OpsPayoutFilter = z.input<typeof ZOpsPayoutQuery>;
/** GET /ops/api/agent-payouts: the merchant's contract payouts by status, kind and account, polled. */
export const agentPayoutsQuery = (f: OpsPayoutFilter) =>
  queryOptions({
    queryKey: [...AGENTS_KEY, 'payouts', f],
    queryFn: ({ signal }) => opsCall(opsAgentDisputeCalls.payouts, { query: f, signal }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
export const useAgentPayouts = (f: OpsPayoutFilter) => useQuery(agentPayoutsQuery(f));

/** POST /ops/api/agent-disputes/:id/resolve: reject, or adjust (an amount paid to the payee). */
export function useResolveDispute() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (r: DisputeResolution) => opsCall(opsAgentDisputeCalls.resolve, { params: { id: String(r.id) }, body: r.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }),
  });
}
