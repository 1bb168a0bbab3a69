import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from '../../../lib/storage';

/** The header balance's show/hide choice: a display preference, not sensitive, so localStorage. */
const KEY = 'portal.balanceHidden';
const listeners = new Set<() => void>();

export function isBalanceHidden(): boolean {
  return readStorage('local', KEY) === '1';
}

export function setBalanceHidden(hidden: boolean): void {
  writeStorage('local', KEY, hidden ? '1' : null);
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useBalanceHidden(): boolean {
  return useSyncExternalStore(subscribe, isBalanceHidden, () => false);
}
