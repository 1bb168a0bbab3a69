import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';

type Props = { kind: 'login' | 'register'; open: boolean; onClose: () => void };

/**
 * Login and register popups until the accounts work lands: a titled, disabled form that says so.
 * It never pretends to sign anybody in.
 */
export function SignInPlaceholder({ kind, open, onClose }: Props) {
  const { t } = useTranslation('common');
  const isLogin = kind === 'login';
  return (
    <Modal name={isLogin ? 'loginPopupModal' : 'registerModal'} open={open} onClose={onClose} title={isLogin ? t('w_login') : t('w_reg')} width={420} height={320}>
      <form className="placeholder-form" onSubmit={(e) => e.preventDefault()} aria-describedby={`${kind}-soon`}>
        <p className="notice-box" id={`${kind}-soon`} role="status">
          {isLogin ? t('signin_coming_soon') : t('register_coming_soon')}
        </p>
        <label className="field">
          <span className="field__label">{t('username')}</span>
          <input className="field__input" name="username" autoComplete="username" disabled />
        </label>
        <label className="field">
          <span className="field__label">{t('password')}</span>
          <input className="field__input" name="password" type="password" autoComplete={isLogin ? 'current-password' : 'new-password'} disabled />
        </label>
        <button type="submit" className="btn btn--primary btn--block" disabled>
          {isLogin ? t('login') : t('register')}
        </button>
      </form>
    </Modal>
  );
}
