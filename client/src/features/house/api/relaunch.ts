import { catalogueCalls } from '@portal/contracts/api/games';
import { launchCall } from '@portal/contracts/api/vendor';
import type { THouseGameCode } from '@portal/contracts/api/house';
import { call } from '../../../lib/api';
import { getLoginFlags } from '../../../lib/login-state';
import { getSessionToken } from '../../../lib/session';

/** The house provider's vendor code in the catalogue. */
const HOUSE_VENDOR = 'HOUSE';

/**
 * A new launch code for this house game, as a card click in the portal gets one (the page was
 * opened by URL without a session of its game): only for a signed-in real member; null otherwise.
 */
export function relaunchHouseGame(game: THouseGameCode): Promise<string | null> {
  // StrictMode's second effect run (or a remount) while one launch is under way reuses it.
  let p = inFlight.get(game);
  if (!p) {
    p = launchAgain(game).finally(() => inFlight.delete(game));
    inFlight.set(game, p);
  }
  return p;
}

const inFlight = new Map<THouseGameCode, Promise<string | null>>();

async function launchAgain(game: THouseGameCode): Promise<string | null> {
  if (getSessionToken() === null || getLoginFlags().isTrial) return null;
  const list = await call(catalogueCalls.gameList, { query: { vassalage: HOUSE_VENDOR, gameName: '', pageSize: 20 } });
  const entry = list.games.find((g) => g.gameCode === game && g.isGame !== 'VASSALAGE');
  if (!entry) return null;
  const launched = await call(launchCall, { body: { nodeId: entry.nodeId } });
  return new URL(launched.url, window.location.origin).searchParams.get('token');
}
