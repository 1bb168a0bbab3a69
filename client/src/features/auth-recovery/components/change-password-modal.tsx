import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useLoginFlags } from '../../../lib/login-state';
import { closePopup, usePopup } from '../../../lib/popups';
import { ruleOf, useRegisterSettings } from '../../../lib/register-settings';
import { FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { changePassword } from '../api/change-password';
import { landingAfterPasswordChange } from '../lib/after-password-change';
import { PasswordForm } from './password-form';

/**
 * changePassModal: openPopup('changePassModal', { forced }) from the login flow (default or expired
 * password) or the security centre. Forced: no old password (the server skips it) and no way to
 * dismiss the modal until the password is changed. Then an agent goes to /agentHome, anyone else
 * home (landingAfterPasswordChange).
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
  return (
    <Modal name="changePassModal" open={open} onClose={closePopup} showClose={!isForced} title={t('change_title')} width={420} height={300}>
      {isForced && <p className="notice-box form-forced">{t('change_forced')}</p>}
      {settings.data ? (
        <PasswordForm
          key={isForced ? 'forced' : 'normal'}
          passwordRule={ruleOf(settings.data, 'password')}
          askOldPassword={!isForced}
          submit={(v) => changePassword(v.oldPassword, v.newPassword, v.confirmNewPassword)}
          submitLabel={t('change_submit')}
          onDone={() => {
            closePopup();
            navigate(landingAfterPasswordChange({ isForced, isAgent, pathname }));
          }}
        />
      ) : settings.error ? (
        <FormMessage message={errorMessage(settings.error)} />
      ) : (
        <p className="form-notice">{t('loading')}</p>
      )}
    </Modal>
  );
}
