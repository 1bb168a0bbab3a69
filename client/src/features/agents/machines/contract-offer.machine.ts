import { assign, fromPromise, setup } from 'xstate';
import { ErrorCode } from '@portal/contracts/api/errors';
import type { TContractTerms, ContractToEnd } from '@portal/contracts/domain/agent-contracts';
import type { EventPayload } from '@portal/contracts/events/events';
import { CLIENT_ERROR_CODE, isApiError } from '../../../lib/api';

/**
 * Contract offers between an upline and a direct downline, on the client (issue 11, spec section 4
 * "Contract offer"). Two machines: `contractOfferMachine`, the downline answering an offer it was sent
 * (`contract.offered`), and `contractAwaitingMachine`, the upline waiting for that answer. Both take
 * the realtime `contract.updated` event under its bus name, so a screen forwards socket events as they
 * are; after a resync it forwards the refetched contract the same way. All I/O is in named actors
 * provided by the screen (acceptOffer, rejectOffer, withdrawOffer): the machines only decide.
 */

/** The payload of `contract.offered` / `contract.updated` (contracts/src/events/events.ts). */
export type ContractEventPayload = EventPayload<'contract.offered'>;
export type ContractUpdated = { type: 'contract.updated'; payload: ContractEventPayload };

/** What an event's status means for an open offer. */
export type OfferOutcome = 'open' | 'accepted' | 'rejected' | 'withdrawn' | 'ended';

/** Exhaustive on the event schema's statuses: a new status fails the typecheck here until it is placed. */
export function outcomeOf(status: ContractEventPayload['status']): OfferOutcome {
  switch (status) {
    case 'offered':
      return 'open';
    case 'accepted':
      return 'accepted';
    case 'rejected':
      return 'rejected';
    case 'withdrawn':
      return 'withdrawn';
    case 'terminated':
    case 'ended':
      return 'ended';
  }
}

// ---------------------------------------------------------------------------------------------------
// Actor interfaces (the API is built elsewhere: the screen provides the fetch).

/**
 * POST accept. `endContractIds`: the downline's own contracts the user agreed to end (the
 * lower-rate rule); the server refuses with CONTRACT_CONSENT_REQUIRED unless they cover its list,
 * and then the envelope's `value` is `{ mustEnd: ContractToEnd[] }`, the list as it is now.
 */
export type AcceptOfferInput = { contractId: string; endContractIds: number[] };
export type AcceptOfferOutput = { contractId: string; endedContractIds: number[] };
export type RejectOfferInput = { contractId: string };
export type RejectOfferOutput = { contractId: string };
export type WithdrawOfferInput = { contractId: string };
export type WithdrawOfferOutput = { contractId: string };

// ---------------------------------------------------------------------------------------------------
// Errors the machines tell apart.

const errorOf = (event: object): unknown => ('error' in event ? event.error : undefined);
const codeOf = (e: unknown): string | null => (isApiError(e) ? e.code : null);

/** The offer is no longer open on the server: withdrawn, or answered (another tab, another device). */
export const isNoLongerOpen = (e: unknown) => codeOf(e) === ErrorCode.INVALID_STATE;
export const isConsentRequired = (e: unknown) => codeOf(e) === ErrorCode.CONTRACT_CONSENT_REQUIRED;
/** Worth trying again unchanged: the request may not have reached the server, or the server failed (5xx). */
export const isRetryable = (e: unknown) => {
  if (!isApiError(e)) return true; // a thrown fetch or a bug in the caller: nothing was decided
  if (e.code === CLIENT_ERROR_CODE.NETWORK || e.code === CLIENT_ERROR_CODE.BAD_RESPONSE) return true;
  return e.status !== null && e.status >= 500;
};

function isContractToEnd(v: unknown): v is ContractToEnd {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return Number.isInteger(r.contractId) && Number.isInteger(r.downlineId) && Number.isInteger(r.rate) &&
    (r.reason === 'rateAboveNewUplineRate' || r.reason === 'uplineContractEnded');
}

/** The server's list of contracts that must end, from a CONTRACT_CONSENT_REQUIRED error; null when it sent none. */
export function mustEndOf(e: unknown): ContractToEnd[] | null {
  if (!isApiError(e)) return null;
  const value = e.value as { mustEnd?: unknown } | null | undefined;
  const list = value?.mustEnd;
  if (!Array.isArray(list) || !list.every(isContractToEnd)) return null;
  return list;
}

// ---------------------------------------------------------------------------------------------------
// The downline: answering an offer.

