import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { EventObject } from 'xstate';
import type { TCatalogueGame, TGame } from '@portal/contracts/api/games';
import { ApiError } from '../../../lib/api';
import type { LaunchTarget } from '../../../lib/game-launch';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { launchMachine } from './launch.machine';
import type { LaunchInput, LaunchResult } from './launch.machine';
import { launchRouteOf } from './launch-route';

const flush = () => new Promise((r) => setTimeout(r, 0));

const game = (over: Partial<TGame> = {}): TGame => ({
  nodeId: 'n1', vassalage: 'HOUSE', gameCode: 'lucky7', isGame: 'GAME', gameType: 'RNG', gameClassify: null,
  gameName: 'Lucky 7', iconUrl: null, maintenance: false, ...over,
});
const suggestion = (i: number): TCatalogueGame => ({ ...game({ nodeId: `s${i}` }), minBet: null });

function start(target: LaunchTarget, opts: { isLoggedIn?: boolean; isTrial?: boolean; exclusion?: LaunchInput['exclusion']; launch?: () => Promise<LaunchResult>; suggestions?: () => Promise<TCatalogueGame[]> } = {}) {
  const log: string[] = [];
  const launched: { nodeId: string; freePlay: boolean }[] = [];
  const input: LaunchInput = { isLoggedIn: opts.isLoggedIn ?? true, isTrial: opts.isTrial ?? false, target, exclusion: opts.exclusion ?? null };
  const actor = createActor(
    launchMachine.provide({
      actors: {
        launch: fromPromise(({ input: i }: { input: { nodeId: string; freePlay: boolean } }) => {
          launched.push(i);
          return (opts.launch ?? (async () => ({ url: '/house/play?t=x', vendor: 'HOUSE', gameCode: 'lucky7' })))();
        }),
        loadSuggestions: fromPromise(() => (opts.suggestions ?? (async () => []))()),
      },
      actions: {
        openLoginPopup: () => log.push('login'),
        navigate: (_, p: { path: string }) => log.push(`navigate ${p.path}`),
        openUrl: (_, p: { url: string }) => log.push(`open ${p.url}`),
      },
    }),
    { input },
  ).start();
  return { actor, log, launched };
}

const apiError = (code: string) => new ApiError(code, code, 400);

describe('launch routing', () => {
  it('sends lottery games to their pages with the game code', () => {
    expect(launchRouteOf({ kind: 'game', game: game({ vassalage: 'TCG_LOTTO_VN', gameCode: 'VN1', gameType: 'LOTT' }) })).toBe('/vnLottery?gameCode=VN1');
    expect(launchRouteOf({ kind: 'game', game: game({ vassalage: 'TCG_SEA', gameCode: 'S 1', gameType: 'LOTT' }) })).toBe('/seaLottery?gameCode=S%201');
    // with its vendor: lottery vendors share game codes
    expect(launchRouteOf({ kind: 'game', game: game({ gameType: 'ELOTT', gameCode: 'E1', vassalage: 'GPK' }) })).toBe('/lottery?vassalage=GPK&gameCode=E1');
    expect(launchRouteOf({ kind: 'game', game: game({ gameType: 'LOTT', gameCode: 'L1', vassalage: 'TCG' }) })).toBe('/lottery?vassalage=TCG&gameCode=L1');
    expect(launchRouteOf({ kind: 'game', game: game({ gameType: 'LOTT' }), direct: true })).toBeNull();
  });

  it('sends vendor entries to their pages: RNG to gameListCenter, FISH/PVP/LIVE/SPORTS to theirs', () => {
    expect(launchRouteOf({ kind: 'vendor', vassalage: 'JL', gameType: 'RNG', displayName: 'JILI' })).toBe('/gameListCenter/jl/rng?vassalage=JL');
    for (const [type, path] of [['FISH', '/fish'], ['PVP', '/pvp'], ['LIVE', '/live'], ['SPORTS', '/sports']] as const) {
      expect(launchRouteOf({ kind: 'vendor', vassalage: 'X', gameType: type, displayName: 'X' })).toBe(`${path}?vassalage=X`);
    }
  });

  it('starts ordinary games', () => {
    expect(launchRouteOf({ kind: 'game', game: game({ gameType: 'FISH' }) })).toBeNull();
  });
});

