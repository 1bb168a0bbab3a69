import { useTranslation } from 'react-i18next';
import { openPopup } from '../../../lib/popups';

/** GCSGAME_gameList needs a session: guests see this instead of a failing list. */
export function LoginPrompt() {
  const { t } = useTranslation('games');
  return (
    <div className="game-centre__prompt" data-testid="game-centre-login-prompt">
      <p>{t('centre.loginPrompt')}</p>
      <button type="button" className="btn btn--primary" onClick={() => openPopup('loginPopupModal')}>{t('centre.login')}</button>
    </div>
  );
}
