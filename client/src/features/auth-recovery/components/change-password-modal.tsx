import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useLoginFlags } from '../../../lib/login-state';
import { useIsLoggedIn } from '../../../lib/session';
import { closePopup, usePopup } from '../../../lib/popups';
import { ruleOf, useRegisterSettings } from '../../../lib/register-settings';
import { FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { useLogout } from '../../auth/components/use-logout';
import { changePassword } from '../api/change-password';
import { landingAfterPasswordChange } from '../lib/after-password-change';
import { PasswordForm } from './password-form';

/**
 * changePassModal: openPopup('changePassModal', { forced }) from the login flow (default or expired
 * password) or the security centre. Forced: no old password (the server skips it) and no way to
 * dismiss the modal until the password is changed. Then an agent goes to /agentHome, anyone else
 * home (landingAfterPasswordChange). A change the player asked for (the security centre) first says
 * that the password was changed; its OK goes to the same landing.
 */
export function ChangePasswordModal() {
  const { t } = useTranslation('register');
  const popup = usePopup();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The login's flags (the server's agent types), kept up to date from member info.
  const { isAgent } = useLoginFlags();
  const settings = useRegisterSettings();
  const open = popup?.name === 'changePassModal';
  const isForced = open && popup.forced === true;
  const [isDone, setDone] = useState(false);
  // A forced change cannot be dismissed, but the member may still sign out instead (the server allows it).
  const { requestLogout, dialog: logoutDialog } = useLogout(pathname === '/agent' || pathname === '/agentHome' ? '/agent' : '/');
  useEffect(() => {
    if (!open) setDone(false);
  }, [open]);
  // Signed out from the forced change (its Sign out, or another tab): nothing is left to change here.
  const isLogin = useIsLoggedIn();
  useEffect(() => {
    if (open && !isLogin) closePopup();
  }, [open, isLogin]);
  // After a change the player asked for, once it has said so: home, as the spec says ("logged in again,
  // the modal closes, and the user goes to /"); an agent on its own pages goes on to its back office.
  const finish = () => {
    closePopup();
    const to = landingAfterPasswordChange({ isForced, isAgent, pathname });
    if (pathname !== to) navigate(to);
  };
  return (
    <Modal name="changePassModal" open={open} onClose={closePopup} showClose={!isForced} title={t('change_title')} width={420} height={300}>
      {isForced && <p className="notice-box form-forced">{t('change_forced')}</p>}
      {isDone ? (
        <div className="form-done" data-testid="change-password-done">
          <FormMessage message={{ key: 'register:change_done' }} tone="success" />
          <button type="button" className="btn btn--primary btn--block" onClick={finish} data-testid="change-password-done-ok">{t('change_done_ok')}</button>
        </div>
      ) : settings.data ? (
        <PasswordForm
          key={isForced ? 'forced' : 'normal'}
          passwordRule={ruleOf(settings.data, 'password')}
          askOldPassword={!isForced}
          submit={(v) => changePassword(v.oldPassword, v.newPassword, v.confirmNewPassword)}
          submitLabel={t('change_submit')}
          onDone={() => {
            if (!isForced) {
              setDone(true);
              return;
            }
            closePopup();
            navigate(landingAfterPasswordChange({ isForced, isAgent, pathname }));
          }}
        />
      ) : settings.error ? (
        <FormMessage message={errorMessage(settings.error)} />
      ) : (
        <p className="form-notice">{t('loading')}</p>
      )}
      {isForced && !isDone && (
        <button type="button" className="btn btn--ghost btn--block" style={{ marginTop: 8 }} onClick={requestLogout} data-testid="change-password-sign-out">
          {t('auth:sign_out')}
        </button>
      )}
      {logoutDialog}
    </Modal>
  );
}
