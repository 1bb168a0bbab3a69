import type { ReactNode } from 'react';
import { FavouritesContext } from '../lib/game-launch';
import { LaunchHost } from '../features/launch/components/launch-host';
import { useFavouritesState } from '../features/favourites/use-favourites-state';

/**
 * Game launch and favourites for every card in the shell. Cards only know lib/game-launch; the app
 * plugs in the launch and favourites features here (features never import each other).
 */
export function GameServices({ children }: { children: ReactNode }) {
  const favourites = useFavouritesState();
  return (
    <FavouritesContext.Provider value={favourites}>
      {children}
      <LaunchHost />
    </FavouritesContext.Provider>
  );
}
