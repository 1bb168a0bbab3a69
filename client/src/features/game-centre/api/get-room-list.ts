import { queryOptions, useQuery } from '@tanstack/react-query';
import { catalogueCalls, type TRoomListValue } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';

/** GLS2_roomList: the house's live or card tables with their current round. */
export function getRoomList(gameType: 'LIVE' | 'PVP', signal?: AbortSignal): Promise<TRoomListValue> {
  return call(catalogueCalls.roomList, { query: { gameType }, signal });
}

/** Read again every 5 s while shown: a round's phase changes every 15-20 s. */
export function roomListQueryOptions(gameType: 'LIVE' | 'PVP') {
  return queryOptions({
    queryKey: ['gameCentre', 'rooms', gameType] as const,
    queryFn: ({ signal }) => getRoomList(gameType, signal),
    refetchInterval: 5_000,
    staleTime: 2_000,
  });
}

export function useRoomList(gameType: 'LIVE' | 'PVP', enabled: boolean) {
  return useQuery({ ...roomListQueryOptions(gameType), enabled });
}
