import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, SimulatedClock, transition } from 'xstate';
import { untakenTransitions } from './machine-coverage';
import { smsCountdownMachine } from './sms-countdown-machine';

const send = { type: 'SEND', mobileNum: '9171234567', countryDialingCode: '63' } as const;
const done = (expiredMinutes: number) => ({ type: 'xstate.done.actor.sendCode', output: { expiredMinutes } }) as never;
const failed = (error: unknown) => ({ type: 'xstate.error.actor.sendCode', error }) as never;

const flush = () => new Promise((r) => setTimeout(r, 0));
/** SimulatedClock fires only timers already due; a one-second tick schedules the next. */
const advance = (clock: SimulatedClock, ms: number) => {
  for (let t = 0; t < ms; t += 1000) clock.increment(Math.min(1000, ms - t));
};

describe('smsCountdownMachine (pure transitions)', () => {
  it('refuses an invalid number without sending', () => {
    const [s0] = initialTransition(smsCountdownMachine);
    const [s1] = transition(smsCountdownMachine, s0, { type: 'SEND', mobileNum: '12ab', countryDialingCode: '63' });
    expect(s1.value).toBe('idle');
    expect(s1.context.error).toEqual({ key: 'register:mobile_invalid' });
    // A number that is no mobile number of the form's country is refused here too, before any slider or
    // send (the server refuses them: a landline and 1234567 were texted before).
    for (const mobileNum of ['1234567', '0281234567', '917123456', '+63 281 234 567', '+849171234567', '+8821234567']) {
      const [s] = transition(smsCountdownMachine, s0, { type: 'SEND', mobileNum, countryDialingCode: '63' });
      expect([mobileNum, s.value, s.context.error]).toEqual([mobileNum, 'idle', { key: 'register:mobile_invalid' }]);
    }
    for (const mobileNum of ['0917 123 4567', '9171234567', '+63 917 123 4567', '(0917) 123-4567', '+84912345678']) {
      const [s] = transition(smsCountdownMachine, s0, { type: 'SEND', mobileNum, countryDialingCode: '63' });
      expect([mobileNum, s.value]).toEqual([mobileNum, 'sending']);
    }
    const [vn] = transition(smsCountdownMachine, s0, { type: 'SEND', mobileNum: '0912345678', countryDialingCode: '84' });
    expect(vn.value).toBe('sending');
  });

  it('sends, then counts expiredMinutes x 60 s', () => {
    const [s0] = initialTransition(smsCountdownMachine);
    const [s1] = transition(smsCountdownMachine, s0, send);
    expect(s1.value).toBe('sending');
    expect(transition(smsCountdownMachine, s1, send)[0].value).toBe('sending');
    const [s2] = transition(smsCountdownMachine, s1, done(5));
    expect(s2.value).toBe('counting');
    expect(s2.context.remaining).toBe(300);
    expect(transition(smsCountdownMachine, s2, send)[0].value).toBe('counting');
  });

  it('keeps the server message of a failed send', () => {
    const [s0] = initialTransition(smsCountdownMachine);
    const [s1] = transition(smsCountdownMachine, transition(smsCountdownMachine, s0, send)[0], failed(new Error('x')));
    expect(s1.value).toBe('throttled');
    expect(s1.context.error).toEqual({ key: 'common:error_INTERNAL' });
  });
});

describe('smsCountdownMachine (clock)', () => {
  it('re-enables the button when the countdown ends and throttles after failures', async () => {
    const clock = new SimulatedClock();
    let calls = 0;
    let fail = true;
    const actor = createActor(
      smsCountdownMachine.provide({
        actors: {
          sendCode: fromPromise(async () => {
            calls += 1;
            if (fail) throw new Error('down');
            return { expiredMinutes: 1 };
          }),
        },
      }),
      { clock },
    ).start();
    actor.send(send);
    await flush();
    expect(actor.getSnapshot().value).toBe('throttled');
    actor.send(send);
    expect(calls).toBe(1);
    clock.increment(999);
    expect(actor.getSnapshot().value).toBe('throttled');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('idle');
    fail = false;
    actor.send(send);
    await flush();
    expect(actor.getSnapshot().matches('counting')).toBe(true);
    expect(actor.getSnapshot().context.remaining).toBe(60);
    advance(clock, 30_000);
    expect(actor.getSnapshot().context.remaining).toBe(30);
    advance(clock, 29_000);
    expect(actor.getSnapshot().value).toBe('counting');
    advance(clock, 1000);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toBe(2);
    actor.stop();
  });
});

describe('smsCountdownMachine (model)', () => {
  it('every transition is reachable', () => {
    const missing = untakenTransitions(smsCountdownMachine, {
      events: () => [
        send,
        { type: 'SEND', mobileNum: 'x', countryDialingCode: '63' },
        { type: 'RESET' },
        done(1),
        failed(new Error('x')),
        { type: 'xstate.after.throttle.smsCountdown.throttled' },
        { type: 'xstate.after.tick.smsCountdown.counting' },
      ],
    });
    expect(missing).toEqual([]);
  });
});
