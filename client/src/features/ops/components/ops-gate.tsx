import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useChangeOpsPassword } from '../api/change-password';
import { useOpsSession } from '../api/get-session';
import { useOpsLogin } from '../api/login';
import { useOpsLogout } from '../api/logout';
import { ErrorNote, OpsField } from './ops-ui';

/** The rule the gateway enforces on a new operator password. */
const NEW_PASSWORD_MIN = 10;

/**
 * The /ops area's door: the login form without an operator token, the forced password change
 * while the gateway asks for one, and the page itself afterwards.
 */
export function OpsGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ops');
  const session = useOpsSession();
  if (!session.token) return <OpsLoginCard />;
  if (session.isPending) return <div className="page-spinner" aria-label={t('loading')} />;
  if (session.isError) {
    return (
      <OpsCard title={t('login_title')}>
        <ErrorNote error={session.error} />
        <SignOutButton testId="ops-gate-signout" />
      </OpsCard>
    );
  }
  if (session.data.mustChangePassword) return <OpsPasswordCard />;
  return <>{children}</>;
}

function OpsCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('ops');
  return (
    <main className="ops-door">
      <section className="ops-door__card">
        <p className="ops-door__kicker">{t('area_name')}</p>
        <h1 className="ops-door__title">{title}</h1>
        {children}
      </section>
    </main>
  );
}

function OpsLoginCard() {
  const { t } = useTranslation('ops');
  const login = useOpsLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const canSubmit = username.trim() !== '' && password !== '' && !login.isPending;
  return (
    <OpsCard title={t('login_title')}>
      <form
        className="ops-door__form"
        data-testid="ops-login-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!canSubmit) return;
          login.mutate({ username: username.trim(), password });
        }}
      >
        <OpsField label={t('field_username')} value={username} onChange={setUsername} testId="ops-login-username" autoComplete="username" required maxLength={32} />
        <OpsField label={t('field_password')} value={password} onChange={setPassword} testId="ops-login-password" type="password" autoComplete="current-password" required maxLength={128} />
        <ErrorNote error={login.error} testId="ops-login-error" />
        <button type="submit" className="ops-btn ops-btn--primary ops-btn--block" disabled={!canSubmit} data-testid="ops-login-submit">
          {login.isPending ? t('working') : t('login_submit')}
        </button>
      </form>
    </OpsCard>
  );
}

function OpsPasswordCard() {
  const { t } = useTranslation('ops');
  const change = useChangeOpsPassword();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [isTried, setTried] = useState(false);
  const isLongEnough = newPassword.length >= NEW_PASSWORD_MIN;
  const isLettersAndDigits = /[A-Za-z]/.test(newPassword) && /\d/.test(newPassword);
  const isSame = newPassword === confirm;
  const isValid = oldPassword !== '' && isLongEnough && isLettersAndDigits && isSame;
  return (
    <OpsCard title={t('password_title')}>
      <p className="ops-muted">{t('password_intro')}</p>
      <form
        className="ops-door__form"
        data-testid="ops-password-form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (isValid && !change.isPending) change.mutate({ oldPassword, newPassword, confirmNewPassword: confirm });
        }}
        noValidate
      >
        <OpsField label={t('field_old_password')} value={oldPassword} onChange={setOld} testId="ops-password-old" type="password" autoComplete="current-password" required invalid={isTried && oldPassword === ''} />
        <OpsField
          label={t('field_new_password')}
          value={newPassword}
          onChange={setNew}
          testId="ops-password-new"
          type="password"
          autoComplete="new-password"
          required
          invalid={isTried && !(isLongEnough && isLettersAndDigits)}
          hint={t('password_rule', { min: NEW_PASSWORD_MIN })}
        />
        <OpsField
          label={t('field_confirm_password')}
          value={confirm}
          onChange={setConfirm}
          testId="ops-password-confirm"
          type="password"
          autoComplete="new-password"
          required
          invalid={isTried && !isSame}
          hint={isTried && !isSame ? t('password_mismatch') : undefined}
        />
        <ErrorNote error={change.error} testId="ops-password-error" />
        <button type="submit" className="ops-btn ops-btn--primary ops-btn--block" disabled={change.isPending} data-testid="ops-password-submit">
          {change.isPending ? t('working') : t('password_submit')}
        </button>
      </form>
      <SignOutButton testId="ops-password-signout" />
    </OpsCard>
  );
}

/** DELETE /ops/api/session and back to the login form. */
export function SignOutButton({ testId = 'ops-signout' }: { testId?: string }) {
  const { t } = useTranslation('ops');
  const logout = useOpsLogout();
  return (
    <button type="button" className="ops-btn ops-btn--ghost" disabled={logout.isPending} onClick={() => logout.mutate()} data-testid={testId}>
      {t('sign_out')}
    </button>
  );
}

/** Who is signed in: name and role. */
export function OperatorBadge() {
  const { t } = useTranslation('ops');
  const { data } = useOpsSession();
  if (!data) return null;
  return (
    <span className="ops-operator" data-testid="ops-operator">
      <span className="ops-operator__name">{data.username}</span>
      <span className={`ops-chip ops-chip--${data.role === 'admin' ? 'info' : 'muted'}`} data-testid="ops-operator-role">
        {t(`role_${data.role}`)}
      </span>
    </span>
  );
}

/** The signed-in operator's role, or null before the session answer. */
export function useOpsRole() {
  return useOpsSession().data?.role ?? null;
}
