import { useEffect, useRef } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { gameCalls, type TWinner } from '@portal/contracts/api/games';
import { LIMITS } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { currentLanguage } from '../../../i18n/i18n';
import { useHomeLanguage } from '../use-home-language';

export type TRankList = { list: TWinner[] };

/** GET /wps/relay/GCSGAME_getRankList: the latest 20 wins of every category. */
export function getRankList(signal?: AbortSignal): Promise<TRankList> {
  return call(gameCalls.rankList, {
    query: { gameCategory: 'ALL', language: currentLanguage(), limitNum: LIMITS.WINNER_BOARD_LIMIT },
    signal,
  });
}

/**
 * The key is exactly ['rankList'] (no language) because the realtime client prepends
 * `winner.posted` events into it; a language change refetches instead.
 */
export function rankListQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.rankList,
    queryFn: ({ signal }) => getRankList(signal),
    // Live events keep it fresh; a refetch would only replace the same rows.
    staleTime: 5 * 60_000,
  });
}

export function useRankList() {
  const queryClient = useQueryClient();
  const language = useHomeLanguage();
  const lastLanguage = useRef(language);
  useEffect(() => {
    if (lastLanguage.current === language) return;
    lastLanguage.current = language;
    void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.rankList, exact: true });
  }, [language, queryClient]);
  return useQuery(rankListQueryOptions());
}
