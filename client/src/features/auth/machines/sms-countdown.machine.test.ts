import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { EventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { ApiError } from '../../../lib/api';
import { secondsFor, smsCountdownMachine } from './sms-countdown.machine';
import type { SendCodeInput } from './sms-countdown.machine';
import { untakenTransitions } from './transition-coverage';

const flush = () => new Promise((r) => setTimeout(r, 0));

function start(send: (input: SendCodeInput) => Promise<{ expiredMinutes: number }>) {
  const clock = new SimulatedClock();
  const calls: SendCodeInput[] = [];
  const actor = createActor(
    smsCountdownMachine.provide({
      actors: {
        sendCode: fromPromise(({ input }: { input: SendCodeInput }) => {
          calls.push(input);
          return send(input);
        }),
      },
    }),
    { clock },
  ).start();
  return { actor, clock, calls };
}

describe('sms countdown', () => {
  it('disables the button for expiredMinutes x 60 s, counting down each second', async () => {
    const { actor, clock, calls } = start(async () => ({ expiredMinutes: 2 }));
    actor.send({ type: 'SEND', payload: { mobileNum: '9171234567' } });
    expect(actor.getSnapshot().value).toBe('sending');
    await flush();
    expect(calls).toEqual([{ mobileNum: '9171234567' }]);
    expect(actor.getSnapshot().value).toBe('counting');
    expect(actor.getSnapshot().context.remaining).toBe(120);
    clock.increment(1000);
    expect(actor.getSnapshot().context.remaining).toBe(119);
    actor.send({ type: 'SEND', payload: {} });
    expect(calls).toHaveLength(1);
    for (let i = 0; i < 118; i++) clock.increment(1000);
    expect(actor.getSnapshot().context.remaining).toBe(1);
    expect(actor.getSnapshot().value).toBe('counting');
    clock.increment(1000);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.remaining).toBe(0);
  });

  it('uses 1 minute when the server gives no usable expiry', () => {
    expect(secondsFor(undefined)).toBe(60);
    expect(secondsFor(0)).toBe(60);
    expect(secondsFor(3)).toBe(180);
  });

  it('keeps the server message on failure and throttles the next send to one per second', async () => {
    let fail = true;
    const { actor, clock, calls } = start(async () => {
      if (fail) throw new ApiError('SMS_THROTTLED', 'Please wait before requesting another code', 429);
      return { expiredMinutes: 1 };
    });
    actor.send({ type: 'SEND', payload: { mobileNum: '1' } });
    await flush();
    expect(actor.getSnapshot().value).toBe('throttled');
    expect(actor.getSnapshot().context.error).toBe('SMS_THROTTLED');
    expect(actor.getSnapshot().context.errorMessage).toBe('Please wait before requesting another code');
    actor.send({ type: 'SEND', payload: { mobileNum: '1' } });
    expect(calls).toHaveLength(1);
    clock.increment(999);
    expect(actor.getSnapshot().value).toBe('throttled');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('idle');
    fail = false;
    actor.send({ type: 'SEND', payload: { mobileNum: '1' } });
    expect(actor.getSnapshot().context.error).toBeNull();
    await flush();
    expect(actor.getSnapshot().context.remaining).toBe(60);
  });

  it('reads a non-API failure as unknown, and DISMISS and RESET clear', async () => {
    const { actor, clock } = start(async () => {
      throw new Error('boom');
    });
    actor.send({ type: 'SEND', payload: {} });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ error: 'INTERNAL', errorMessage: null });
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().context.error).toBeNull();
    clock.increment(1000);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  // Model-based: every state reachable, and every transition taken by some path.
  const done = { type: 'xstate.done.actor.sendCode', output: { expiredMinutes: 1 } };
  const failed = { type: 'xstate.error.actor.sendCode', error: new ApiError('INVALID_PHONE', 'Invalid phone number format.', 400) };
  const events = [
    { type: 'SEND', payload: { mobileNum: '9171234567' } },
    { type: 'DISMISS' },
    { type: 'RESET' },
    done,
    failed,
    { type: 'xstate.after.throttle.smsCountdown.throttled' },
    { type: 'xstate.after.tick.smsCountdown.counting' },
  ] as EventObject[];

  it('reaches every state by a shortest path', () => {
    const paths = getShortestPaths(smsCountdownMachine, { events: events as never, serializeState: (s) => JSON.stringify(s.value) });
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    expect([...reached].sort()).toEqual(['"counting"', '"idle"', '"sending"', '"throttled"']);
  });

  it('takes every transition from every reachable state', () => {
    const missing = untakenTransitions(smsCountdownMachine, {
      events,
      serializeState: (s: { value: unknown; context: { remaining: number; error: string | null } }) =>
        JSON.stringify([s.value, s.context.remaining, s.context.error]),
    });
    expect(missing).toEqual([]);
  });
});
