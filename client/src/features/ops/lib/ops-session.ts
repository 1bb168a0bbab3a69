import { createStore, useStore } from '../../../lib/store';
import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * The operator token: memory plus sessionStorage (a reload keeps the session in this tab), never
 * localStorage, and separate from the member token so a player session and an operator session
 * never mix.
 */
export const OPS_TOKEN_KEY = 'portal.opsToken';

const opsTokenStore = createStore<string | null>(readStorage('session', OPS_TOKEN_KEY));

export function getOpsToken(): string | null {
  return opsTokenStore.get();
}

export function setOpsToken(token: string | null): void {
  writeStorage('session', OPS_TOKEN_KEY, token);
  opsTokenStore.set(token);
}

export function clearOpsToken(): void {
  setOpsToken(null);
}

export function useOpsToken(): string | null {
  return useStore(opsTokenStore);
}
