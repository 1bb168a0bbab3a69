import { createStore, useStore } from './store';
import { readStorage, writeStorage } from './storage';
import { getSessionToken, subscribeSession } from './session';

/**
 * Who is logged in, as far as every layer needs to know right after login (spec section 3, login
 * state): agent and trial flags from the login answer, refined by member info. Kept in
 * sessionStorage beside the token and dropped with it.
 */
export type LoginFlags = { isAgent: boolean; isTrial: boolean };

const FLAGS_KEY = 'portal.loginFlags';
const NONE: LoginFlags = { isAgent: false, isTrial: false };

function parse(raw: string | null): LoginFlags {
  if (!raw) return NONE;
  try {
    const v = JSON.parse(raw) as Partial<LoginFlags>;
    return { isAgent: v.isAgent === true, isTrial: v.isTrial === true };
  } catch {
    return NONE;
  }
}

const flagsStore = createStore<LoginFlags>(getSessionToken() ? parse(readStorage('session', FLAGS_KEY)) : NONE);

export function getLoginFlags(): LoginFlags {
  return flagsStore.get();
}

export function setLoginFlags(flags: LoginFlags): void {
  const current = flagsStore.get();
  if (current.isAgent === flags.isAgent && current.isTrial === flags.isTrial) return;
  const next = { isAgent: flags.isAgent, isTrial: flags.isTrial };
  writeStorage('session', FLAGS_KEY, JSON.stringify(next));
  flagsStore.set(next);
}

// Logged out (here, by the server's system.logout or an expired token): no flags.
subscribeSession(() => {
  if (getSessionToken() === null) {
    writeStorage('session', FLAGS_KEY, null);
    flagsStore.set(NONE);
  }
});

export function useLoginFlags(): LoginFlags {
  return useStore(flagsStore);
}
