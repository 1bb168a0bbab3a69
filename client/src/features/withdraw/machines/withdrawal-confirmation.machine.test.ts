import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { EventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { TWithdrawal, WithdrawalStatus } from '@portal/contracts/api/cashier';
import { ApiError } from '../../../lib/api';
import { untakenTransitions } from '../../../lib/machine-coverage';
import {
  acceptProofs, canSubmit, remainingOf, secondsUntil, withdrawalConfirmationMachine,
} from './withdrawal-confirmation.machine';
import type { ConfirmInput, ProofImage, WithdrawalSnapshot } from './withdrawal-confirmation.machine';

const flush = () => new Promise((r) => setTimeout(r, 0));
const T0 = Date.parse('2025-03-01T10:00:00Z');
const png = (id: string, size = 1000): ProofImage => ({ id, name: `${id}.png`, size, type: 'image/png' });
const w = (status: WithdrawalStatus, extra: Partial<WithdrawalSnapshot> = {}): WithdrawalSnapshot => ({
  id: '7', amount: 100000, status, receivedAmount: null, autoReceiveAt: null, reason: null, ...extra,
});
const update = (status: WithdrawalStatus, extra: { receivedAmount?: number | null; autoReceiveAt?: string | null; now?: number } = {}) => ({
  type: 'withdrawal.updated' as const,
  payload: { withdrawalId: '7', status, amount: 100000, receivedAmount: extra.receivedAmount ?? null, autoReceiveAt: extra.autoReceiveAt ?? null },
  now: extra.now ?? T0,
});
const answer = (status: WithdrawalStatus, receivedAmount: number | null): TWithdrawal => ({
  id: '7', amount: 100000, currency: 'PHP', status, bankName: 'BDO', accountName: 'Juan', accountNumber: '****1234', receivedAmount,
  remainingAmount: receivedAmount === null ? null : 100000 - receivedAmount, reason: null, paidAt: null, autoReceiveAt: null,
  confirmedAt: null, proofCount: 0, createdAt: '', updatedAt: '',
});

function start(withdrawal: WithdrawalSnapshot, confirm: (i: ConfirmInput) => Promise<TWithdrawal> = async () => answer('received', 100000), reason: string | null = 'Account name mismatch') {
  const clock = new SimulatedClock();
  const calls: ConfirmInput[] = [];
  const actor = createActor(
    withdrawalConfirmationMachine.provide({
      actors: {
        confirm: fromPromise(({ input }: { input: ConfirmInput }) => {
          calls.push(input);
          return confirm(input);
        }),
        loadReason: fromPromise(async () => reason),
      },
    }),
    { clock, input: { withdrawal, now: T0 } },
  ).start();
  return { actor, clock, calls };
}
const inTwoMinutes = new Date(T0 + 120_000).toISOString();

describe('withdrawal confirmation', () => {
  it('waits through requested, approved and held, then counts down once paid', () => {
    const { actor, clock } = start(w('requested'));
    expect(actor.getSnapshot().value).toBe('waiting');
    actor.send(update('approved'));
    actor.send(update('held'));
    expect(actor.getSnapshot().context.status).toBe('held');
    actor.send(update('paid', { autoReceiveAt: inTwoMinutes }));
    expect(actor.getSnapshot().value).toBe('paid');
    expect(actor.getSnapshot().context.secondsLeft).toBe(120);
    clock.increment(1000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(119);
    for (let i = 0; i < 119; i++) clock.increment(1000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(0);
    clock.increment(5000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(0);
    // The server decides the auto-receive: the machine only ends on its event.
    expect(actor.getSnapshot().value).toBe('paid');
    actor.send(update('auto_received', { receivedAmount: 100000 }));
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.status).toBe('auto_received');
  });

  it('resyncs the countdown from the clock when the tab comes back', () => {
    const { actor, clock } = start(w('paid', { autoReceiveAt: inTwoMinutes }));
    for (let i = 0; i < 3; i++) clock.increment(1000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(117);
    actor.send({ type: 'SYNC', now: T0 + 60_500 });
    expect(actor.getSnapshot().context.secondsLeft).toBe(60);
    actor.send({ type: 'CHOOSE', result: 'received' });
    clock.increment(1000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(59);
    actor.send({ type: 'SYNC', now: T0 + 200_000 });
    expect(actor.getSnapshot().context.secondsLeft).toBe(0);
  });

  it('confirms received without proofs', async () => {
    const { actor, calls } = start(w('paid', { autoReceiveAt: inTwoMinutes }));
    actor.send({ type: 'CHOOSE', result: 'received' });
    expect(actor.getSnapshot().matches({ confirming: { form: 'editing' } })).toBe(true);
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(calls).toEqual([{ withdrawalId: '7', result: 'received', receivedAmount: null, proofs: [] }]);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.status).toBe('received');
  });

  it('needs 1 to 3 proofs for not received, checked in the browser', async () => {
    const { actor, calls } = start(w('paid', { autoReceiveAt: inTwoMinutes }), async () => answer('not_received', 0));
    actor.send({ type: 'CHOOSE', result: 'not_received' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().matches({ confirming: { form: 'editing' } })).toBe(true);
    actor.send({ type: 'ADD_PROOFS', proofs: [{ id: 'g', name: 'a.gif', size: 10, type: 'image/gif' }] });
    expect(actor.getSnapshot().context.fileError).toBe('proof_type');
    actor.send({ type: 'ADD_PROOFS', proofs: [png('big', 5 * 1024 * 1024 + 1)] });
    expect(actor.getSnapshot().context.fileError).toBe('proof_size');
    actor.send({ type: 'ADD_PROOFS', proofs: [png('1'), png('2'), png('3'), png('4')] });
    expect(actor.getSnapshot().context.fileError).toBe('proof_count');
    expect(actor.getSnapshot().context.proofs.map((p) => p.id)).toEqual(['1', '2', '3']);
    actor.send({ type: 'REMOVE_PROOF', id: '2' });
    expect(actor.getSnapshot().context.proofs.map((p) => p.id)).toEqual(['1', '3']);
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(calls[0]).toMatchObject({ result: 'not_received', receivedAmount: null });
    expect(calls[0]?.proofs.map((p) => p.id)).toEqual(['1', '3']);
    expect(actor.getSnapshot().context).toMatchObject({ status: 'not_received', receivedAmount: 0 });
  });

  it('partially received needs 0 < amount < withdrawal and a proof, and shows the remaining amount', async () => {
    const { actor, calls } = start(w('paid', { autoReceiveAt: inTwoMinutes }), async () => answer('partially_received', 40000));
    actor.send({ type: 'CHOOSE', result: 'partially_received' });
    actor.send({ type: 'ADD_PROOFS', proofs: [png('1')] });
    for (const bad of [null, 0, 100000, 150000]) {
      actor.send({ type: 'SET_AMOUNT', amount: bad });
      actor.send({ type: 'SUBMIT' });
      expect(actor.getSnapshot().matches({ confirming: { form: 'editing' } })).toBe(true);
    }
    actor.send({ type: 'SET_AMOUNT', amount: 40000 });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().matches({ confirming: { form: 'submitting' } })).toBe(true);
    await flush();
    expect(calls[0]).toMatchObject({ result: 'partially_received', receivedAmount: 40000 });
    expect(remainingOf(actor.getSnapshot().context)).toBe(60000);
  });

  it('keeps the choice and shows the error when the confirm call fails, and can go back', async () => {
    const { actor } = start(w('paid', { autoReceiveAt: inTwoMinutes }), async () => {
      throw new ApiError('PROOF_INVALID', 'Images must be png or jpg', 400);
    });
    actor.send({ type: 'CHOOSE', result: 'not_received' });
    actor.send({ type: 'ADD_PROOFS', proofs: [png('1')] });
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().matches({ confirming: { form: 'editing' } })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ error: 'PROOF_INVALID', result: 'not_received' });
    actor.send({ type: 'CHOOSE', result: 'received' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('paid');
    expect(actor.getSnapshot().context).toMatchObject({ result: null, proofs: [] });
  });

  it('an auto-receive while the player is choosing ends it for good', () => {
    const { actor } = start(w('paid', { autoReceiveAt: inTwoMinutes }));
    actor.send({ type: 'CHOOSE', result: 'not_received' });
    actor.send(update('auto_received', { receivedAmount: 100000 }));
    expect(actor.getSnapshot().status).toBe('done');
    actor.send({ type: 'CHOOSE', result: 'received' });
    expect(actor.getSnapshot().context.status).toBe('auto_received');
  });

  it('shows the rejection reason, loaded or pushed', async () => {
    const { actor } = start(w('approved'));
    actor.send(update('rejected'));
    expect(actor.getSnapshot().value).toBe('rejected');
    await flush();
    expect(actor.getSnapshot().context.reason).toBe('Account name mismatch');
    actor.send({ type: 'REASON', reason: 'Closed account' });
    expect(actor.getSnapshot().context.reason).toBe('Closed account');
  });

  it('starts where the withdrawal already is', () => {
    expect(start(w('received', { receivedAmount: 100000 })).actor.getSnapshot().status).toBe('done');
    expect(start(w('rejected', { reason: 'x' })).actor.getSnapshot().value).toBe('rejected');
    expect(start(w('paid', { autoReceiveAt: inTwoMinutes })).actor.getSnapshot().context.secondsLeft).toBe(120);
  });

  it('helpers', () => {
    expect(secondsUntil(null, T0)).toBe(0);
    expect(secondsUntil(T0 + 1500, T0)).toBe(2);
    expect(acceptProofs([], [{ id: 'j', name: 'a.jpg', size: 5 * 1024 * 1024, type: 'image/jpeg' }]).error).toBeNull();
    expect(canSubmit({ result: null, partialAmount: null, proofs: [png('1')], amount: 1 })).toBe(false);
  });

  // Model-based: every transition of the machine is taken from some reachable state.
  const statuses: WithdrawalStatus[] = ['requested', 'approved', 'held', 'paid', 'rejected', 'received', 'partially_received', 'not_received', 'auto_received'];
  const events = [
    ...statuses.map((s) => update(s, { autoReceiveAt: s === 'paid' ? new Date(T0 + 2000).toISOString() : null, receivedAmount: s === 'received' ? 100000 : null })),
    { type: 'SYNC', now: T0 },
    { type: 'CHOOSE', result: 'received' },
    { type: 'CHOOSE', result: 'not_received' },
    { type: 'CHOOSE', result: 'partially_received' },
    { type: 'SET_AMOUNT', amount: 50000 },
    { type: 'ADD_PROOFS', proofs: [png('1')] },
    { type: 'REMOVE_PROOF', id: '1' },
    { type: 'SUBMIT' },
    { type: 'CANCEL' },
    { type: 'REASON', reason: 'r' },
    { type: 'xstate.done.actor.confirm', output: answer('received', 100000) },
    { type: 'xstate.error.actor.confirm', error: new ApiError('INVALID_STATE', '', 409) },
    { type: 'xstate.done.actor.loadReason', output: 'reason' },
    { type: 'xstate.after.tick.withdrawalConfirmation.paid' },
    { type: 'xstate.after.tick.withdrawalConfirmation.confirming.clock.ticking' },
  ] as EventObject[];
  type Snap = { value: unknown; status: string; context: { status: string; secondsLeft: number; result: string | null; proofs: unknown[]; partialAmount: number | null; reason: string | null } };
  const serialize = (s: Snap) =>
    JSON.stringify([s.value, s.status, s.context.status, s.context.secondsLeft, s.context.result, s.context.proofs.length, s.context.partialAmount, s.context.reason]);
  const inputs = (['requested', 'paid', 'rejected', 'received'] as const).map((status) => ({
    withdrawal: w(status, { autoReceiveAt: status === 'paid' ? new Date(T0 + 2000).toISOString() : null }),
    now: T0,
  }));

  it('reaches every state by a shortest path', () => {
    const reached = new Set<string>();
    for (const input of inputs) {
      for (const p of getShortestPaths(withdrawalConfirmationMachine, { events: events as never, input, serializeState: serialize as never })) {
        reached.add(JSON.stringify(p.state.value));
      }
    }
    expect([...reached].sort()).toEqual(
      ['"done"', '"paid"', '"rejected"', '"waiting"', JSON.stringify({ confirming: { clock: 'ticking', form: 'editing' } }), JSON.stringify({ confirming: { clock: 'ticking', form: 'submitting' } })].sort(),
    );
  });

  it('takes every transition', () => {
    const missingPerInput = inputs.map((input) => new Set(untakenTransitions(withdrawalConfirmationMachine, { events: () => events, input, serialize: serialize as never })));
    const missing = [...missingPerInput[0]!].filter((t) => missingPerInput.every((m) => m.has(t)));
    expect(missing).toEqual([]);
  });
});
