import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogueCalls, gameCalls, type TWinner } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';
import { currentLanguage } from '../../../i18n/i18n';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { setFromEvent } from '../../../realtime/cache-mapping';

/** The winners page shows the latest 100 (the board's own call, its largest page). */
export const WINNERS_PAGE_LIMIT = 100;

export const winnersQuery = () =>
  queryOptions({
    queryKey: ['winnersPage', WINNERS_PAGE_LIMIT] as const,
    queryFn: ({ signal }) => call(gameCalls.rankList, { query: { gameCategory: 'ALL', language: currentLanguage(), limitNum: WINNERS_PAGE_LIMIT }, signal }),
    staleTime: 60_000,
  });

/** The latest wins, with `winner.posted` events put in front as they happen. */
export function useWinners() {
  const qc = useQueryClient();
  useRealtimeEvent('winner.posted', (env) => {
    void setFromEvent<{ list: TWinner[] }>(qc, winnersQuery().queryKey, (d) =>
      d ? { list: [env.payload, ...d.list.filter((w) => w.id !== env.payload.id)].slice(0, WINNERS_PAGE_LIMIT) } : d);
  });
  return useQuery(winnersQuery());
}

/** How many games this site lists right now, all and slots (the catalogue search's totals). */
export function useGameCounts() {
  const all = useQuery({
    queryKey: ['siteFacts', 'games', 'all'],
    queryFn: ({ signal }) => call(catalogueCalls.gameList, { query: { pageNo: 1, pageSize: 1 }, signal }),
    staleTime: 5 * 60_000,
  });
  const slots = useQuery({
    queryKey: ['siteFacts', 'games', 'RNG'],
    queryFn: ({ signal }) => call(catalogueCalls.gameList, { query: { gameType: 'RNG', pageNo: 1, pageSize: 1 }, signal }),
    staleTime: 5 * 60_000,
  });
  return { all: all.data?.total ?? null, slots: slots.data?.total ?? null, isPending: all.isPending || slots.isPending };
}
