import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { agentContractCalls, type TAgentContract } from '@portal/contracts/api/agent-contracts';
import type { ContractKind, ContractStatus, TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { RATE_DENOMINATOR } from '@portal/contracts/domain/agent-contracts';
import { call } from '../../../lib/api';

/** Prefix of every contract list query: `contract.offered` / `contract.updated` invalidate it. */
export const CONTRACTS_KEY = ['agents', 'contracts'] as const;

export type ContractListFilter = {
  role?: 'given' | 'received' | undefined;
  status?: ContractStatus | undefined;
  kind?: ContractKind | undefined;
  pageNo?: number;
  pageSize?: number;
};

export function listContracts(f: ContractListFilter, signal?: AbortSignal) {
  return call(agentContractCalls.list, {
    query: { role: f.role, status: f.status, kind: f.kind, pageNo: f.pageNo ?? 1, pageSize: f.pageSize ?? 50 },
    signal,
  });
}

export function useContracts(f: ContractListFilter, enabled = true) {
  return useQuery({
    queryKey: [...CONTRACTS_KEY, 'list', f] as const,
    queryFn: ({ signal }) => listContracts(f, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const offerContract = (downlineId: number, terms: TContractTerms) => call(agentContractCalls.offer, { body: { downlineId, terms } });
export const acceptancePlan = (id: number | string) => call(agentContractCalls.acceptancePlan, { params: { id } });
export const acceptContract = (id: number | string, endContractIds: number[]) => call(agentContractCalls.accept, { params: { id }, body: { endContractIds } });
export const rejectContract = (id: number | string) => call(agentContractCalls.reject, { params: { id }, body: {} });
export const withdrawContract = (id: number | string) => call(agentContractCalls.withdraw, { params: { id }, body: {} });
export const terminateContract = (id: number | string) => call(agentContractCalls.terminate, { params: { id }, body: {} });

/** Basis points as a percent text: 150 -> "1.5%". */
export function percentOf(bps: number): string {
  const pct = (bps * 100) / RATE_DENOMINATOR;
  return `${Number(pct.toFixed(2))}%`;
}

/** A percent typed by the user ("1.5") as basis points, or null when it is not a number with at most 2 decimals. */
export function bpsOf(percent: string): number | null {
  const s = percent.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(s)) return null;
  const [i, f = ''] = s.split('.');
  return Number(i) * 100 + Number(f.padEnd(2, '0'));
}

/** The settlement period of the terms, as an i18n key suffix. */
export function periodOfTerms(terms: TContractTerms): string {
  return terms.kind === 'dividend' ? terms.profitLossPeriod : terms.validBetPeriod;
}

export type { TAgentContract };
