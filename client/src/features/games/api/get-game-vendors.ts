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

const NONE: ReadonlySet<string> = new Set();
/** Vendors whose games the vendor simulator plays (marked "Simulated demo" on tiles and at launch). */
export function useSimulatedVendors(): ReadonlySet<string> {
  const { data } = useQuery({
    ...gameVendorsQueryOptions(),
    select: (lanes) => new Set(lanes.flatMap((l) => l.vendors.filter((v) => v.simulated).map((v) => v.vassalage))),
  });
  return data ?? NONE;
}
