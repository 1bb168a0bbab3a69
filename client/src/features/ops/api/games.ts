import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

const gamesKey = [...OPS_KEY, 'games'] as const;
export type GamesFilter = { search: string; hot: '' | 'true'; pageNo: number; pageSize: number };

/** GET /ops/api/vendors. */
export function useOpsVendors() {
  return useQuery(queryOptions({ queryKey: [...gamesKey, 'vendors'], queryFn: ({ signal }) => opsCall(opsCalls.vendors, { query: {}, signal }) }));
}

/** GET /ops/api/games: hot games first (by rank), then by order. */
export function useOpsGames(f: GamesFilter) {
  return useQuery(queryOptions({
    queryKey: [...gamesKey, 'list', f],
    queryFn: ({ signal }) => opsCall(opsCalls.games, { query: { search: f.search.trim() || undefined, hot: f.hot || undefined, pageNo: f.pageNo, pageSize: f.pageSize }, signal }),
    placeholderData: keepPreviousData,
  }));
}

/** POST /ops/api/vendors: a vendor's maintenance or order. */
export function useUpdateVendor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { vassalage: string; gameType: string; maintenance?: boolean; sort?: number }) => opsCall(opsCalls.updateVendor, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: gamesKey }),
  });
}

/** POST /ops/api/games/:id: a game's maintenance, order or hot rank (null: not hot). */
export function useUpdateGame() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: number; body: { maintenance?: boolean; sort?: number; hotRank?: number | null } }) => opsCall(opsCalls.updateGame, { params: { id: i.id }, body: i.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: gamesKey }),
  });
}