export type ContractOfferInput = {
  /** The `contract.offered` payload that opened this offer. */
  offer: ContractEventPayload;
  /** The offered terms (kind, rate, conditions, period), as the offer's details call returns them. */
  terms: TContractTerms;
  /**
   * The lower-rate consequence: the downline's own contracts (and those below them) that end if it
   * accepts. Empty when the offer ends nothing. The user must agree to exactly this list.
   */
  mustEnd: ContractToEnd[];
};

type OfferContext = ContractOfferInput & {
  /** The user ticked "I agree that these contracts end" for the current `mustEnd`. */
  agreed: boolean;
  error: unknown;
};

export type ContractOfferEvent =
  /** Open the offer's details from the notification (or from the back office later). */
  | { type: 'OPEN' }
  /** Put the notification away: the offer stays open and can be answered later. */
  | { type: 'DISMISS' }
  /** Close the details without answering. */
  | { type: 'CLOSE' }
  /** The consent checkbox for the list of contracts that would end. */
  | { type: 'AGREE'; agreed: boolean }
  | { type: 'ACCEPT' }
  | { type: 'REJECT' }
  | { type: 'RETRY' }
  | ContractUpdated;

/** Per state: the i18n key (namespace `agents`) of the line a screen shows. Tested complete in EN and TY. */
export const OFFER_STATE_MESSAGE_KEYS = {
  invalid: 'agents:offer.state.invalid',
  offered: 'agents:offer.state.offered',
  deferred: 'agents:offer.state.deferred',
  reviewing: 'agents:offer.state.reviewing',
  accepting: 'agents:offer.state.accepting',
  rejecting: 'agents:offer.state.rejecting',
  acceptFailed: 'agents:offer.state.acceptFailed',
  rejectFailed: 'agents:offer.state.rejectFailed',
  accepted: 'agents:offer.state.accepted',
  rejected: 'agents:offer.state.rejected',
  withdrawn: 'agents:offer.state.withdrawn',
  noLongerOpen: 'agents:offer.state.noLongerOpen',
  ended: 'agents:offer.state.ended',
} as const;

/** Other user-visible strings of the offer (labels, the consent line, buttons). */
export const OFFER_TEXT_KEYS = {
  title: 'agents:offer.title',
  kind: {
    dividend: 'agents:offer.kind.dividend',
    dailyWages: 'agents:offer.kind.dailyWages',
    hourlySalary: 'agents:offer.kind.hourlySalary',
    realtimeSalary: 'agents:offer.kind.realtimeSalary',
  },
  from: 'agents:offer.from',
  rate: 'agents:offer.rate',
  activeMembers: 'agents:offer.activeMembers',
  betAmount: 'agents:offer.betAmount',
  period: 'agents:offer.period',
  mustEndTitle: 'agents:offer.mustEnd.title',
  mustEndLine: 'agents:offer.mustEnd.line',
  mustEndAgree: 'agents:offer.mustEnd.agree',
  mustEndNeedAgree: 'agents:offer.mustEnd.needAgree',
  accept: 'agents:offer.action.accept',
  reject: 'agents:offer.action.reject',
  later: 'agents:offer.action.later',
  view: 'agents:offer.action.view',
  retry: 'agents:offer.action.retry',
  close: 'agents:offer.action.close',
} as const;

const isThisContract = (context: { offer: ContractEventPayload }, event: ContractOfferEvent | ContractAwaitingEvent) =>
  event.type === 'contract.updated' && event.payload.contractId === context.offer.contractId;
const outcomeIs = (context: { offer: ContractEventPayload }, event: ContractOfferEvent | ContractAwaitingEvent, outcome: OfferOutcome) =>
  isThisContract(context, event) && event.type === 'contract.updated' && outcomeOf(event.payload.status) === outcome;

/**
 * The downline's side. `idle` checks the payload is an open offer; `offered` is the notification shown
 * anywhere in the portal; `reviewing` the details with the lower-rate consequence. Accepting with a
 * non-empty list needs the user's explicit agreement to that list, and the acceptance sends exactly
 * those ids. Every state before an answer watches `contract.updated` of this contract: withdrawn by the
 * upline (`withdrawn`, never accepted after), answered elsewhere (`accepted` / `rejected`), or ended.
 * The server's INVALID_STATE means the same thing without the event (`noLongerOpen`).
 * CONTRACT_CONSENT_REQUIRED returns to the details with the server's list and the agreement cleared.
 * Anything retryable (network, 5xx) may be retried; other refusals go back to the details.
 */