describe('launch machine', () => {
  it('a guest gets the login popup and the launch stops', () => {
    const { actor, log, launched } = start({ kind: 'game', game: game() }, { isLoggedIn: false });
    expect(actor.getSnapshot().value).toBe('needLogin');
    expect(actor.getSnapshot().status).toBe('done');
    expect(log).toEqual(['login']);
    expect(launched).toEqual([]);
  });

  it('a trial user gets the in_need_true_account dialog and the launch stops', () => {
    const { actor, launched } = start({ kind: 'game', game: game() }, { isTrial: true });
    expect(actor.getSnapshot().value).toBe('trialDenied');
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(launched).toEqual([]);
  });

  it('routes a real user to the lottery page', () => {
    const { actor, log } = start({ kind: 'game', game: game({ vassalage: 'TCG_SEA', gameCode: 'S1', gameType: 'LOTT' }) });
    expect(actor.getSnapshot().value).toBe('routed');
    expect(log).toEqual(['navigate /seaLottery?gameCode=S1']);
  });

  it('opens the provider list for a VASSALAGE entry, and a pick launches that game', async () => {
    const { actor, launched, log } = start({ kind: 'game', game: game({ isGame: 'VASSALAGE' }) });
    expect(actor.getSnapshot().value).toBe('providerList');
    actor.send({ type: 'PICK', game: game({ nodeId: 'n2' }) });
    await flush();
    expect(launched).toEqual([{ nodeId: 'n2', freePlay: false }]);
    expect(log).toEqual(['open /house/play?t=x']);
  });

  it('free play of a house game opens its play-money page, for guests and trial users too', () => {
    for (const who of [{ isLoggedIn: false }, { isLoggedIn: true, isTrial: true }, { isLoggedIn: true }]) {
      const { actor, log, launched } = start({ kind: 'game', game: game({ vassalage: 'HOUSE', gameCode: 'SLOT1' }), freePlay: true }, who);
      expect(actor.getSnapshot().value).toBe('routed');
      expect(log).toEqual(['navigate /house/play?game=SLOT1&mode=free']);
      expect(launched).toEqual([]);
    }
  });

  it("a trial user's free play of another provider launches with play money (the login popup's Free play leads there)", async () => {
    const { actor, launched } = start({ kind: 'game', game: game({ vassalage: 'JL' }), freePlay: true }, { isLoggedIn: true, isTrial: true });
    expect(actor.getSnapshot().value).toBe('launching');
    await flush();
    expect(actor.getSnapshot().value).toBe('opened');
    expect(launched).toEqual([{ nodeId: 'n1', freePlay: true }]);
    // ... and its real play still meets the dialog
    expect(start({ kind: 'game', game: game({ vassalage: 'JL' }) }, { isLoggedIn: true, isTrial: true }).actor.getSnapshot().value).toBe('trialDenied');
  });

  it('launches and opens the url; free play of another provider is passed on to the server', async () => {
    const { actor, log, launched } = start({ kind: 'game', game: game({ vassalage: 'JL' }), freePlay: true });
    expect(actor.getSnapshot().value).toBe('launching');
    await flush();
    expect(actor.getSnapshot().value).toBe('opened');
    expect(launched).toEqual([{ nodeId: 'n1', freePlay: true }]);
    expect(log).toEqual(['open /house/play?t=x']);
  });

  it('maintenance suggests up to 6 other games; picking one launches it', async () => {
    let calls = 0;
    const { actor, launched } = start({ kind: 'game', game: game() }, {
      launch: async () => {
        calls += 1;
        if (calls === 1) throw apiError('GAME_MAINTENANCE');
        return { url: '/house/play?t=y', vendor: 'HOUSE', gameCode: 'x' };
      },
      suggestions: async () => Array.from({ length: 9 }, (_, i) => suggestion(i)),
    });
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toEqual({ maintenance: 'ready' });
    expect(actor.getSnapshot().context.suggestions).toHaveLength(6);
    actor.send({ type: 'PICK', game: game({ nodeId: 's3' }) });
    await flush();
    expect(launched.map((l) => l.nodeId)).toEqual(['n1', 's3']);
    expect(actor.getSnapshot().value).toBe('opened');
  });

  it('a provider that is not connected says so', async () => {
    const { actor } = start({ kind: 'game', game: game() }, { launch: async () => { throw apiError('NOT_AVAILABLE'); } });
    await flush();
    expect(actor.getSnapshot().value).toBe('notConnected');
  });

  it('TRIAL_FORBIDDEN from the server is the trial dialog; other errors fail and can be retried', async () => {
    const t = start({ kind: 'game', game: game() }, { launch: async () => { throw apiError('TRIAL_FORBIDDEN'); } });
    await flush();
    expect(t.actor.getSnapshot().value).toBe('trialDenied');
    const f = start({ kind: 'game', game: game() }, { launch: async () => { throw apiError('INTERNAL'); } });
    await flush();
    expect(f.actor.getSnapshot().value).toBe('failed');
    f.actor.send({ type: 'RETRY' });
    expect(f.actor.getSnapshot().value).toBe('launching');
    expect(f.launched).toHaveLength(2);
  });

  it('a player under an exclusion is told so and no launch is sent (the server refuses it: RG_EXCLUDED); a vendor list still opens', () => {
    const exclusion = { kind: 'self', until: '2027-06-05T15:15:00.000Z' };
    for (const target of [{ kind: 'game', game: game() }, { kind: 'game', game: game({ isGame: 'VASSALAGE' }) }, { kind: 'game', game: game({ gameType: 'LOTT', gameCode: 'L1' }) },
      // play money too: a house game's Free trial opened the slot for an excluded player
      { kind: 'game', game: game({ vassalage: 'HOUSE', gameCode: 'SLOT1' }), freePlay: true }, { kind: 'game', game: game({ vassalage: 'JL' }), freePlay: true }] as LaunchTarget[]) {
      const { actor, launched, log } = start(target, { exclusion });
      expect(actor.getSnapshot().value).toBe('excluded');
      expect(actor.getSnapshot().context.exclusion).toEqual(exclusion);
      actor.send({ type: 'CLOSE' });
      expect(actor.getSnapshot().status).toBe('done');
      expect(launched).toEqual([]);
      expect(log).toEqual([]);
    }
    const list = start({ kind: 'vendor', vassalage: 'JL', gameType: 'RNG', displayName: 'JILI' }, { exclusion });
    expect(list.log).toEqual(['navigate /gameListCenter/jl/rng?vassalage=JL']);
  });

  it('RG_EXCLUDED from the server (excluded since the page loaded) is the exclusion dialog with its end, not a retry', async () => {
    const { actor } = start({ kind: 'game', game: game() }, { launch: async () => { throw new ApiError('RG_EXCLUDED', 'x', 403, [], { kind: 'operator', until: null }); } });
    await flush();
    expect(actor.getSnapshot().value).toBe('excluded');
    expect(actor.getSnapshot().context.exclusion).toEqual({ kind: 'operator', until: null });
  });

  it('takes every transition (model-based, xstate/graph)', () => {
    const picked = game({ nodeId: 'p' });
    const events = (): EventObject[] => [
      { type: 'CLOSE' }, { type: 'RETRY' }, { type: 'PICK', game: picked } as EventObject,
      { type: 'xstate.done.actor.launch', output: { url: '/u', vendor: 'HOUSE', gameCode: 'g' } } as EventObject,
      ...['GAME_MAINTENANCE', 'NOT_AVAILABLE', 'TRIAL_FORBIDDEN', 'RG_EXCLUDED', 'INTERNAL'].map((c) => ({ type: 'xstate.error.actor.launch', error: apiError(c) }) as EventObject),
      { type: 'xstate.done.actor.loadSuggestions', output: [suggestion(1)] } as EventObject,
      { type: 'xstate.error.actor.loadSuggestions', error: new Error('x') } as EventObject,
    ];
    const serialize = (s: { value: unknown; context: { target: LaunchTarget } }) => JSON.stringify([s.value, s.context.target.kind === 'game' && s.context.target.direct]);
    const inputs: LaunchInput[] = [
      { isLoggedIn: false, isTrial: false, target: { kind: 'game', game: game() } },
      { isLoggedIn: false, isTrial: false, target: { kind: 'game', game: game({ vassalage: 'HOUSE' }), freePlay: true } },
      { isLoggedIn: true, isTrial: true, target: { kind: 'game', game: game() } },
      { isLoggedIn: true, isTrial: true, target: { kind: 'game', game: game({ vassalage: 'JL' }), freePlay: true } },
      { isLoggedIn: true, isTrial: false, target: { kind: 'vendor', vassalage: 'JL', gameType: 'RNG', displayName: 'JILI' } },
      { isLoggedIn: true, isTrial: false, target: { kind: 'game', game: game({ isGame: 'VASSALAGE' }) } },
      { isLoggedIn: true, isTrial: false, target: { kind: 'game', game: game() } },
      { isLoggedIn: true, isTrial: false, target: { kind: 'game', game: game() }, exclusion: { kind: 'self', until: null } },
    ];
    const untakenByInput = inputs.map((input) => new Set(untakenTransitions(launchMachine, { events, input, serialize: serialize as never })));
    const untakenEverywhere = [...untakenByInput[0]!].filter((k) => untakenByInput.every((u) => u.has(k)));
    expect(untakenEverywhere).toEqual([]);
  });
});
