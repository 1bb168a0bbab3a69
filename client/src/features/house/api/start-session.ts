import type { THouseGameCode, THouseSession } from '@portal/contracts/api/house';
import { ErrorCode } from '@portal/contracts/api/errors';
import { ApiError } from '../../../lib/api';

export type StartResult = { kind: 'session'; session: THouseSession } | { kind: 'login' };

export type StartDeps = {
  /** Trade a launch code for a session (POST /house/api/session). */
  open: (code: string, game: THouseGameCode) => Promise<THouseSession>;
  /** A play-money session (POST /house/api/freeplay). */
  freePlay: (game: THouseGameCode) => Promise<THouseSession>;
  /** This game's kept session (POST /house/api/state with the game), or null. */
  state: (game: THouseGameCode) => Promise<THouseSession | null>;
  /** A new launch code for this game from the portal (a signed-in real member), or null (guest, trial user). */
  relaunch: (game: THouseGameCode) => Promise<string | null>;
};

/**
 * How the game page gets its session. With a launch code in the URL: trade it. With mode=free:
 * play money. Otherwise (reload, back, bookmark, another game opened by URL after a launch) this
 * game's kept session; without one, a signed-in member's game is launched again, anyone else plays
 * for play money (Lucky 9 Duel, real money only, asks for a login).
 */
export async function startHouseSession(p: { game: THouseGameCode; code: string | null; isFree: boolean }, d: StartDeps): Promise<StartResult> {
  if (p.code) {
    try {
      return { kind: 'session', session: await d.open(p.code, p.game) };
    } catch (e) {
      // A code already traded (the page reloaded before it left the address bar) or expired: the page
      // goes on as one opened without a code (its kept session, else a new launch), not a dead end.
      if (!(e instanceof ApiError && e.code === ErrorCode.GAME_TOKEN_INVALID)) throw e;
    }
  }
  if (p.isFree) return { kind: 'session', session: await d.freePlay(p.game) };
  const kept = await d.state(p.game);
  if (kept) return { kind: 'session', session: kept };
  const code = await d.relaunch(p.game);
  if (code) return { kind: 'session', session: await d.open(code, p.game) };
  if (p.game === 'PVP1') return { kind: 'login' };
  return { kind: 'session', session: await d.freePlay(p.game) };
}
