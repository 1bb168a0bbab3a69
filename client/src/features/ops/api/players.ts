import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsPlayerCalls, type ZOpsPlayersQuery } from '@portal/contracts/api/ops-players';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsRgCalls } from '@portal/contracts/api/rg';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const playersKey = [...OPS_KEY, 'players'] as const;
export type PlayersQuery = z.input<typeof ZOpsPlayersQuery>;

/** GET /ops/api/players: search by account, mobile or id; status filter; pages. */
export const playersQuery = (q: PlayersQuery) =>
  queryOptions({
    queryKey: [...playersKey, 'list', q],
    queryFn: ({ signal }) => opsCall(opsPlayerCalls.players, { query: q, signal }),
    placeholderData: keepPreviousData,
  });
export function usePlayers(q: PlayersQuery) {
  return useQuery(playersQuery(q));
}

/** GET /ops/api/players/:id: account, registration data, RG state and events, sign-ins. */
export function usePlayer(id: number) {
  return useQuery({
    queryKey: [...playersKey, id, 'profile'],
    queryFn: ({ signal }) => opsCall(opsPlayerCalls.player, { params: { id }, query: {}, signal }),
    refetchInterval: OPS_POLL_MS * 6,
  });
}

/** GET /ops/api/players/:id/money (finance, risk, administrators): the ledger balance. */
export function usePlayerMoney(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...playersKey, id, 'money'],
    queryFn: ({ signal }) => opsCall(opsPlayerCalls.playerMoney, { params: { id }, query: {}, signal }),
    enabled,
  });
}

/** Rows per page of the profile's money records. */
export const PLAYER_RECORDS_PAGE_SIZE = 10;
/** The profile's paged money records: GET /ops/api/players/:id/{deposits,withdrawals,bets,ledger}. */
const PLAYER_RECORDS = {
  deposits: opsPlayerCalls.playerDeposits,
  withdrawals: opsPlayerCalls.playerWithdrawals,
  bets: opsPlayerCalls.playerBets,
  ledger: opsPlayerCalls.playerLedger,
} as const;
type PlayerRecords = typeof PLAYER_RECORDS;

/** One page of one of the player's records, newest first, with the total. */
function usePlayerRecords<K extends keyof PlayerRecords>(kind: K, id: number, pageNo: number, enabled: boolean) {
  const def = PLAYER_RECORDS[kind] as PlayerRecords[K];
  return useQuery({
    queryKey: [...playersKey, id, 'money', kind, pageNo],
    // every one of them takes ZOpsPlayerRecordsQuery (TypeScript cannot see that through K)
    queryFn: ({ signal }) => opsCall(def, { params: { id }, query: { pageNo, pageSize: PLAYER_RECORDS_PAGE_SIZE } as never, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
export const usePlayerDeposits = (id: number, pageNo: number, enabled: boolean) => usePlayerRecords('deposits', id, pageNo, enabled);
export const usePlayerWithdrawals = (id: number, pageNo: number, enabled: boolean) => usePlayerRecords('withdrawals', id, pageNo, enabled);
export const usePlayerBets = (id: number, pageNo: number, enabled: boolean) => usePlayerRecords('bets', id, pageNo, enabled);
export const usePlayerLedger = (id: number, pageNo: number, enabled: boolean) => usePlayerRecords('ledger', id, pageNo, enabled);

/** GET /ops/api/players/:id/notes (support, risk, administrators), newest first. */
export function usePlayerNotes(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...playersKey, id, 'notes'],
    queryFn: ({ signal }) => opsCall(opsPlayerCalls.notes, { params: { id }, query: {}, signal }),
    enabled,
  });
}

/** POST /ops/api/players/:id/notes: append a note (author and time come from the server). */
export function useAddNote(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => opsCall(opsPlayerCalls.addNote, { params: { id }, body: { note } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [...playersKey, id, 'notes'] }),
  });
}

/** POST /ops/api/members/:id/status: freeze (sessions end at once) or unfreeze, with a reason. */
export function useSetPlayerStatus(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { status: 'active' | 'disabled'; reason: string }) => opsCall(opsCalls.memberStatus, { params: { id }, body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: playersKey }),
  });
}

/** The RG operator calls: exclude (operator-initiated) and lift an operator exclusion. */
export function useRgExclude(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { duration: '6m' | '1y' | '5y' | '24h' | '7d' | '30d' | null; reason: string }) => opsCall(opsRgCalls.exclude, { body: { memberId: id, ...b } }),
    onSettled: () => qc.invalidateQueries({ queryKey: playersKey }),
  });
}
export function useRgLift(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { exclusionId: string; reason: string }) => opsCall(opsRgCalls.lift, { params: { id: b.exclusionId }, body: { reason: b.reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [...playersKey, id] }),
  });
}
