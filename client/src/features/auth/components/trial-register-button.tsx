import { useTranslation } from 'react-i18next';
import { openPopup } from '../../../lib/popups';
import { useModule } from '../../../lib/whitelabel';

/**
 * What a trial user is told to do ("register an account first") as a button: opens the
 * registration popup (DIRECTREG3); the new account's session replaces the trial one.
 */
export function TrialRegisterButton({ className = 'btn btn--primary btn--block', onClick, testId = 'trial-register' }: { className?: string; onClick?: () => void; testId?: string }) {
  const { t } = useTranslation('common');
  const canRegister = useModule('DIRECTREG3');
  if (!canRegister) return null;
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        onClick?.();
        openPopup('registerModal');
      }}
      data-testid={testId}
    >
      {t('register')}
    </button>
  );
}
