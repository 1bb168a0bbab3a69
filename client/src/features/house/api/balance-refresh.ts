import { useEffect, useRef } from 'react';
import type { THouseGameCode, THouseSession } from '@portal/contracts/api/house';

/** How often an open real-money game page asks its server for the wallet's balance. */
export const HOUSE_REFRESH_MS = 10_000;

export type RefreshDeps = {
  /** This game's session again (POST /house/api/state): null when it has none; a refused session throws (house-call ends the page). */
  state: (game: THouseGameCode) => Promise<THouseSession | null>;
  /** The session is gone: the page says it ended. */
  ended: () => void;
  /** The wallet's balance now. */
  balance: (balance: number) => void;
  /** A round in play (reels turning): its result brings the balance, a refresh would tell it early. */
  isBusy: () => boolean;
  isVisible: () => boolean;
};

/**
 * One refresh: the balance as the wallet has it now, or the end of the session. Money moves outside the
 * game too (a deposit, an operator's adjustment, another game) and a sign-out elsewhere ends the game
 * session: an outside vendor's page asks its own server, and so does this one.
 */
export async function refreshHouseBalance(game: THouseGameCode, d: RefreshDeps): Promise<void> {
  if (!d.isVisible() || d.isBusy()) return;
  let s: THouseSession | null;
  try {
    s = await d.state(game);
  } catch {
    return; // a refused session already ended the page (house-call); a network failure waits for the next one
  }
  if (s === null) return d.ended();
  if (!d.isBusy()) d.balance(s.balance);
}

/** While a real-money session is open: refresh every HOUSE_REFRESH_MS while visible, and when the page comes back into view. */
export function useHouseBalanceRefresh(session: THouseSession | null, deps: Omit<RefreshDeps, 'isVisible'>) {
  const ref = useRef(deps);
  ref.current = deps;
  const game = session && !session.freePlay ? session.game : null;
  const token = session?.session ?? null;
  useEffect(() => {
    if (!game || !token) return;
    const run = () => void refreshHouseBalance(game, { ...ref.current, isVisible: () => document.visibilityState === 'visible' });
    const id = window.setInterval(run, HOUSE_REFRESH_MS);
    const onVisible = () => { if (document.visibilityState === 'visible') run(); };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(id);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [game, token]);
}
