import { assign, fromPromise, setup } from 'xstate';
import { PROOF_LIMITS, type TWithdrawal, type WithdrawalStatus } from '@portal/contracts/api/cashier';
import type { EventPayload } from '@portal/contracts/events/events';
import { isApiError } from '../../../lib/api';

export type ConfirmResult = 'received' | 'not_received' | 'partially_received';
/** A chosen proof image: the browser File (or any Blob in tests) and what the checks need. */
export type ProofImage = { id: string; name: string; size: number; type: string; blob?: Blob };
export type ConfirmInput = { withdrawalId: string; result: ConfirmResult; receivedAmount: number | null; proofs: readonly ProofImage[] };

/** The withdrawal fields the machine follows (from the list, then from `withdrawal.updated`). */
export type WithdrawalSnapshot = Pick<TWithdrawal, 'id' | 'amount' | 'status' | 'receivedAmount' | 'autoReceiveAt' | 'reason'>;

export type WithdrawalConfirmationContext = {
  withdrawalId: string;
  amount: number;
  status: WithdrawalStatus;
  receivedAmount: number | null;
  /** Epoch ms when an unconfirmed paid withdrawal counts as received (server time), or null. */
  autoReceiveAt: number | null;
  /** Whole seconds left until auto-receive, recomputed from the clock on updates and decremented each second. */
  secondsLeft: number;
  reason: string | null;
  result: ConfirmResult | null;
  /** The partial amount as typed (minor units) or null. */
  partialAmount: number | null;
  proofs: ProofImage[];
  /** Translation key of the last refused file (type or size or count). */
  fileError: 'proof_type' | 'proof_size' | 'proof_count' | null;
  /** Error code of the last failed confirm call. */
  error: string | null;
};

export type WithdrawalConfirmationEvent =
  /** A realtime `withdrawal.updated` for this withdrawal; `now` is the client time it arrived. */
  | { type: 'withdrawal.updated'; payload: EventPayload<'withdrawal.updated'>; now: number }
  /** The clock jumped (tab shown again): recompute the countdown. */
  | { type: 'SYNC'; now: number }
  | { type: 'CHOOSE'; result: ConfirmResult }
  | { type: 'SET_AMOUNT'; amount: number | null }
  | { type: 'ADD_PROOFS'; proofs: readonly ProofImage[] }
  | { type: 'REMOVE_PROOF'; id: string }
  | { type: 'SUBMIT' }
  | { type: 'CANCEL' }
  /** The reason of a rejection, once loaded. */
  | { type: 'REASON'; reason: string | null };

export type WithdrawalConfirmationInput = { withdrawal: WithdrawalSnapshot; now: number };

const PROOF_TYPES = new Set(['image/png', 'image/jpeg']);
const PENDING: readonly WithdrawalStatus[] = ['requested', 'approved', 'held'];
const CONFIRMED: readonly WithdrawalStatus[] = ['received', 'partially_received', 'not_received', 'auto_received'];

export const secondsUntil = (deadline: number | null, now: number) => (deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000)));
const toMs = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** Browser-side checks of the chosen images: png or jpg, at most 5 MB each, at most 3 in all. */
export function acceptProofs(current: readonly ProofImage[], added: readonly ProofImage[]) {
  const kept = [...current];
  let error: WithdrawalConfirmationContext['fileError'] = null;
  for (const p of added) {
    if (!PROOF_TYPES.has(p.type)) error = 'proof_type';
    else if (p.size > PROOF_LIMITS.maxBytes) error = 'proof_size';
    else if (kept.length >= PROOF_LIMITS.maxFiles) error = 'proof_count';
    else kept.push(p);
  }
  return { proofs: kept, error };
}

