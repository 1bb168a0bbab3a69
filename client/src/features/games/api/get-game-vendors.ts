import { queryOptions, useQuery } from '@tanstack/react-query';
import { gameCalls } from '@portal/contracts/api/games';
import type { TGameCategory } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';

/** GCSGAME_gameVendor: game categories (lanes) with their vendors. */
export async function getGameVendors(signal?: AbortSignal): Promise<TGameCategory[]> {
  const merchantCode = getMerchantCode() ?? undefined;
  const value = await call(gameCalls.gameVendor, { query: { merchantCode }, signal });
  return value.data.lanes;
}

export function gameVendorsQueryOptions() {
  return queryOptions({
    queryKey: ['gameVendor'] as const,
    queryFn: ({ signal }) => getGameVendors(signal),
    staleTime: 5 * 60_000,
  });
}

export function useGameVendors() {
  return useQuery(gameVendorsQueryOptions());
}
