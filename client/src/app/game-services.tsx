import type { ReactNode } from 'react';
import { FavouritesContext } from '../lib/game-launch';
import { lazyNamed } from './lazy-page';
import { useFavouritesState } from '../features/favourites/use-favourites-state';

/** The launch popup (and its state machine) loads with the shell, not before the first paint. */
const LaunchHost = lazyNamed(() => import('../features/launch/components/launch-host'), 'LaunchHost', null);

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
