import type { QueryClient, QueryKey, Updater } from '@tanstack/react-query';
import type { TWinner } from '@portal/contracts/api/games';
import type { TBalance } from '@portal/contracts/api/wallet';
import type { TSystemStatus } from '@portal/contracts/api/system';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { MessageCategory, TEventEnvelope } from '@portal/contracts/events/events';
import { QUERY_KEYS } from '../lib/query-keys';
import { CONSOLIDATED_FUNDS_KEY } from '../lib/agent-funds';

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

/** A balance.changed payload over a cached balance: the server's numbers win; no fetch needed. */
export function applyBalance(data: TBalance | undefined, payload: { balance: number; available: number; currency: string }): TBalance | undefined {
  if (!data) return data;
  return { ...data, currency: payload.currency, balance: payload.balance, available: payload.available, held: Math.max(payload.balance - payload.available, 0) };
}

type TUnread = { count: number; byCategory: Record<MessageCategory, number> };
/** A message.received over the cached unread counts: the server's numbers win (per tab when it sent them). */
export function applyUnread(data: TUnread | undefined, count: number, byCategory: Record<MessageCategory, number> | undefined): TUnread {
  return { count, byCategory: byCategory ?? data?.byCategory ?? { transaction: 0, system: 0, marketing: 0 } };
}

const writeChains = new WeakMap<QueryClient, Promise<void>>();

/**
 * Writes what an event says into the queries under `queryKey`, so that a read still in flight
 * cannot overwrite it. Such a read (the re-read after the socket's first hello, a refetch on focus)
 * may have been answered before the event's commit: landing after the event, it would put the old
 * value back and nothing would correct it (seen in CI: maintenance switched on while the status was
 * being re-read, and the page stayed open). So the reads in flight are cancelled first; a query whose
 * FIRST read was cancelled has nothing to write into and is read again. With nothing in flight the
 * write is immediate. Writes that had to wait keep their order: later ones queue behind them.
 * The promise settles once the write is made (what must follow it, such as a refetch, waits for it).
 */
export function setFromEvent<T>(qc: QueryClient, queryKey: QueryKey, updater: Updater<T | undefined, T | undefined>): Promise<void> {
  const waiting = writeChains.get(qc);
  if (!waiting && qc.isFetching({ queryKey }) === 0) {
    qc.setQueriesData<T>({ queryKey }, updater);
    return Promise.resolve();
  }
  const next = (waiting ?? Promise.resolve())
    .then(async () => {
      await qc.cancelQueries({ queryKey });
      qc.setQueriesData<T>({ queryKey }, updater);
      void qc.invalidateQueries({ queryKey, predicate: (q) => q.state.data === undefined });
    })
    .catch((e: unknown) => console.error('realtime cache write failed', e));
  writeChains.set(qc, next);
  void next.then(() => {
    if (writeChains.get(qc) === next) writeChains.delete(qc);
  });
  return next;
}

/**
 * Event -> react-query cache. One small function per event type; types handled by later
 * features (contract.*, withdrawal.updated) are delivered to their subscribers through
 * `useRealtimeEvent`; here contract.* only marks the contract flags (lib/agent-funds) stale.
 */
export function applyEventToCache(queryClient: QueryClient, env: TEventEnvelope): void {
  switch (env.type) {
    case 'winner.posted': {
      const winner = (env as TEventEnvelope<'winner.posted'>).payload;
      void setFromEvent<unknown>(queryClient, QUERY_KEYS.rankList, (data: unknown) => prependWinner(data, winner));
      return;
    }
    case 'system.maintenance': {
      const payload = (env as TEventEnvelope<'system.maintenance'>).payload;
      void setFromEvent<TSystemStatus>(queryClient, QUERY_KEYS.systemStatus, (data) => applyMaintenance(data, payload));
      return;
    }
    case 'balance.changed': {
      const payload = (env as TEventEnvelope<'balance.changed'>).payload;
      void setFromEvent<TBalance>(queryClient, QUERY_KEYS.balance, (data) => applyBalance(data, payload));
      return;
    }
    case 'message.received': {
      const { unreadCount, unreadByCategory } = (env as TEventEnvelope<'message.received'>).payload;
      void setFromEvent<TUnread>(queryClient, QUERY_KEYS.unreadCount, (data) => applyUnread(data, unreadCount, unreadByCategory));
      void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.messages });
      return;
    }
    case 'message.read': {
      // Read on another of the member's pages: its counts here too, and the lists' read marks.
      const { unreadCount, unreadByCategory } = (env as TEventEnvelope<'message.read'>).payload;
      void setFromEvent<TUnread>(queryClient, QUERY_KEYS.unreadCount, (data) => applyUnread(data, unreadCount, unreadByCategory));
      void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.messages });
      return;
    }
    case 'content.published': {
      // An operator published or withdrew content: open pages re-read it (the server dropped its cache first).
      const { parts } = (env as TEventEnvelope<'content.published'>).payload;
      if (parts.includes('announcements') || parts.includes('banners')) void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.announcements });
      if (parts.includes('help')) void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.helpCenter });
      if (parts.includes('news')) void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.news });
      return;
    }
    case 'system.changed': {
      // Site settings changed from the operator console: re-read what they feed (status, flags, whitelabel).
      const { parts } = (env as TEventEnvelope<'system.changed'>).payload;
      if (parts.some((p) => p === 'maintenance' || p === 'blocked')) void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.systemStatus });
      if (parts.includes('registration')) void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.registerSettings });
      // A game or vendor put under maintenance (or back, reordered, made hot): open lists show it at once.
      if (parts.includes('games')) for (const queryKey of QUERY_KEYS.gameCatalogue) void queryClient.invalidateQueries({ queryKey });
      if (parts.some((p) => p !== 'maintenance' && p !== 'registration')) {
        void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.whitelabel });
        void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.domainRoute });
      }
      return;
    }
    case 'contract.offered':
    case 'contract.updated':
      // An offer arrived or was answered, withdrawn, ended: the contract flags that gate the agent
      // menu (Daily wages, Dividend...) and its pending-offer marks are stale: re-read them now, not
      // after their 60 s staleTime. Screens that list contracts refresh through useRealtimeEvent.
      void queryClient.invalidateQueries({ queryKey: CONSOLIDATED_FUNDS_KEY });
      return;
    case 'system.resync':
      void queryClient.invalidateQueries();
      return;
    default:
      return;
  }
}
