import { useMemo } from 'react';
import { useGameVendors } from '../../features/games/api/get-game-vendors';
import { buildNav } from '../../features/games/lib/nav';
import type { NavEntry } from '../../features/games/lib/nav';

/** The main navigation; the always-on entries show while vendors load. */
export function useNav(): NavEntry[] {
  const { data } = useGameVendors();
  return useMemo(() => buildNav(data ?? []), [data]);
}
