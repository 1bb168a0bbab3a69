import { assign, fromPromise, setup } from 'xstate';
import type { TFieldRule, TLoginValue } from '@portal/contracts/api/auth';
import { checkField } from '@portal/contracts/domain/registration';
import { isApiError } from '../../../lib/api';
import { errorMessage, MSG, problemMessage, serverDetailMessage, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { ErrorCode } from '@portal/contracts/api/errors';

export type PasswordValues = { oldPassword: string; newPassword: string; confirmNewPassword: string };
export type SetPasswordInput = {
  /** The merchant's password rule (register settings). */
  passwordRule: TFieldRule;
  /** Change password asks the old one, unless the change is forced by the default password. */
  askOldPassword: boolean;
};

/** Spec section 5, change password: old required (unless skipped), new by the password rule, confirmation equal. */
export function validatePasswords(input: SetPasswordInput, v: PasswordValues): FieldErrors {
  const errors: FieldErrors = {};
  if (input.askOldPassword && v.oldPassword === '') errors.oldPassword = MSG.empty;
  const p = checkField({ ...input.passwordRule, enabled: true, required: true }, v.newPassword);
  if (p) errors.newPassword = problemMessage(p);
  else if (input.askOldPassword && v.oldPassword !== '' && v.newPassword === v.oldPassword) errors.newPassword = MSG.passwordUnchanged;
  if (v.confirmNewPassword === '') errors.confirmNewPassword = MSG.empty;
  else if (v.confirmNewPassword !== v.newPassword) errors.confirmNewPassword = MSG.confirmMismatch;
  return errors;
}

/** A refused password: per field where the server says which. */
export function passwordServerErrors(error: unknown): { fields: FieldErrors; form: FieldMessage | null } {
  if (isApiError(error)) {
    if (error.details.length) {
      const fields: FieldErrors = {};
      for (const d of error.details) fields[d.path] ??= serverDetailMessage(d.message);
      return { fields, form: null };
    }
    if (error.code === ErrorCode.OLD_PASSWORD_WRONG) return { fields: { oldPassword: errorMessage(error) }, form: null };
    if (error.code === ErrorCode.PASSWORD_MISMATCH) return { fields: { confirmNewPassword: MSG.confirmMismatch }, form: null };
    if (error.code === ErrorCode.PASSWORD_RULE) return { fields: { newPassword: errorMessage(error) }, form: null };
    if (error.code === ErrorCode.SMS_CODE_INVALID || error.code === ErrorCode.SMS_CODE_EXPIRED || error.code === ErrorCode.SMS_CODE_MISSING) {
      return { fields: { verificationCode: errorMessage(error) }, form: null };
    }
  }
  return { fields: {}, form: errorMessage(error) };
}

/**
 * A new password, then a new session: the change-password modal (POST /wps/member/password) and the
 * e-mailed reset link (POST /wps/member/password/reset) both answer a login value. I/O: `submitPassword`.
 */
export const setPasswordMachine = setup({
  types: {
    context: {} as SetPasswordInput & { values: PasswordValues; errors: FieldErrors; formError: FieldMessage | null; login: TLoginValue | null },
    events: {} as { type: 'FIELD.CHANGE'; field: keyof PasswordValues; value: string } | { type: 'SUBMIT' },
    input: {} as SetPasswordInput,
  },
  actors: {
    submitPassword: fromPromise<TLoginValue, PasswordValues>(async () => {
      throw new Error('submitPassword is provided by the modal');
    }),
  },
  guards: {
    isFormInvalid: ({ context }) => Object.keys(validatePasswords(context, context.values)).length > 0,
  },
  actions: {
    /** Saves the new session token; provided by the modal. */
    storeSession: () => {},
  },
}).createMachine({
  id: 'setPassword',
  context: ({ input }) => ({
    ...input,
    values: { oldPassword: '', newPassword: '', confirmNewPassword: '' },
    errors: {},
    formError: null,
    login: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'FIELD.CHANGE': {
          actions: assign({
            values: ({ context, event }) => ({ ...context.values, [event.field]: event.value }),
            errors: ({ context, event }) => ({ ...context.errors, [event.field]: undefined }),
          }),
        },
        SUBMIT: [
          { guard: 'isFormInvalid', actions: assign({ errors: ({ context }) => validatePasswords(context, context.values), formError: () => null }) },
          { target: 'submitting', actions: assign({ errors: () => ({}), formError: () => null }) },
        ],
      },
    },
    submitting: {
      invoke: {
        id: 'submitPassword',
        src: 'submitPassword',
        input: ({ context }) => ({ ...context.values, oldPassword: context.askOldPassword ? context.values.oldPassword : '' }),
        onDone: { target: 'done', actions: [assign({ login: ({ event }) => event.output }), 'storeSession'] },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const { fields, form } = passwordServerErrors(event.error);
            return { errors: fields, formError: form };
          }),
        },
      },
    },
    done: { type: 'final' },
  },
});
