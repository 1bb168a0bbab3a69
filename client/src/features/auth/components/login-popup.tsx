import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openPopup } from '../../../lib/popups';
import { useModule } from '../../../lib/whitelabel';
import { Modal } from '../../../ui/modal';
import { LoginForm } from './login-form';

type Props = {
  open: boolean;
  onClose: () => void;
  /** Rendered under the form (the app passes social sign-in). */
  extra?: ReactNode;
};

/** loginPopupModal: the login form, free play (FREEPLAY3) and a way to register (DIRECTREG3). */
export function LoginPopup({ open, onClose, extra }: Props) {
  const { t } = useTranslation('auth');
  const canFreePlay = useModule('FREEPLAY3');
  const canRegister = useModule('DIRECTREG3');
  return (
    <Modal name="loginPopupModal" open={open} onClose={onClose} title={t('login_title')} width={420} height={320} className="auth-modal">
      <LoginForm
        onFinish={onClose}
        footer={({ onFreePlay, isBusy }) => (
          <>
            {canFreePlay && (
              <button type="button" className="btn btn--ghost btn--block" onClick={onFreePlay} disabled={isBusy} data-testid="login-free-play">
                {t('free_play')}
              </button>
            )}
            {extra}
            {canRegister && (
              <p className="auth-switch">
                <span className="muted">{t('no_account')}</span>{' '}
                <button type="button" className="link-btn" onClick={() => openPopup('registerModal')} data-testid="login-to-register">
                  {t('register_now')}
                </button>
              </p>
            )}
          </>
        )}
      />
    </Modal>
  );
}
