import { createContext, useContext } from 'react';
import type { TGame } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { createStore, useStore } from './store';

/**
 * What a card asks to open (spec section 2, game launch routing). Shared so every feature's cards
 * (home, game centre) launch the same way without importing the launch feature: a card calls
 * `requestLaunch`, the app mounts the launch feature's host, which runs the launch machine.
 */
export type LaunchTarget =
  | {
      kind: 'game';
      game: TGame;
      /** The free-trial button. */
      freePlay?: boolean;
      /** Start this game now even if its type has its own page (the lottery pages themselves). */
      direct?: boolean;
    }
  | { kind: 'vendor'; vassalage: string; gameType: GameType; displayName: string };

export type LaunchRequest = { seq: number; target: LaunchTarget };

const requestStore = createStore<LaunchRequest | null>(null);
let seq = 0;

export function requestLaunch(target: LaunchTarget): void {
  seq += 1;
  requestStore.set({ seq, target });
}

/**
 * The launch of request `seq` is over (the game opened, a page or the login popup took over, or the player
 * closed it): it is forgotten, unless a newer one came meanwhile. A request kept after a free trial had
 * routed to /house/play (outside the shell) ran again when Back remounted the shell: Back led to the game.
 */
export function finishLaunch(seq: number): void {
  if (requestStore.get()?.seq === seq) requestStore.set(null);
}

export function useLaunchRequest(): LaunchRequest | null {
  return useStore(requestStore);
}

/**
 * Favourites as cards need them (spec section 4: a game is a favourite when its nodeId is in the id
 * list). The favourites feature provides the real value through the app; the default is inert.
 */
export type FavouritesApi = {
  ids: ReadonlySet<string>;
  /** False for guests: the heart is disabled with a tooltip. */
  isEnabled: boolean;
  /** Throttled to one change per second; calls in between are ignored. */
  toggle: (game: TGame) => void;
};

const NO_FAVOURITES: FavouritesApi = { ids: new Set(), isEnabled: false, toggle: () => {} };

export const FavouritesContext = createContext<FavouritesApi>(NO_FAVOURITES);

export function useFavourites(): FavouritesApi {
  return useContext(FavouritesContext);
}
