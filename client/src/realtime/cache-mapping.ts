import type { QueryClient } from '@tanstack/react-query';
import type { TWinner } from '@portal/contracts/api/games';
import type { TSystemStatus } from '@portal/contracts/api/system';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { TEventEnvelope } from '@portal/contracts/events/events';
import { QUERY_KEYS } from '../lib/query-keys';

/** Prepends a posted winner to a rank-list value `{ list }` (or a bare array), without duplicates. */
export function prependWinner(data: unknown, winner: TWinner): unknown {
  const add = (list: readonly TWinner[]) => [winner, ...list.filter((w) => w.id !== winner.id)].slice(0, LIMITS.WINNER_BOARD_LIMIT);
  if (Array.isArray(data)) return add(data as TWinner[]);
  if (typeof data === 'object' && data !== null && 'list' in data && Array.isArray(data.list)) {
    return { ...data, list: add(data.list as TWinner[]) };
  }
  return data;
}

export function applyMaintenance(data: TSystemStatus | undefined, payload: { systemStatus: 0 | 1 | 2; message?: string }): TSystemStatus | undefined {
  if (!data) return data;
  return { ...data, systemStatus: payload.systemStatus, message: payload.message };
}

/**
 * Event -> react-query cache. One small function per event type; types handled by later
 * features (balance.changed, message.received, contract.*, withdrawal.updated) are delivered to
 * their subscribers through `useRealtimeEvent` and need no cache write here yet.
 */
export function applyEventToCache(queryClient: QueryClient, env: TEventEnvelope): void {
  switch (env.type) {
    case 'winner.posted': {
      const winner = (env as TEventEnvelope<'winner.posted'>).payload;
      queryClient.setQueriesData({ queryKey: QUERY_KEYS.rankList }, (data: unknown) => prependWinner(data, winner));
      return;
    }
    case 'system.maintenance': {
      const payload = (env as TEventEnvelope<'system.maintenance'>).payload;
      queryClient.setQueryData<TSystemStatus>(QUERY_KEYS.systemStatus, (data) => applyMaintenance(data, payload));
      return;
    }
    case 'system.resync':
      void queryClient.invalidateQueries();
      return;
    default:
      return;
  }
}
