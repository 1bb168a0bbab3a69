import { SignInPlaceholder } from '../../features/auth/components/sign-in-placeholder';
import { HelpModal } from '../../features/help/components/help-modal';
import { currentLanguage } from '../../i18n/i18n';
import { closePopup, usePopup } from '../../lib/popups';
import { useTranslation } from 'react-i18next';

/** Popups any page can open through lib/popups (login, register, help). */
export function GlobalPopups() {
  const popup = usePopup();
  useTranslation('common'); // re-render on language change so the help topics follow it
  return (
    <>
      <SignInPlaceholder kind="login" open={popup?.name === 'loginPopupModal'} onClose={closePopup} />
      <SignInPlaceholder kind="register" open={popup?.name === 'registerModal'} onClose={closePopup} />
      <HelpModal open={popup?.name === 'helpModal'} onClose={closePopup} lang={currentLanguage()} anchor={popup?.anchor} />
    </>
  );
}
