import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { EventObject } from 'xstate';
import { logoutMachine } from './logout.machine';
import { definedTransitions, untakenTransitions } from './transition-coverage';

const flush = () => new Promise((r) => setTimeout(r, 0));

function start(logout: () => Promise<unknown>) {
  const order: string[] = [];
  const actor = createActor(
    logoutMachine.provide({
      actors: { logout: fromPromise(() => { order.push('logout'); return logout(); }) },
      actions: { endSession: () => order.push('endSession'), leave: () => order.push('leave') },
    }),
  ).start();
  return { actor, order };
}

describe('logout machine', () => {
  it('asks first; cancelling does nothing', () => {
    const { actor, order } = start(async () => ({}));
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'REQUEST' });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(order).toEqual([]);
  });

  it('calls the server, then ends the local session and leaves', async () => {
    const { actor, order } = start(async () => ({}));
    actor.send({ type: 'REQUEST' });
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('loggingOut');
    await flush();
    expect(order).toEqual(['logout', 'endSession', 'leave']);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('ends the local session even when the server call fails', async () => {
    const { actor, order } = start(async () => { throw new Error('offline'); });
    actor.send({ type: 'REQUEST' });
    actor.send({ type: 'CONFIRM' });
    await flush();
    expect(order).toEqual(['logout', 'endSession', 'leave']);
  });

  it('takes every transition', () => {
    const events = [
      { type: 'REQUEST' }, { type: 'CONFIRM' }, { type: 'CANCEL' },
      { type: 'xstate.done.actor.logout', output: {} }, { type: 'xstate.error.actor.logout', error: new Error('x') },
    ] as EventObject[];
    expect(definedTransitions(logoutMachine)).toHaveLength(5);
    expect(untakenTransitions(logoutMachine, { events, serializeState: (s: { value: unknown }) => JSON.stringify(s.value) })).toEqual([]);
  });
});
