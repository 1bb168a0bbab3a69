import type { ReactNode } from 'react';
import { useMemberInfo } from '../features/auth/api/get-member-info';
import { useIsLoggedIn } from '../lib/session';
import { RgExclusionContext } from '../lib/rg-exclusion';

/** The signed-in player's exclusion in force (member info), for every page and popup of the shell. */
export function RgExclusionProvider({ children }: { children: ReactNode }) {
  const isLoggedIn = useIsLoggedIn();
  const x = useMemberInfo().data?.rgExclusion;
  const value = isLoggedIn && x ? x : null;
  return <RgExclusionContext.Provider value={value}>{children}</RgExclusionContext.Provider>;
}
