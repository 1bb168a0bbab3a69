import { createStore, useStore } from './store';
import { readStorage, writeStorage } from './storage';

/**
 * The session token lives in memory and in sessionStorage (so a reload keeps the session in this
 * tab), never in localStorage.
 */
const TOKEN_KEY = 'portal.token';

const tokenStore = createStore<string | null>(readStorage('session', TOKEN_KEY));

export function getSessionToken(): string | null {
  return tokenStore.get();
}

export function setSessionToken(token: string | null): void {
  writeStorage('session', TOKEN_KEY, token);
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
