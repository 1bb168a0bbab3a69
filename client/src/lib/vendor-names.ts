import { useQuery } from '@tanstack/react-query';
import { gameCalls } from '@portal/contracts/api/games';
import { call } from './api';
import { getMerchantCode } from './merchant';

/**
 * Vendor display names (GCSGAME_gameVendor, the same cached answer the navigation uses), so a card
 * shows "Manila Live", never the code MNL or TCG_SEA. Until they load, or for a vendor not listed,
 * the code's words (TCG_SEA -> TCG SEA).
 */
export function useVendorName(): (code: string) => string {
  const lanes = useQuery({
    queryKey: ['gameVendor'] as const,
    queryFn: async ({ signal }) => (await call(gameCalls.gameVendor, { query: { merchantCode: getMerchantCode() ?? undefined }, signal })).data.lanes,
    staleTime: 5 * 60_000,
  });
  return (code: string) => vendorNameOf(lanes.data ?? [], code);
}

export function vendorNameOf(lanes: ReadonlyArray<{ vendors: ReadonlyArray<{ vassalage: string; displayName: string }> }>, code: string): string {
  for (const lane of lanes) for (const v of lane.vendors) if (v.vassalage === code && v.displayName.trim()) return v.displayName;
  return code.replace(/[_-]+/g, ' ');
}
