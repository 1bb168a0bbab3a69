import { setLoginFlags } from '../../../lib/login-state';
import { setMerchantCode } from '../../../lib/merchant';
import { clearSession, setSessionToken } from '../../../lib/session';
import { createStore, useStore } from '../../../lib/store';
import type { TLoginValue } from './auth-types';

/** Keep a login: the token (memory + sessionStorage) and the agent/trial flags. */
export function storeLogin(login: TLoginValue): void {
  setSessionToken(login.token);
  setLoginFlags({ isAgent: login.isAgent, isTrial: login.isTrial });
}

/** Logged out here: session storage cleared, the merchant code set again, no token. */
export function endLocalSession(merchantCode: string | null): void {
  try {
    window.sessionStorage.clear();
  } catch {
    // Storage blocked: the in-memory state below is what matters.
  }
  clearSession();
  if (merchantCode) setMerchantCode(merchantCode);
}

/** A first login asked for the execution-F popups; they show once no other popup is open. */
const firstLoginStore = createStore(false);

export function requestFirstLoginPopups(): void {
  firstLoginStore.set(true);
}

export function dismissFirstLoginPopups(): void {
  firstLoginStore.set(false);
}

export function useFirstLoginPending(): boolean {
  return useStore(firstLoginStore);
}
