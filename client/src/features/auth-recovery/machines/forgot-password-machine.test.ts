import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { TFieldRule } from '@portal/contracts/api/auth';
import { PATTERNS } from '@portal/contracts/domain/patterns';
import { ApiError } from '../../../lib/api';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { forgotPasswordMachine, type ForgotInput, type ForgotValues } from './forgot-password-machine';

const rule = (field: TFieldRule['field'], patternId: number, min?: number, max?: number): TFieldRule => {
  const p = PATTERNS[patternId]!;
  return { field, enabled: true, required: true, patternId, type: 'text', acceptedPattern: p.pattern, minLength: min ?? p.min, maxLength: max ?? p.max };
};
const INPUT: ForgotInput = {
  defaultTab: 'email', usernameRule: rule('username', 1, 6, 16), emailRule: rule('email', 3), mobileRule: rule('mobileNum', 18), passwordRule: rule('password', 5, 6, 20),
};
const LOGIN = { token: 'new', firstTimeLogin: false, passwordExpired: false, defaultPassword: false, isAgent: false, isTrial: false };
const change = (field: keyof ForgotValues, value: string) => ({ type: 'FIELD.CHANGE', field, value }) as const;
const run = (events: Parameters<typeof transition<typeof forgotPasswordMachine>>[2][], input = INPUT) => {
  let [s] = initialTransition(forgotPasswordMachine, input);
  for (const e of events) [s] = transition(forgotPasswordMachine, s, e);
  return s;
};

describe('forgotPasswordMachine', () => {
  it('opens on the tab of CHNGPASSVERIF3', () => {
    expect(run([]).context.tab).toBe('email');
    expect(run([], { ...INPUT, defaultTab: 'mobile' }).context.tab).toBe('mobile');
  });

  it('e-mail: validates username and e-mail, sends, then shows in_been_out', () => {
    const bad = run([change('username', 'ab'), { type: 'SUBMIT' }]);
    expect(bad.value).toBe('editing');
    expect(bad.context.errors.username?.key).toBe('register:reg_pattern_1');
    expect(bad.context.errors.email).toEqual({ key: 'register:input_empty' });
    const sending = run([change('username', 'player01'), change('email', 'p@example.ph'), { type: 'SUBMIT' }]);
    expect(sending.value).toBe('sendingEmail');
    const [sent] = transition(forgotPasswordMachine, sending, { type: 'xstate.done.actor.sendResetEmail', output: {} } as never);
    expect(sent.value).toBe('emailSent');
    const [refused] = transition(forgotPasswordMachine, sending, { type: 'xstate.error.actor.sendResetEmail', error: new ApiError('USER_NOT_FOUND', '') } as never);
    expect(refused.context.formError).toEqual({ key: 'common:error_USER_NOT_FOUND' });
  });

  it('mobile: number, 6-digit code and new password; success signs in', () => {
    const bad = run([{ type: 'TAB.SET', tab: 'mobile' }, change('mobileNum', '12'), change('verificationCode', '12'), { type: 'SUBMIT' }]);
    expect(Object.keys(bad.context.errors).sort()).toEqual(['confirmNewPassword', 'mobileNum', 'newPassword', 'verificationCode']);
    expect(bad.context.errors.verificationCode).toEqual({ key: 'register:code_invalid' });
    const sending = run([
      { type: 'TAB.SET', tab: 'mobile' }, change('mobileNum', '9171234567'), change('verificationCode', '123456'),
      change('newPassword', 'abc123'), change('confirmNewPassword', 'abc123'), { type: 'SUBMIT' },
    ]);
    expect(sending.value).toBe('resetting');
    const [done, actions] = transition(forgotPasswordMachine, sending, { type: 'xstate.done.actor.resetByMobile', output: LOGIN } as never);
    expect(done.status).toBe('done');
    expect(actions.map((a) => a.type)).toContain('storeSession');
    const [wrong] = transition(forgotPasswordMachine, sending, { type: 'xstate.error.actor.resetByMobile', error: new ApiError('SMS_CODE_INVALID', '') } as never);
    expect(wrong.context.errors.verificationCode).toEqual({ key: 'common:error_SMS_CODE_INVALID' });
  });

  it('every transition is taken on some path', () => {
    expect(
      untakenTransitions(forgotPasswordMachine, {
        input: INPUT,
        events: () => [
          { type: 'TAB.SET', tab: 'email' }, { type: 'TAB.SET', tab: 'mobile' },
          change('username', 'player01'), change('email', 'p@example.ph'), change('mobileNum', '9171234567'), change('verificationCode', '123456'),
          change('newPassword', 'abc123'), change('confirmNewPassword', 'abc123'), { type: 'SUBMIT' }, { type: 'BACK' },
          { type: 'xstate.done.actor.sendResetEmail', output: {} } as never,
          { type: 'xstate.error.actor.sendResetEmail', error: new ApiError('USER_NOT_FOUND', '') } as never,
          { type: 'xstate.done.actor.resetByMobile', output: LOGIN } as never,
          { type: 'xstate.error.actor.resetByMobile', error: new ApiError('SMS_CODE_INVALID', '') } as never,
        ],
        serialize: (s) => JSON.stringify([s.value, s.context.tab, s.context.values]),
      }),
    ).toEqual([]);
  });

  it("the mobile tab's dialing code starts as the merchant's own (+84 on LuckyDong), +63 without one", () => {
    expect(run([]).context.values.countryDialingCode).toBe('63');
    expect(run([], { ...INPUT, dialingCode: '84' }).context.values.countryDialingCode).toBe('84');
  });
});
