import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { ruleOf, useRegisterSettings } from '../../../lib/register-settings';
import { FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { resetByToken } from '../api/reset-by-token';
import { PasswordForm } from './password-form';

/**
 * The e-mailed link /?resetToken=TOKEN opens "set a new password". Success signs the member in; the
 * token leaves the address either way (success or close).
 */
export function ResetPasswordModal() {
  const { t } = useTranslation('register');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const settings = useRegisterSettings();
  const token = params.get('resetToken');
  const leave = () => navigate('/', { replace: true });
  return (
    <Modal name="resetPassModal" open={!!token} onClose={leave} title={t('reset_title')} width={420} height={280}>
      <p className="form-notice">{t('reset_hint')}</p>
      {settings.data && token ? (
        <PasswordForm
          key={token}
          passwordRule={ruleOf(settings.data, 'password')}
          askOldPassword={false}
          submit={(v) => resetByToken(token, v.newPassword, v.confirmNewPassword)}
          submitLabel={t('reset_submit_new')}
          onDone={leave}
        />
      ) : settings.error ? (
        <FormMessage message={errorMessage(settings.error)} />
      ) : null}
    </Modal>
  );
}
