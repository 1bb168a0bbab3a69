import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { agentPayoutCalls } from '@portal/contracts/api/agent-payouts';
import type { ContractKind } from '@portal/contracts/domain/agent-contracts';
import { call } from '../../../lib/api';

/** Prefix of the payout queries; a settlement moves the balance and these are refetched. */
export const PAYOUTS_KEY = ['agents', 'payouts'] as const;

export type PayoutFilter = { kind?: ContractKind | undefined; role: 'received' | 'paid'; from: string; to: string; pageNo: number; pageSize: number };

export function usePayouts(f: PayoutFilter) {
  return useQuery({
    queryKey: [...PAYOUTS_KEY, 'list', f] as const,
    queryFn: ({ signal }) => call(agentPayoutCalls.list, { query: f, signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePayout(id: number | null) {
  return useQuery({
    queryKey: [...PAYOUTS_KEY, 'one', id] as const,
    queryFn: ({ signal }) => call(agentPayoutCalls.get, { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

export function useIncome(from: string, to: string) {
  return useQuery({
    queryKey: [...PAYOUTS_KEY, 'income', from, to] as const,
    queryFn: ({ signal }) => call(agentPayoutCalls.income, { query: { from, to }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const disputePayout = (id: number, reason: string) => call(agentPayoutCalls.dispute, { params: { id }, body: { reason } });
