import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, SimulatedClock, transition } from 'xstate';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { captchaMachine } from './captcha-machine';

const loaded = (n: number) => ({ type: 'xstate.done.actor.loadCaptcha', output: { captchaKey: `k${n}`, image: `img${n}` } }) as never;

describe('captchaMachine', () => {
  it('loads, then ignores clicks within a second; a forced reload is immediate', () => {
    const [s0] = initialTransition(captchaMachine);
    expect(s0.value).toBe('loading');
    const [s1] = transition(captchaMachine, s0, loaded(1));
    expect(s1.value).toEqual({ ready: 'cooling' });
    expect(s1.context.captchaKey).toBe('k1');
    expect(transition(captchaMachine, s1, { type: 'REFRESH' })[0].value).toEqual({ ready: 'cooling' });
    expect(transition(captchaMachine, s1, { type: 'RELOAD' })[0].value).toBe('loading');
    const [failed] = transition(captchaMachine, s0, { type: 'xstate.error.actor.loadCaptcha', error: new Error('x') } as never);
    expect(failed.value).toBe('failed');
    expect(failed.context.error).toEqual({ key: 'common:error_INTERNAL' });
  });

  it('refreshes at most once per second (clock)', async () => {
    const clock = new SimulatedClock();
    let n = 0;
    const actor = createActor(captchaMachine.provide({ actors: { loadCaptcha: fromPromise(async () => ({ captchaKey: `k${++n}`, image: 'i' })) } }), { clock }).start();
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'REFRESH' });
    await new Promise((r) => setTimeout(r, 0));
    expect(n).toBe(1);
    clock.increment(1000);
    actor.send({ type: 'REFRESH' });
    await new Promise((r) => setTimeout(r, 0));
    expect(n).toBe(2);
    expect(actor.getSnapshot().context.captchaKey).toBe('k2');
    actor.stop();
  });

  it('every transition is taken on some path', () => {
    expect(
      untakenTransitions(captchaMachine, {
        events: () => [
          { type: 'REFRESH' },
          { type: 'RELOAD' },
          loaded(1),
          { type: 'xstate.error.actor.loadCaptcha', error: new Error('x') } as never,
          { type: 'xstate.after.throttle.captcha.ready.cooling' } as never,
        ],
        serialize: (s) => JSON.stringify(s.value),
      }),
    ).toEqual([]);
  });
});
