import { useCallback, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TGame } from '@portal/contracts/api/games';
import { ErrorCode } from '@portal/contracts/api/errors';
import type { FavouritesApi } from '../../lib/game-launch';
import { isApiError } from '../../lib/api';
import { useSessionToken } from '../../lib/session';
import { favouriteIdsKey, useFavouriteIds } from './api/get-favourite-ids';
import { setFavourite } from './api/toggle-favourite';
import { createLeadingThrottle, toggledIds } from './lib/throttle';

export const FAVOURITE_TOGGLE_MS = 1000;

/**
 * The favourites the cards see (lib/game-launch FavouritesContext): the cached id list, updated
 * optimistically, one change per second (spec section 9; trailing clicks ignored). A 429 from the
 * server means the same: the click is ignored and the list goes back to what it was.
 */
export function useFavouritesState(): FavouritesApi {
  const token = useSessionToken();
  const queryClient = useQueryClient();
  const idsQuery = useFavouriteIds(token);
  const throttle = useRef(createLeadingThrottle(FAVOURITE_TOGGLE_MS));
  const ids = idsQuery.data;

  const toggle = useCallback(
    (game: TGame) => {
      if (token === null || !throttle.current.tryAcquire()) return;
      const key = favouriteIdsKey(token);
      const before = queryClient.getQueryData<string[]>(key) ?? [];
      const willBeFavourite = !before.includes(game.nodeId);
      queryClient.setQueryData<string[]>(key, toggledIds(before, game.nodeId));
      setFavourite(game, willBeFavourite).then(
        (value) => {
          queryClient.setQueryData<string[]>(key, value.ids);
          void queryClient.invalidateQueries({ queryKey: ['favourites', 'list'] });
        },
        (error: unknown) => {
          // 429 (another change within the second) is an ignored click; any failure restores the list.
          if (!(isApiError(error) && error.code === ErrorCode.TOO_MANY_REQUESTS)) console.warn('favourite change failed', error);
          queryClient.setQueryData<string[]>(key, (now) => (now && now.includes(game.nodeId) === willBeFavourite ? toggledIds(now, game.nodeId) : now));
        },
      );
    },
    [queryClient, token],
  );

  const idSet = useMemo(() => new Set(ids ?? []), [ids]);
  return useMemo(() => ({ ids: idSet, isEnabled: token !== null, toggle }), [idSet, token, toggle]);
}
