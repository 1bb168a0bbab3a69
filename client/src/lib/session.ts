import { createStore, useStore } from './store';

/**
 * The session token lives in this page's memory only, never in browser storage. A reload gets it
 * back from the gateway (session-keep.ts: an HttpOnly cookie that only the restore call receives).
 */
const tokenStore = createStore<string | null>(null);

export function getSessionToken(): string | null {
  return tokenStore.get();
}

export function setSessionToken(token: string | null): void {
  tokenStore.set(token);
}

export function clearSession(): void {
  setSessionToken(null);
}

export const subscribeSession = tokenStore.subscribe;

export function useSessionToken(): string | null {
  return useStore(tokenStore);
}

export function useIsLoggedIn(): boolean {
  return useSessionToken() !== null;
}
