import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { ApiError } from '../../../lib/api';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { totpEnrolmentMachine } from './totp-enrolment-machine';

const SETUP = { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qr: 'data:image/png;base64,AA' };
const setupDone = { type: 'xstate.done.actor.setupTotp', output: SETUP } as never;

describe('totpEnrolmentMachine', () => {
  it('sets up, asks six digits, enables', () => {
    const [s0] = initialTransition(totpEnrolmentMachine);
    const [s1] = transition(totpEnrolmentMachine, s0, { type: 'START' });
    expect(s1.value).toBe('settingUp');
    const [s2] = transition(totpEnrolmentMachine, s1, setupDone);
    expect(s2.value).toBe('awaitingCode');
    expect(s2.context.setup).toEqual(SETUP);
    const [short] = transition(totpEnrolmentMachine, transition(totpEnrolmentMachine, s2, { type: 'CODE.CHANGE', value: '12a3' })[0], { type: 'SUBMIT' });
    expect(short.context).toMatchObject({ code: '123', error: { key: 'register:code_invalid' } });
    const [typed] = transition(totpEnrolmentMachine, s2, { type: 'CODE.CHANGE', value: '123 4567' });
    expect(typed.context.code).toBe('123456');
    const [sending] = transition(totpEnrolmentMachine, typed, { type: 'SUBMIT' });
    expect(sending.value).toBe('enabling');
    const [wrong] = transition(totpEnrolmentMachine, sending, { type: 'xstate.error.actor.enableTotp', error: new ApiError('TOTP_INVALID', '') } as never);
    expect(wrong.value).toBe('awaitingCode');
    expect(wrong.context.error).toEqual({ key: 'common:error_TOTP_INVALID' });
    const [done, actions] = transition(totpEnrolmentMachine, sending, { type: 'xstate.done.actor.enableTotp', output: { enabled: true } } as never);
    expect(done.status).toBe('done');
    expect(actions.map((a) => a.type)).toContain('enrolled');
  });

  it('every transition is taken on some path', () => {
    expect(
      untakenTransitions(totpEnrolmentMachine, {
        events: () => [
          { type: 'START' }, { type: 'CODE.CHANGE', value: '123456' }, { type: 'CODE.CHANGE', value: '1' }, { type: 'SUBMIT' }, { type: 'CANCEL' },
          setupDone,
          { type: 'xstate.error.actor.setupTotp', error: new ApiError('UNAUTHORIZED', '') } as never,
          { type: 'xstate.done.actor.enableTotp', output: { enabled: true } } as never,
          { type: 'xstate.error.actor.enableTotp', error: new ApiError('TOTP_INVALID', '') } as never,
        ],
        serialize: (s) => JSON.stringify([s.value, s.context.code]),
      }),
    ).toEqual([]);
  });
});
