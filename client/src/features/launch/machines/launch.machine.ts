import { assign, fromPromise, setup } from 'xstate';
import type { TCatalogueGame, TGame } from '@portal/contracts/api/games';
import { ErrorCode } from '@portal/contracts/api/errors';
import type { LaunchTarget } from '../../../lib/game-launch';
import { isApiError } from '../../../lib/api';
import { freePlayRouteOf, isProviderEntry, launchRouteOf } from './launch-route';

/** A responsible-gaming exclusion in force (member info `rgExclusion`, or the value of an RG_EXCLUDED refusal). */
export type LaunchExclusion = { kind: string; until: string | null };
export type LaunchInput = {
  isLoggedIn: boolean;
  isTrial: boolean;
  target: LaunchTarget;
  /** The signed-in player's exclusion: no game starts (the server refuses every launch with RG_EXCLUDED). */
  exclusion?: LaunchExclusion | null;
};
export type LaunchResult = { url: string; vendor: string; gameCode: string };

type Context = Omit<LaunchInput, 'exclusion'> & {
  exclusion: LaunchExclusion | null;
  route: string | null;
  url: string | null;
  error: unknown;
  suggestions: TCatalogueGame[];
};

type Events =
  | { type: 'CLOSE' }
  | { type: 'RETRY' }
  /** A game picked from the provider popup or the maintenance suggestions. */
  | { type: 'PICK'; game: TGame };

/** Up to this many games of the same type are suggested when a game is under maintenance. */
export const MAINTENANCE_SUGGESTIONS = 6;

const errorCodeOf = (e: unknown) => (isApiError(e) ? e.code : null);
const errorOf = (event: object): unknown => ('error' in event ? event.error : undefined);

/** The exclusion an RG_EXCLUDED refusal names (`value.kind`, `value.until`). */
function exclusionOf(e: unknown): LaunchExclusion {
  const v = (isApiError(e) ? e.value : undefined) as { kind?: unknown; until?: unknown } | undefined;
  return { kind: typeof v?.kind === 'string' ? v.kind : 'self', until: typeof v?.until === 'string' ? v.until : null };
}

/**
 * Game launch (spec sections 2 and 4). Free play of a house game opens its play-money page for
 * anyone. Otherwise a guest gets the login popup and a trial user the
 * in_need_true_account dialog: the launch stops there. A real user is routed (lottery pages,
 * vendor pages, gameListCenter), shown the provider's game list (isGame VASSALAGE), or the game
 * is started with POST /wps/game/launchGame and its url opened. A player under a responsible-gaming
 * exclusion is told so (until when, and that withdrawing stays open) instead of a launch the server refuses. Maintenance suggests other games
 * of the same type; a provider not connected in this demo says so plainly.
 */
