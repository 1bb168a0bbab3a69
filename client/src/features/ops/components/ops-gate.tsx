import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useChangeOpsPassword } from '../api/change-password';
import { useOpsSession } from '../api/get-session';
import { useOpsLogin } from '../api/login';
import { useOpsLogout } from '../api/logout';
import { useTotpConfirm, useTotpSetup } from '../api/totp';
import { opsCan, type OpsAction } from '@portal/contracts/api/ops';
import { ApiError } from '../../../lib/api';
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
  if (!session.data.totpEnrolled) return <OpsTotpEnrolCard />;
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
  const [code, setCode] = useState('');
  // The code field appears once the gateway asks for it (an enrolled operator).
  const isCodeAsked = login.error instanceof ApiError && (login.error.code === 'TOTP_REQUIRED' || login.error.code === 'TOTP_INVALID') || code !== '';
  const canSubmit = username.trim() !== '' && password !== '' && !login.isPending;
  return (
    <OpsCard title={t('login_title')}>
      <form
        className="ops-door__form"
        data-testid="ops-login-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!canSubmit) return;
          login.mutate({ username: username.trim(), password, ...(code.trim() ? { totp: code.trim() } : {}) });
        }}
      >
        <OpsField label={t('field_username')} value={username} onChange={setUsername} testId="ops-login-username" autoComplete="username" required maxLength={32} />
        <OpsField label={t('field_password')} value={password} onChange={setPassword} testId="ops-login-password" type="password" autoComplete="current-password" required maxLength={128} />
        {isCodeAsked && (
          <OpsField label={t('field_totp')} value={code} onChange={setCode} testId="ops-login-totp" autoComplete="one-time-code" inputMode="numeric" maxLength={6} hint={t('totp_login_hint')} />
        )}
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

/**
 * Second factor enrolment, after the first password change: a secret (QR code, and as text for
 * typing in), then a code from the app proves it was added. Each later sign-in asks for a code.
 */
function OpsTotpEnrolCard() {
  const { t } = useTranslation('ops');
  const setup = useTotpSetup();
  const confirm = useTotpConfirm();
  const [code, setCode] = useState('');
  return (
    <OpsCard title={t('totp_title')}>
      <p className="ops-muted">{t('totp_intro')}</p>
      {!setup.data ? (
        <button type="button" className="ops-btn ops-btn--primary ops-btn--block" disabled={setup.isPending} onClick={() => setup.mutate()} data-testid="ops-totp-start">
          {setup.isPending ? t('working') : t('totp_start')}
        </button>
      ) : (
        <form
          className="ops-door__form"
          data-testid="ops-totp-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (/^\d{6}$/.test(code.trim()) && !confirm.isPending) confirm.mutate(code.trim());
          }}
        >
          <img className="ops-totp__qr" src={setup.data.qr} alt={t('totp_qr_alt')} width={200} height={200} data-testid="ops-totp-qr" />
          <p className="ops-muted">{t('totp_secret_label')}</p>
          <code className="ops-totp__secret" data-testid="ops-totp-secret">{setup.data.secret}</code>
          <OpsField label={t('field_totp')} value={code} onChange={setCode} testId="ops-totp-code" autoComplete="one-time-code" inputMode="numeric" maxLength={6} required />
          <ErrorNote error={confirm.error} testId="ops-totp-error" />
          <button type="submit" className="ops-btn ops-btn--primary ops-btn--block" disabled={confirm.isPending || !/^\d{6}$/.test(code.trim())} data-testid="ops-totp-submit">
            {confirm.isPending ? t('working') : t('totp_confirm')}
          </button>
        </form>
      )}
      <ErrorNote error={setup.error} testId="ops-totp-setup-error" />
      <SignOutButton testId="ops-totp-signout" />
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

/** Who is signed in: name and roles. */
export function OperatorBadge() {
  const { t } = useTranslation('ops');
  const { data } = useOpsSession();
  if (!data) return null;
  return (
    <span className="ops-operator" data-testid="ops-operator">
      <span className="ops-operator__name">{data.username}</span>
      {data.roles.map((role) => (
        <span key={role} className={`ops-chip ops-chip--${role === 'administrator' ? 'info' : 'muted'}`} data-testid="ops-operator-role">
          {t(`role_${role}`)}
        </span>
      ))}
    </span>
  );
}

/** Whether the signed-in operator may do `action` (the gateway's permission table); false before the session answer. */
export function useOpsCan(action: OpsAction): boolean {
  const roles = useOpsSession().data?.roles;
  return roles ? opsCan(roles, action) : false;
}
