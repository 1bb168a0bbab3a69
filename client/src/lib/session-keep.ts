import { authCalls } from '@portal/contracts/api/auth';
import { call } from './api';
import { getSessionToken, setSessionToken, subscribeSession } from './session';
import { writeStorage } from './storage';

export type TokenKeeper = {
  /** Where versions before the HttpOnly cookie kept the token: cleared on start. */
  legacyKey: string;
  get: () => string | null;
  set: (token: string | null) => void;
  subscribe: (listener: () => void) => () => void;
  /** The gateway's answer from the token's cookie: the token while its session is live, else null. */
  restore: () => Promise<{ token: string | null }>;
  /** Has the gateway keep the current token in that cookie. */
  keep: () => Promise<unknown>;
};

/**
 * Before the app renders: take back the token a reload left behind (the gateway reads it from its
 * HttpOnly cookie and answers it only while the session is live), then hand every new token (login,
 * registration, password change, social sign-in) to the gateway to keep the same way. The token
 * itself stays in the page's memory. Without an answer (offline, gateway down) the page starts
 * signed out.
 */
export async function keepTokenAcrossReloads(k: TokenKeeper): Promise<void> {
  writeStorage('session', k.legacyKey, null);
  let kept: string | null = null;
  try {
    const { token } = await k.restore();
    if (token && k.get() === null) {
      kept = token;
      k.set(token);
    }
  } catch {
    // start signed out
  }
  k.subscribe(() => {
    const token = k.get();
    if (token === null || token === kept) return;
    kept = token;
    k.keep().catch(() => undefined);
  });
}

/** The member's session (GET/POST /wps/session/keep). */
export function restoreSession(): Promise<void> {
  return keepTokenAcrossReloads({
    legacyKey: 'portal.token',
    get: getSessionToken,
    set: setSessionToken,
    subscribe: subscribeSession,
    restore: () => call(authCalls.restoreSession, {}),
    keep: () => call(authCalls.keepSession, { body: {} }),
  });
}
