import { ContractAnswerNotice } from '../../features/agents/contracts/answer-notice';
import { ContractOfferHost } from '../../features/agents/contracts/offer-popup';
import { PayoutNotice } from '../../features/agents/payouts/payout-notice';
import { FirstLoginPopups } from '../../features/auth/components/first-login-popups';
import { LoginPopup } from '../../features/auth/components/login-popup';
import { SocialSignIn } from '../../features/social-sign-in/social-sign-in';
import { ChangePasswordModal } from '../../features/auth-recovery/components/change-password-modal';
import { ForgotPasswordModal } from '../../features/auth-recovery/components/forgot-password-modal';
import { ResetPasswordModal } from '../../features/auth-recovery/components/reset-password-modal';
import { HelpModal } from '../../features/help/components/help-modal';
import { RegisterModal } from '../../features/register/components/register-modal';
import { currentLanguage } from '../../i18n/i18n';
import { closePopup, usePopup } from '../../lib/popups';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../lazy-page';

/** The agent centre (and the member centre panels it composes) loads when an agent opens it. */
const AgentCentrePopup = lazyNamed(() => import('../routes/agent-centre-slots'), 'AgentCentrePopup', null);

/** Popups any page can open through lib/popups (login, register, help). */
export function GlobalPopups() {
  const popup = usePopup();
  useTranslation('common'); // re-render on language change so the help topics follow it
  return (
    <>
      <LoginPopup open={popup?.name === 'loginPopupModal'} onClose={closePopup} extra={<SocialSignIn />} />
      <RegisterModal open={popup?.name === 'registerModal'} onClose={closePopup} />
      <ForgotPasswordModal open={popup?.name === 'forgetPassModal'} onClose={closePopup} />
      <ChangePasswordModal />
      <ResetPasswordModal />
      <HelpModal open={popup?.name === 'helpModal'} onClose={closePopup} lang={currentLanguage()} anchor={popup?.anchor} />
      <FirstLoginPopups lang={currentLanguage()} />
      <ContractOfferHost />
      <ContractAnswerNotice />
      <PayoutNotice />
      {popup?.name === 'agentCentre' && <AgentCentrePopup />}
    </>
  );
}