export const launchMachine = setup({
  types: { context: {} as Context, events: {} as Events, input: {} as LaunchInput },
  actors: {
    launch: fromPromise<LaunchResult, { nodeId: string; freePlay: boolean }>(async () => {
      throw new Error('launch is not provided');
    }),
    loadSuggestions: fromPromise<TCatalogueGame[], { game: TGame }>(async () => []),
  },
  guards: {
    isHouseFreePlay: ({ context }) => freePlayRouteOf(context.target) !== null,
    isGuest: ({ context }) => !context.isLoggedIn,
    // A provider's free play for a signed-in trial user (the popup's "Free play" gives a guest that session):
    // the gateway opens play money for trial sessions too (vendor-routes mountLaunch); it used to meet the
    // "register first" dialog, so the popup's Free play led nowhere for an outside provider's game.
    isTrialFreePlay: ({ context }) => context.isTrial && context.target.kind === 'game' && context.target.freePlay === true,
    isTrial: ({ context }) => context.isTrial,
    // A game (not a vendor's list page, which only shows games) for a player under an exclusion.
    isExcludedFromPlay: ({ context }) => context.exclusion !== null && context.target.kind === 'game',
    hasRoute: ({ context }) => launchRouteOf(context.target) !== null,
    isProviderEntry: ({ context }) => isProviderEntry(context.target),
    isMaintenance: ({ event }) => errorCodeOf(errorOf(event)) === ErrorCode.GAME_MAINTENANCE,
    isNotConnected: ({ event }) => errorCodeOf(errorOf(event)) === ErrorCode.NOT_AVAILABLE,
    isTrialForbidden: ({ event }) => errorCodeOf(errorOf(event)) === ErrorCode.TRIAL_FORBIDDEN,
    isRgExcluded: ({ event }) => errorCodeOf(errorOf(event)) === ErrorCode.RG_EXCLUDED,
  },
  actions: {
    openLoginPopup: () => {},
    navigate: (_, _params: { path: string }) => {},
    openUrl: (_, _params: { url: string }) => {},
  },
}).createMachine({
  id: 'launch',
  context: ({ input }) => ({ ...input, exclusion: input.exclusion ?? null, route: null, url: null, error: null, suggestions: [] }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [
        // An excluded player plays nothing, play money included (the card's Free trial opened the slot).
        { guard: 'isExcludedFromPlay', target: 'excluded' },
        // Play money needs no account: guests and trial users too (FREEPLAY3 shows the button).
        { guard: 'isHouseFreePlay', target: 'routed', actions: assign({ route: ({ context }) => freePlayRouteOf(context.target) }) },
        { guard: 'isGuest', target: 'needLogin' },
        { guard: 'isTrialFreePlay', target: 'launching' },
        { guard: 'isTrial', target: 'trialDenied' },
        { guard: 'hasRoute', target: 'routed', actions: assign({ route: ({ context }) => launchRouteOf(context.target) }) },
        { guard: 'isProviderEntry', target: 'providerList' },
        { target: 'launching' },
      ],
    },
    needLogin: { type: 'final', entry: 'openLoginPopup' },
    trialDenied: { on: { CLOSE: 'closed' } },
    excluded: { on: { CLOSE: 'closed' } },
    routed: { type: 'final', entry: { type: 'navigate', params: ({ context }) => ({ path: context.route ?? '/' }) } },
    providerList: {
      on: {
        CLOSE: 'closed',
        PICK: { target: 'launching', actions: assign({ target: ({ event }) => ({ kind: 'game' as const, game: event.game, direct: true }) }) },
      },
    },
    launching: {
      invoke: {
        id: 'launch',
        src: 'launch',
        input: ({ context }) => ({
          nodeId: context.target.kind === 'game' ? context.target.game.nodeId : '',
          freePlay: context.target.kind === 'game' && context.target.freePlay === true,
        }),
        onDone: { target: 'opened', actions: assign({ url: ({ event }) => event.output.url }) },
        onError: [
          { guard: { type: 'isMaintenance' }, target: 'maintenance', actions: assign({ error: ({ event }) => event.error }) },
          { guard: { type: 'isNotConnected' }, target: 'notConnected', actions: assign({ error: ({ event }) => event.error }) },
          { guard: { type: 'isTrialForbidden' }, target: 'trialDenied', actions: assign({ error: ({ event }) => event.error }) },
          // Excluded since the page loaded (an operator's exclusion): the same dialog, no retry that must fail.
          { guard: { type: 'isRgExcluded' }, target: 'excluded', actions: assign({ exclusion: ({ event }) => exclusionOf(event.error) }) },
          { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        ],
      },
    },
    opened: { type: 'final', entry: { type: 'openUrl', params: ({ context }) => ({ url: context.url ?? '' }) } },
    maintenance: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadSuggestions',
            src: 'loadSuggestions',
            input: ({ context }) => ({ game: context.target.kind === 'game' ? context.target.game : (undefined as never) }),
            onDone: { target: 'ready', actions: assign({ suggestions: ({ event }) => event.output.slice(0, MAINTENANCE_SUGGESTIONS) }) },
            onError: { target: 'ready', actions: assign({ suggestions: [] }) },
          },
        },
        ready: {},
      },
      on: {
        CLOSE: 'closed',
        PICK: { target: 'launching', actions: assign({ target: ({ event }) => ({ kind: 'game' as const, game: event.game, direct: true }) }) },
      },
    },
    notConnected: { on: { CLOSE: 'closed' } },
    failed: { on: { CLOSE: 'closed', RETRY: 'launching' } },
    closed: { type: 'final' },
  },
});