export const contractOfferMachine = setup({
  types: { context: {} as OfferContext, events: {} as ContractOfferEvent, input: {} as ContractOfferInput },
  actors: {
    acceptOffer: fromPromise<AcceptOfferOutput, AcceptOfferInput>(async () => {
      throw new Error('acceptOffer is not provided');
    }),
    rejectOffer: fromPromise<RejectOfferOutput, RejectOfferInput>(async () => {
      throw new Error('rejectOffer is not provided');
    }),
  },
  guards: {
    isOpenOffer: ({ context }) => outcomeOf(context.offer.status) === 'open',
    /** Lower-rate rule: accepting ends the listed contracts only with the user's agreement to that list. */
    hasConsentForLowerRate: ({ context }) => context.mustEnd.length === 0 || context.agreed,
    isWithdrawnByUpline: ({ context, event }) => outcomeIs(context, event, 'withdrawn'),
    isAcceptedElsewhere: ({ context, event }) => outcomeIs(context, event, 'accepted'),
    isRejectedElsewhere: ({ context, event }) => outcomeIs(context, event, 'rejected'),
    isEnded: ({ context, event }) => outcomeIs(context, event, 'ended'),
    isNoLongerOpen: ({ event }) => isNoLongerOpen(errorOf(event)),
    isConsentRequired: ({ event }) => isConsentRequired(errorOf(event)),
    isRetryable: ({ event }) => isRetryable(errorOf(event)),
    lastErrorRetryable: ({ context }) => isRetryable(context.error),
  },
}).createMachine({
  id: 'contractOffer',
  context: ({ input }) => ({ ...input, agreed: false, error: null }),
  initial: 'idle',
  // Realtime news about this contract closes the offer wherever the user is, short of a final state.
  on: {
    'contract.updated': [
      { guard: 'isWithdrawnByUpline', target: '.withdrawn' },
      { guard: 'isAcceptedElsewhere', target: '.accepted' },
      { guard: 'isRejectedElsewhere', target: '.rejected' },
      { guard: 'isEnded', target: '.ended' },
    ],
  },
  states: {
    idle: {
      always: [{ guard: 'isOpenOffer', target: 'offered' }, { target: 'invalid' }],
    },
    /** The payload was not an open offer (a replayed or stale event): nothing to answer. */
    invalid: { type: 'final' },
    offered: { on: { OPEN: 'reviewing', DISMISS: 'deferred' } },
    /** Put away unanswered: still open, answered later from the back office. */
    deferred: { on: { OPEN: 'reviewing' } },
    reviewing: {
      on: {
        AGREE: { actions: assign({ agreed: ({ event }) => event.agreed }) },
        ACCEPT: { guard: 'hasConsentForLowerRate', target: 'accepting' },
        REJECT: 'rejecting',
        CLOSE: 'deferred',
      },
    },
    accepting: {
      invoke: {
        id: 'acceptOffer',
        src: 'acceptOffer',
        input: ({ context }) => ({
          contractId: context.offer.contractId,
          endContractIds: context.agreed ? context.mustEnd.map((c) => c.contractId) : [],
        }),
        onDone: { target: 'accepted' },
        onError: [
          { guard: 'isNoLongerOpen', target: 'noLongerOpen', actions: assign({ error: ({ event }) => event.error }) },
          {
            guard: 'isConsentRequired',
            target: 'reviewing',
            actions: assign({
              error: ({ event }) => event.error,
              mustEnd: ({ context, event }) => mustEndOf(event.error) ?? context.mustEnd,
              agreed: false,
            }),
          },
          { target: 'acceptFailed', actions: assign({ error: ({ event }) => event.error }) },
        ],
      },
    },
    rejecting: {
      invoke: {
        id: 'rejectOffer',
        src: 'rejectOffer',
        input: ({ context }) => ({ contractId: context.offer.contractId }),
        onDone: { target: 'rejected' },
        onError: [
          { guard: 'isNoLongerOpen', target: 'noLongerOpen', actions: assign({ error: ({ event }) => event.error }) },
          { target: 'rejectFailed', actions: assign({ error: ({ event }) => event.error }) },
        ],
      },
    },
    acceptFailed: {
      on: {
        RETRY: { guard: 'lastErrorRetryable', target: 'accepting' },
        CLOSE: 'reviewing',
      },
    },
    rejectFailed: {
      on: {
        RETRY: { guard: 'lastErrorRetryable', target: 'rejecting' },
        CLOSE: 'reviewing',
      },
    },
    accepted: { type: 'final' },
    rejected: { type: 'final' },
    withdrawn: { type: 'final' },
    /** The server says the offer is not open any more (withdrawn or answered); the list is refetched. */
    noLongerOpen: { type: 'final' },
    /** Terminated before an answer reached this screen. */
    ended: { type: 'final' },
  },
});

