import { useEffect, useRef } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { TFieldRule, TLoginValue } from '@portal/contracts/api/auth';
import { setSessionToken } from '../../../lib/session';
import { FormField, FormMessage } from '../../../ui/form-field';
import { setPasswordMachine, type PasswordValues } from '../machines/set-password-machine';

type Props = {
  passwordRule: TFieldRule;
  askOldPassword: boolean;
  submit: (values: PasswordValues) => Promise<TLoginValue>;
  submitLabel: string;
  /** After the new session is stored. */
  onDone: () => void;
};

/** New password + confirmation (and the old one when asked); the answer is a new session. */
export function PasswordForm({ passwordRule, askOldPassword, submit, submitLabel, onDone }: Props) {
  const { t } = useTranslation('register');
  const [state, send] = useMachine(
    setPasswordMachine.provide({
      actors: { submitPassword: fromPromise(({ input }) => submit(input)) },
      actions: { storeSession: ({ context }) => context.login && setSessionToken(context.login.token) },
    }),
    { input: { passwordRule, askOldPassword } },
  );
  const { values, errors, formError } = state.context;
  const isDone = state.status === 'done';
  const finished = useRef(false);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  useEffect(() => {
    if (!isDone || finished.current) return;
    finished.current = true;
    onDoneRef.current();
  }, [isDone]);
  const isBusy = state.matches('submitting') || isDone;
  const field = (name: keyof PasswordValues, autoComplete: string) => (
    <FormField
      name={name}
      label={t(`field_${name}`)}
      required
      type="password"
      value={values[name]}
      onChange={(value) => send({ type: 'FIELD.CHANGE', field: name, value })}
      error={errors[name]}
      autoComplete={autoComplete}
      maxLength={name === 'oldPassword' ? 128 : passwordRule.maxLength || undefined}
    />
  );
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'SUBMIT' });
      }}
    >
      {askOldPassword && field('oldPassword', 'current-password')}
      {field('newPassword', 'new-password')}
      {field('confirmNewPassword', 'new-password')}
      <FormMessage message={formError} />
      <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={isBusy} aria-busy={isBusy}>
        {isBusy ? t('please_wait') : submitLabel}
      </button>
    </form>
  );
}
