import { describe, expect, it, vi } from 'vitest';
import type { THouseGameCode, THouseSession } from '@portal/contracts/api/house';
import { ApiError } from '../../../lib/api';
import { startHouseSession, type StartDeps } from './start-session';

const sessionOf = (game: THouseGameCode, freePlay = false): THouseSession => ({
  session: `s-${game}-${freePlay}`, game, gameName: game, nickname: 'n', currency: 'PHP', balance: 1, freePlay, stakes: [100],
  fair: { serverSeedHash: 'h', clientSeed: 'c', nonce: 0 }, rtp: null,
});

function deps(kept: THouseGameCode[], relaunchCode: string | null): StartDeps {
  return {
    open: vi.fn(async (_code: string, game: THouseGameCode) => sessionOf(game)),
    freePlay: vi.fn(async (game: THouseGameCode) => sessionOf(game, true)),
    state: vi.fn(async (game: THouseGameCode) => {
      return kept.includes(game) ? sessionOf(game) : null;
    }),
    relaunch: vi.fn(async () => relaunchCode),
  };
}

describe('startHouseSession (the game page opened by URL)', () => {
  it('asks for the session of the page game, never any kept session', async () => {
    const d = deps(['SLOT1', 'FISH1'], null);
    const r = await startHouseSession({ game: 'FISH1', code: null, isFree: false }, d);
    expect(r).toEqual({ kind: 'session', session: sessionOf('FISH1') });
    expect(d.state).toHaveBeenCalledWith('FISH1');
  });

  it('launches the game again for a member when this game has no session (another game was launched before)', async () => {
    const d = deps(['SLOT1'], 'code-123');
    const r = await startHouseSession({ game: 'BACC1', code: null, isFree: false }, d);
    expect(r).toEqual({ kind: 'session', session: sessionOf('BACC1') });
    expect(d.open).toHaveBeenCalledWith('code-123', 'BACC1');
    expect(d.freePlay).not.toHaveBeenCalled();
  });

  it('gives a guest play money, and asks a guest to log in for Lucky 9 Duel (real money only)', async () => {
    expect(await startHouseSession({ game: 'SLOT1', code: null, isFree: false }, deps([], null))).toEqual({ kind: 'session', session: sessionOf('SLOT1', true) });
    expect(await startHouseSession({ game: 'PVP1', code: null, isFree: false }, deps([], null))).toEqual({ kind: 'login' });
  });

  it('trades a launch code and passes other failures on', async () => {
    const d = deps([], null);
    expect(await startHouseSession({ game: 'SLOT1', code: 'c', isFree: false }, d)).toEqual({ kind: 'session', session: sessionOf('SLOT1') });
    d.state = vi.fn(async () => { throw new ApiError('NETWORK', 'down'); });
    await expect(startHouseSession({ game: 'SLOT1', code: null, isFree: false }, d)).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('a launch code already traded (reload before it left the address bar) goes on with the kept session, else a new launch', async () => {
    const spent = deps(['SLOT1'], null);
    spent.open = vi.fn(async () => { throw new ApiError('GAME_TOKEN_INVALID', 'used'); });
    expect(await startHouseSession({ game: 'SLOT1', code: 'used', isFree: false }, spent)).toEqual({ kind: 'session', session: sessionOf('SLOT1') });
    const relaunched = deps([], 'fresh');
    relaunched.open = vi.fn(async (code: string, game: THouseGameCode) => {
      if (code === 'used') throw new ApiError('GAME_TOKEN_INVALID', 'used');
      return sessionOf(game);
    });
    expect(await startHouseSession({ game: 'BACC1', code: 'used', isFree: false }, relaunched)).toEqual({ kind: 'session', session: sessionOf('BACC1') });
    expect(relaunched.open).toHaveBeenLastCalledWith('fresh', 'BACC1');
    // other refusals are not hidden
    const closed = deps(['SLOT1'], null);
    closed.open = vi.fn(async () => { throw new ApiError('GAME_MAINTENANCE', 'off'); });
    await expect(startHouseSession({ game: 'SLOT1', code: 'c', isFree: false }, closed)).rejects.toMatchObject({ code: 'GAME_MAINTENANCE' });
  });
});
