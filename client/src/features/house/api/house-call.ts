import { HOUSE_SESSION_HEADER } from '@portal/contracts/api/house';
import { createApiClient } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';

/**
 * The game page's fetcher for /house/api: the house game session travels in X-House-Session;
 * the member's portal session token is never sent from the game page.
 */
let houseSession: string | null = null;

export function setHouseSession(token: string | null) {
  houseSession = token;
}

export const houseCall = createApiClient({
  fetch: (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('Authorization');
    if (houseSession) headers.set(HOUSE_SESSION_HEADER, houseSession);
    return fetch(input, { ...init, headers });
  },
  getToken: () => null,
  getMerchant: getMerchantCode,
  onUnauthorized: () => undefined,
});
