import { createStore, useStore } from '../../../lib/store';

/**
 * The operator token, in this page's memory only (never browser storage), separate from the member
 * token so a player session and an operator session never mix. A reload gets it back from the
 * gateway (ops-session-keep.ts).
 */
const opsTokenStore = createStore<string | null>(null);

export function getOpsToken(): string | null {
  return opsTokenStore.get();
}

export function setOpsToken(token: string | null): void {
  opsTokenStore.set(token);
}

export function clearOpsToken(): void {
  setOpsToken(null);
}

export const subscribeOpsToken = opsTokenStore.subscribe;

export function useOpsToken(): string | null {
  return useStore(opsTokenStore);
}