/** States where the downline machine waits on the user or on news, not on a request. */
export const OFFER_RESTING_STATES = ['offered', 'deferred', 'reviewing', 'acceptFailed', 'rejectFailed'] as const;
/** States waiting on a request; each outcome of it leads to a resting or a final state. */
export const OFFER_BUSY_STATES = ['accepting', 'rejecting'] as const;

// ---------------------------------------------------------------------------------------------------
// The upline: waiting for the answer to an offer it made.

export type ContractAwaitingInput = {
  /** The contract the upline's offer created (status `offered`). */
  offer: ContractEventPayload;
};

type AwaitingContext = ContractAwaitingInput & { error: unknown };

export type ContractAwaitingEvent = { type: 'WITHDRAW' } | { type: 'RETRY' } | { type: 'CLOSE' } | ContractUpdated;

export const AWAITING_STATE_MESSAGE_KEYS = {
  invalid: 'agents:awaiting.state.invalid',
  awaitingAnswer: 'agents:awaiting.state.awaitingAnswer',
  withdrawing: 'agents:awaiting.state.withdrawing',
  withdrawFailed: 'agents:awaiting.state.withdrawFailed',
  accepted: 'agents:awaiting.state.accepted',
  rejected: 'agents:awaiting.state.rejected',
  withdrawn: 'agents:awaiting.state.withdrawn',
  ended: 'agents:awaiting.state.ended',
} as const;

export const AWAITING_TEXT_KEYS = {
  withdraw: 'agents:awaiting.action.withdraw',
  retry: 'agents:offer.action.retry',
  close: 'agents:offer.action.close',
} as const;

/**
 * The upline's side: `awaitingAnswer` until `contract.updated` says accepted, rejected or withdrawn
 * (the latter also from another tab) or terminated. The upline may withdraw the open offer; if the
 * downline answered first the server says INVALID_STATE and the machine goes back to waiting, where the
 * answer's event (or the refetch after a resync) settles it.
 */
export const contractAwaitingMachine = setup({
  types: { context: {} as AwaitingContext, events: {} as ContractAwaitingEvent, input: {} as ContractAwaitingInput },
  actors: {
    withdrawOffer: fromPromise<WithdrawOfferOutput, WithdrawOfferInput>(async () => {
      throw new Error('withdrawOffer is not provided');
    }),
  },
  guards: {
    isOpenOffer: ({ context }) => outcomeOf(context.offer.status) === 'open',
    isAccepted: ({ context, event }) => outcomeIs(context, event, 'accepted'),
    isRejected: ({ context, event }) => outcomeIs(context, event, 'rejected'),
    isWithdrawn: ({ context, event }) => outcomeIs(context, event, 'withdrawn'),
    isEnded: ({ context, event }) => outcomeIs(context, event, 'ended'),
    isNoLongerOpen: ({ event }) => isNoLongerOpen(errorOf(event)),
    lastErrorRetryable: ({ context }) => isRetryable(context.error),
  },
}).createMachine({
  id: 'contractAwaiting',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'idle',
  on: {
    'contract.updated': [
      { guard: 'isAccepted', target: '.accepted' },
      { guard: 'isRejected', target: '.rejected' },
      { guard: 'isWithdrawn', target: '.withdrawn' },
      { guard: 'isEnded', target: '.ended' },
    ],
  },
  states: {
    idle: { always: [{ guard: 'isOpenOffer', target: 'awaitingAnswer' }, { target: 'invalid' }] },
    invalid: { type: 'final' },
    awaitingAnswer: { on: { WITHDRAW: 'withdrawing' } },
    withdrawing: {
      invoke: {
        id: 'withdrawOffer',
        src: 'withdrawOffer',
        input: ({ context }) => ({ contractId: context.offer.contractId }),
        onDone: { target: 'withdrawn' },
        onError: [
          // Answered meanwhile: its contract.updated decides.
          { guard: 'isNoLongerOpen', target: 'awaitingAnswer', actions: assign({ error: ({ event }) => event.error }) },
          { target: 'withdrawFailed', actions: assign({ error: ({ event }) => event.error }) },
        ],
      },
    },
    withdrawFailed: {
      on: {
        RETRY: { guard: 'lastErrorRetryable', target: 'withdrawing' },
        CLOSE: 'awaitingAnswer',
      },
    },
    accepted: { type: 'final' },
    rejected: { type: 'final' },
    withdrawn: { type: 'final' },
    ended: { type: 'final' },
  },
});

export const AWAITING_RESTING_STATES = ['awaitingAnswer', 'withdrawFailed'] as const;
export const AWAITING_BUSY_STATES = ['withdrawing'] as const;
