import { createContext, useContext } from 'react';

/**
 * The signed-in player's responsible-gaming exclusion in force (member info `rgExclusion`), or null.
 * The server refuses every money-in call of such a restricted session (RG_EXCLUDED: deposits, game
 * launches, transfers, promotions, points, envelopes, missions; withdrawals stay open), so the pages
 * show those places closed instead of a form that fails. The app provides the value from member info
 * (app/rg-exclusion-provider.tsx); features read it here without importing the auth feature.
 */
export type RgExclusionState = { kind: string; until: string | null } | null;

export const RgExclusionContext = createContext<RgExclusionState>(null);

export function useRgExclusion(): RgExclusionState {
  return useContext(RgExclusionContext);
}
