import type { ReactNode } from 'react';
import { FavouritesContext, useLaunchRequest } from '../lib/game-launch';
import { lazyNamed } from './lazy-page';
import { useFavouritesState } from '../features/favourites/use-favourites-state';

/** The launch popup (and its state machine) loads when a card first asks for a launch (then runs that request). */
const LaunchHost = lazyNamed(() => import('../features/launch/components/launch-host'), 'LaunchHost', null);

/**
 * Game launch and favourites for every card in the shell. Cards only know lib/game-launch; the app
 * plugs in the launch and favourites features here (features never import each other).
 */
export function GameServices({ children }: { children: ReactNode }) {
  const favourites = useFavouritesState();
  const hasLaunch = useLaunchRequest() !== null;
  return (
    <FavouritesContext.Provider value={favourites}>
      {children}
      {hasLaunch && <LaunchHost />}
    </FavouritesContext.Provider>
  );
}
