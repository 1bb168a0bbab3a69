import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition } from 'xstate';
import type { TFieldRule } from '@portal/contracts/api/auth';
import { ApiError } from '../../../lib/api';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { setPasswordMachine, validatePasswords } from './set-password-machine';

const PASSWORD_RULE: TFieldRule = {
  field: 'password', enabled: true, required: true, patternId: 5, type: 'password', acceptedPattern: '^(?=.*[A-Za-z])(?=.*\\d)[A-Za-z0-9]+$', minLength: 6, maxLength: 20,
};
const LOGIN = { token: 'new', firstTimeLogin: false, passwordExpired: false, defaultPassword: false, isAgent: false, isTrial: false };
const change = (field: 'oldPassword' | 'newPassword' | 'confirmNewPassword', value: string) => ({ type: 'FIELD.CHANGE', field, value }) as const;

describe('validatePasswords', () => {
  it('asks the old password unless forced, the rule for the new one and an equal confirmation', () => {
    expect(validatePasswords({ passwordRule: PASSWORD_RULE, askOldPassword: true }, { oldPassword: '', newPassword: 'short', confirmNewPassword: 'x' })).toEqual({
      oldPassword: { key: 'register:input_empty' },
      newPassword: { key: 'register:reg_pattern_5', values: { min: 6, max: 20, range: '6-20' } },
      confirmNewPassword: { key: 'register:confirm_mismatch' },
    });
    expect(validatePasswords({ passwordRule: PASSWORD_RULE, askOldPassword: false }, { oldPassword: '', newPassword: 'abc123', confirmNewPassword: 'abc123' })).toEqual({});
    // The same password again is no change (the server answers PASSWORD_UNCHANGED).
    expect(validatePasswords({ passwordRule: PASSWORD_RULE, askOldPassword: true }, { oldPassword: 'abc123', newPassword: 'abc123', confirmNewPassword: 'abc123' }))
      .toEqual({ newPassword: { key: 'common:error_PASSWORD_UNCHANGED' } });
  });
});

describe('setPasswordMachine', () => {
  const input = { passwordRule: PASSWORD_RULE, askOldPassword: true };
  const filled = () => {
    let [s] = initialTransition(setPasswordMachine, input);
    for (const e of [change('oldPassword', 'old111'), change('newPassword', 'new222a'), change('confirmNewPassword', 'new222a')]) [s] = transition(setPasswordMachine, s, e);
    return s;
  };

  it('stays on an invalid submit, submits a valid one and stores the new session', () => {
    const [s0] = initialTransition(setPasswordMachine, input);
    const [bad] = transition(setPasswordMachine, s0, { type: 'SUBMIT' });
    expect(bad.value).toBe('editing');
    expect(Object.keys(bad.context.errors)).toEqual(['oldPassword', 'newPassword', 'confirmNewPassword']);
    const [sending] = transition(setPasswordMachine, filled(), { type: 'SUBMIT' });
    expect(sending.value).toBe('submitting');
    const [done, actions] = transition(setPasswordMachine, sending, { type: 'xstate.done.actor.submitPassword', output: LOGIN } as never);
    expect(done.status).toBe('done');
    expect(actions.map((a) => a.type)).toContain('storeSession');
  });

  it('shows a wrong old password at its field', () => {
    const [sending] = transition(setPasswordMachine, filled(), { type: 'SUBMIT' });
    const [back] = transition(setPasswordMachine, sending, { type: 'xstate.error.actor.submitPassword', error: new ApiError('OLD_PASSWORD_WRONG', '') } as never);
    expect(back.value).toBe('editing');
    expect(back.context.errors.oldPassword).toEqual({ key: 'common:error_OLD_PASSWORD_WRONG' });
  });

  it('sends no old password when the change is forced', async () => {
    const seen: unknown[] = [];
    const actor = createActor(setPasswordMachine.provide({ actors: { submitPassword: fromPromise(async ({ input: v }) => (seen.push(v), LOGIN)) } }), {
      input: { passwordRule: PASSWORD_RULE, askOldPassword: false },
    }).start();
    actor.send(change('oldPassword', 'typed'));
    actor.send(change('newPassword', 'abc123'));
    actor.send(change('confirmNewPassword', 'abc123'));
    actor.send({ type: 'SUBMIT' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().status).toBe('done');
    expect(seen).toEqual([{ oldPassword: '', newPassword: 'abc123', confirmNewPassword: 'abc123' }]);
  });

  it('every transition is taken on some path', () => {
    expect(
      untakenTransitions(setPasswordMachine, {
        input,
        events: () => [
          change('oldPassword', 'old111'), change('newPassword', 'new222a'), change('confirmNewPassword', 'new222a'), { type: 'SUBMIT' },
          { type: 'xstate.done.actor.submitPassword', output: LOGIN } as never,
          { type: 'xstate.error.actor.submitPassword', error: new ApiError('PASSWORD_RULE', '') } as never,
        ],
        serialize: (s) => JSON.stringify([s.value, s.context.values]),
      }),
    ).toEqual([]);
  });
});
