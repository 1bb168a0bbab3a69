import { useQuery } from '@tanstack/react-query';
import { gameCalls } from '@portal/contracts/api/games';
import { call } from './api';
import { getMerchantCode } from './merchant';

/**
 * Vendor display names (GCSGAME_gameVendor, the same cached answer the navigation uses), so a card
 * shows "Manila Live", never the code MNL or TCG_SEA. Until they load, or for a vendor not listed,
 * the code's words (TCG_SEA -> TCG SEA).
 */
export function useVendorName(): (code: string, gameType?: string | null) => string {
  const lanes = useQuery({
    queryKey: ['gameVendor'] as const,
    queryFn: async ({ signal }) => (await call(gameCalls.gameVendor, { query: { merchantCode: getMerchantCode() ?? undefined }, signal })).data.lanes,
    staleTime: 5 * 60_000,
  });
  return (code: string, gameType?: string | null) => vendorNameOf(lanes.data ?? [], code, gameType);
}

type Lane = { gameType?: string; vendors: ReadonlyArray<{ vassalage: string; gameType?: string; displayName: string }> };

/**
 * A vendor's display name. A vendor code may have one name per game type (the house vendor HOUSE is
 * Lucky Slots, Lucky Live, Lucky Arcade and Lucky Cards): with the game's type, that type's name;
 * otherwise (or when that type has none) the first name found.
 */
export function vendorNameOf(lanes: ReadonlyArray<Lane>, code: string, gameType?: string | null): string {
  if (gameType) {
    for (const lane of lanes) for (const v of lane.vendors) if (v.vassalage === code && (v.gameType ?? lane.gameType) === gameType && v.displayName.trim()) return v.displayName;
  }
  for (const lane of lanes) for (const v of lane.vendors) if (v.vassalage === code && v.displayName.trim()) return v.displayName;
  return code.replace(/[_-]+/g, ' ');
}