/** Whether the current choice can be sent: proofs for not/partially received, and 0 < partial < amount. */
export function canSubmit(c: Pick<WithdrawalConfirmationContext, 'result' | 'partialAmount' | 'proofs' | 'amount'>): boolean {
  if (c.result === 'received') return true;
  if (c.proofs.length < 1 || c.proofs.length > PROOF_LIMITS.maxFiles) return false;
  if (c.result === 'not_received') return true;
  if (c.result === 'partially_received') return c.partialAmount !== null && c.partialAmount > 0 && c.partialAmount < c.amount;
  return false;
}

const fromUpdate = ({ event }: { event: WithdrawalConfirmationEvent }) => {
  if (event.type !== 'withdrawal.updated') return {};
  const p = event.payload;
  const autoReceiveAt = toMs(p.autoReceiveAt);
  return { status: p.status, amount: p.amount, receivedAmount: p.receivedAmount, autoReceiveAt, secondsLeft: secondsUntil(autoReceiveAt, event.now) };
};

/**
 * One withdrawal from request to the player's confirmation (spec section 4): waiting (requested,
 * approved, held) -> paid (auto-receive countdown) -> confirming (received, not received with
 * proof, partially received with amount and proof) -> done. `withdrawal.updated` events from the
 * server drive it; an auto_received while the player is still choosing ends it (a forced receipt is
 * not reversed). Rejected shows the reason.
 */
