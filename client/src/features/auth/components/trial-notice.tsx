import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { TrialRegisterButton } from './trial-register-button';

/** in_need_true_account: a trial user is told to register (info icon, a Register button and a confirm button). */
export function TrialNotice({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth');
  return (
    <Modal name="trialNotice" open={open} onClose={onClose} width={340} height={160} showClose={false}>
      <div className="auth-dialog" role="alertdialog" aria-labelledby="trial-notice-text" data-testid="trial-notice">
        <span className="auth-dialog__icon" aria-hidden="true">
          i
        </span>
        <p id="trial-notice-text">{t('common:error_TRIAL_FORBIDDEN')}</p>
        <TrialRegisterButton onClick={onClose} />
        <button type="button" className="btn btn--ghost btn--block" onClick={onClose} data-testid="trial-notice-ok">
          {t('confirm')}
        </button>
      </div>
    </Modal>
  );
}
