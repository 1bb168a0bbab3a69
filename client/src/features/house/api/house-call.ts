import { ErrorCode } from '@portal/contracts/api/errors';
import { HOUSE_SESSION_HEADER } from '@portal/contracts/api/house';
import { createApiClient } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';
import { createStore, useStore } from '../../../lib/store';

/**
 * The game page's fetcher for /house/api: the house game session travels in X-House-Session;
 * the member's portal session token is never sent from the game page.
 */
let houseSession: string | null = null;

/** True once the gateway refused the page's game session (the member logged out, was disabled...). */
const endedStore = createStore(false);

export function setHouseSession(token: string | null) {
  houseSession = token;
  if (token) endedStore.set(false);
}

/** The page found its game session gone (no live session of its game any more): ended, as a refusal says. */
export function markHouseSessionEnded(): void {
  houseSession = null;
  endedStore.set(true);
}

export function isHouseSessionEnded(): boolean {
  return endedStore.get();
}

/** Whether the game session has ended: the page drops it and says so, whichever call found out. */
export function useHouseSessionEnded(): boolean {
  return useStore(endedStore);
}

export const houseCall = createApiClient({
  fetch: async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('Authorization');
    const sent = houseSession;
    if (sent) headers.set(HOUSE_SESSION_HEADER, sent);
    const res = await fetch(input, { ...init, headers });
    if (sent && res.status === 401) {
      const body = (await res.clone().json().catch(() => null)) as { code?: unknown } | null;
      if (body?.code === ErrorCode.GAME_TOKEN_INVALID && houseSession === sent) {
        houseSession = null;
        endedStore.set(true);
      }
    }
    return res;
  },
  getToken: () => null,
  getMerchant: getMerchantCode,
  onUnauthorized: () => undefined,
});