export const withdrawalConfirmationMachine = setup({
  types: {
    context: {} as WithdrawalConfirmationContext,
    events: {} as WithdrawalConfirmationEvent,
    input: {} as WithdrawalConfirmationInput,
  },
  actors: {
    /** POST /wps/v2/withdrawals/:id/confirm (multipart). */
    confirm: fromPromise<TWithdrawal, ConfirmInput>(async () => {
      throw new Error('confirm is not provided');
    }),
    /** GET /wps/v2/withdrawals/:id for the rejection reason (the event does not carry it). */
    loadReason: fromPromise<string | null, { withdrawalId: string }>(async () => null),
  },
  guards: {
    isPaid: ({ context }) => context.status === 'paid',
    isRejected: ({ context }) => context.status === 'rejected',
    isConfirmed: ({ context }) => CONFIRMED.includes(context.status),
    updateIsPending: ({ event }) => event.type === 'withdrawal.updated' && PENDING.includes(event.payload.status),
    updateIsPaid: ({ event }) => event.type === 'withdrawal.updated' && event.payload.status === 'paid',
    updateIsRejected: ({ event }) => event.type === 'withdrawal.updated' && event.payload.status === 'rejected',
    updateIsConfirmed: ({ event }) => event.type === 'withdrawal.updated' && CONFIRMED.includes(event.payload.status),
    hasMoreSeconds: ({ context }) => context.secondsLeft > 0,
    canSubmit: ({ context }) => canSubmit(context),
  },
  actions: {
    applyUpdate: assign(fromUpdate),
    sync: assign({ secondsLeft: ({ context, event }) => (event.type === 'SYNC' ? secondsUntil(context.autoReceiveAt, event.now) : context.secondsLeft) }),
    tick: assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1) }),
    clearChoice: assign({ result: null, partialAmount: null, proofs: [], fileError: null, error: null }),
  },
  delays: { tick: 1000 },
}).createMachine({
  id: 'withdrawalConfirmation',
  context: ({ input }) => {
    const w = input.withdrawal;
    const autoReceiveAt = toMs(w.autoReceiveAt);
    return {
      withdrawalId: w.id, amount: w.amount, status: w.status, receivedAmount: w.receivedAmount, autoReceiveAt,
      secondsLeft: secondsUntil(autoReceiveAt, input.now), reason: w.reason, result: null, partialAmount: null, proofs: [], fileError: null, error: null,
    };
  },
  initial: 'init',
  states: {
    init: {
      always: [
        { guard: 'isPaid', target: 'paid' },
        { guard: 'isRejected', target: 'rejected' },
        { guard: 'isConfirmed', target: 'done' },
        { target: 'waiting' },
      ],
    },
    waiting: {
      on: {
        'withdrawal.updated': [
          { guard: 'updateIsPending', actions: 'applyUpdate' },
          { guard: 'updateIsPaid', target: 'paid', actions: 'applyUpdate' },
          { guard: 'updateIsRejected', target: 'rejected', actions: 'applyUpdate' },
          { guard: 'updateIsConfirmed', target: 'done', actions: 'applyUpdate' },
        ],
      },
    },
    paid: {
      after: { tick: { guard: 'hasMoreSeconds', target: 'paid', reenter: true, actions: 'tick' } },
      on: {
        CHOOSE: { target: 'confirming', actions: ['clearChoice', assign({ result: ({ event }) => event.result })] },
        SYNC: { target: 'paid', reenter: true, actions: 'sync' },
        'withdrawal.updated': [
          { guard: 'updateIsPaid', target: 'paid', reenter: true, actions: 'applyUpdate' },
          { guard: 'updateIsConfirmed', target: 'done', actions: 'applyUpdate' },
        ],
      },
    },
    /** The player's form and the countdown run side by side: the countdown keeps ticking while they choose. */
    confirming: {
      type: 'parallel',
      on: {
        // The auto-receive (or this player's confirmation from another tab) wins: it is final.
        'withdrawal.updated': [
          { guard: 'updateIsConfirmed', target: 'done', actions: 'applyUpdate' },
          { guard: 'updateIsPaid', target: '.clock.ticking', reenter: true, actions: 'applyUpdate' },
        ],
        SYNC: { target: '.clock.ticking', reenter: true, actions: 'sync' },
      },
      states: {
        clock: {
          initial: 'ticking',
          states: {
            ticking: { after: { tick: { guard: 'hasMoreSeconds', target: 'ticking', reenter: true, actions: 'tick' } } },
          },
        },
        form: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                CHOOSE: { actions: assign({ result: ({ event }) => event.result, error: null }) },
                SET_AMOUNT: { actions: assign({ partialAmount: ({ event }) => event.amount }) },
                ADD_PROOFS: {
                  actions: assign(({ context, event }) => {
                    const r = acceptProofs(context.proofs, event.proofs);
                    return { proofs: r.proofs, fileError: r.error };
                  }),
                },
                REMOVE_PROOF: { actions: assign({ proofs: ({ context, event }) => context.proofs.filter((p) => p.id !== event.id), fileError: null }) },
                SUBMIT: { guard: 'canSubmit', target: 'submitting' },
                CANCEL: { target: '#withdrawalConfirmation.paid', actions: 'clearChoice' },
              },
            },
            submitting: {
              entry: assign({ error: null }),
              invoke: {
                id: 'confirm',
                src: 'confirm',
                input: ({ context }) => ({
                  withdrawalId: context.withdrawalId,
                  result: context.result ?? 'received',
                  receivedAmount: context.result === 'partially_received' ? context.partialAmount : null,
                  proofs: context.result === 'received' ? [] : context.proofs,
                }),
                onDone: {
                  target: '#withdrawalConfirmation.done',
                  actions: assign(({ event }) => ({ status: event.output.status, receivedAmount: event.output.receivedAmount })),
                },
                onError: {
                  target: 'editing',
                  actions: assign({ error: ({ event }) => (isApiError(event.error) ? event.error.code : 'INTERNAL') }),
                },
              },
            },
          },
        },
      },
    },
    rejected: {
      invoke: {
        id: 'loadReason',
        src: 'loadReason',
        input: ({ context }) => ({ withdrawalId: context.withdrawalId }),
        onDone: { actions: assign({ reason: ({ context, event }) => event.output ?? context.reason }) },
      },
      on: { REASON: { actions: assign({ reason: ({ event }) => event.reason }) } },
    },
    done: { type: 'final' },
  },
});

/** Amount still owed to the player after a partial (or not) receipt. */
export function remainingOf(c: Pick<WithdrawalConfirmationContext, 'amount' | 'receivedAmount'>): number | null {
  return c.receivedAmount === null ? null : c.amount - c.receivedAmount;
}
