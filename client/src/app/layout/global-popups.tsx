import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';
import { closePopup, openPopup, usePopup } from '../../lib/popups';
import { useMemberInfo } from '../../features/auth/api/get-member-info';
import { useIsLoggedIn } from '../../lib/session';
import { useFirstLoginPending } from '../../features/auth/lib/session-actions';
import { useOidcIdentityCode } from '../../features/social-sign-in/use-oidc-handoff';
import { lazyNamed } from '../lazy-page';

/*
 * Each popup is its own chunk, fetched when it opens (or, for the members' notices, once someone is
 * signed in): a guest's first page carries none of their forms, state machines or texts. The open
 * state lives in lib/popups, so a popup asked for while its chunk loads opens when it arrives.
 */
const LoginPopup = lazyNamed(() => import('../../features/auth/components/login-popup'), 'LoginPopup', null, ['auth', 'social']);
/** A social sign-in waiting for its identity step (the Philippines) shows only that step in the login popup. */
const SocialIdentityPopup = lazyNamed(() => import('../../features/social-sign-in/social-identity-step'), 'SocialIdentityPopup', null, ['social', 'register']);
const SocialSignIn = lazyNamed(() => import('../../features/social-sign-in/social-sign-in'), 'SocialSignIn', null, ['social']);
const RegisterModal = lazyNamed(() => import('../../features/register/components/register-modal'), 'RegisterModal', null, ['register']);
const ForgotPasswordModal = lazyNamed(() => import('../../features/auth-recovery/components/forgot-password-modal'), 'ForgotPasswordModal', null, ['register']);
const ChangePasswordModal = lazyNamed(() => import('../../features/auth-recovery/components/change-password-modal'), 'ChangePasswordModal', null, ['register']);
const ResetPasswordModal = lazyNamed(() => import('../../features/auth-recovery/components/reset-password-modal'), 'ResetPasswordModal', null, ['register']);
const RgLimitsOffer = lazyNamed(() => import('../../features/rg/components/limits-offer'), 'RgLimitsOffer', null, ['rg', 'register']);
const FamilyRequestModal = lazyNamed(() => import('../../features/rg/components/family-request-modal'), 'FamilyRequestModal', null, ['rg', 'register']);
const HelpModal = lazyNamed(() => import('../../features/help/components/help-modal'), 'HelpModal', null);
const PublicModal = lazyNamed(() => import('../../features/home/components/public-modal'), 'PublicModal', null, ['home']);
const FirstLoginPopups = lazyNamed(() => import('../../features/auth/components/first-login-popups'), 'FirstLoginPopups', null);
const ContractOfferHost = lazyNamed(() => import('../../features/agents/contracts/offer-popup'), 'ContractOfferHost', null, ['agents']);
const ContractAnswerNotice = lazyNamed(() => import('../../features/agents/contracts/answer-notice'), 'ContractAnswerNotice', null, ['agents']);
/** Red envelopes float in on every page of a signed-in player (issue 14). */
const EnvelopeHost = lazyNamed(() => import('../../features/red-envelopes/components/envelope-host'), 'EnvelopeHost', null, ['envelopes']);
const PayoutNotice = lazyNamed(() => import('../../features/agents/payouts/payout-notice'), 'PayoutNotice', null, ['agents']);
/** The agent centre (and the member centre panels it composes) loads when an agent opens it. */
/** The live chat room with customer service (the side bar's LIVECHAT entry, spec: chat room). */
const ChatRoom = lazyNamed(() => import('../../features/chat/components/chat-room'), 'ChatRoom', null, ['chat', 'register']);
const AgentCentrePopup = lazyNamed(() => import('../routes/agent-centre-slots'), 'AgentCentrePopup', null, ['agents', 'agent-office', 'wallet', 'register', 'bets']);

/**
 * Popups any page can open through lib/popups (login, register, help), and the members' notices.
 * `isAgentPage`: /agent and /agentHome show the agent page alone (spec), so the announcement popup,
 * which covered the agent login form, is not shown there.
 */
export function GlobalPopups({ isAgentPage = false }: { isAgentPage?: boolean }) {
  const popup = usePopup();
  const isLoggedIn = useIsLoggedIn();
  const [params] = useSearchParams();
  const isFirstLoginPending = useFirstLoginPending();
  const identityCode = useOidcIdentityCode();
  useTranslation('common'); // re-render on language change so the help topics follow it
  const name = popup?.name;
  // A session whose password must change first (a reload, a second tab, a bookmark after such a login):
  // the change-password modal, which cannot be dismissed; the server refuses every other write meanwhile.
  const info = useMemberInfo().data;
  const mustChange = info?.passwordChangeRequired === true && isLoggedIn;
  // The members' notices (a contract offer, an envelope, a payout) wait until the password is changed, and
  // until it is known whether it must be: an offer opened over the forced change, and its Accept could
  // only fail ("change your password first") with no way to the change but to put every offer off.
  const isClear = info !== undefined && !mustChange;
  const isForcedOpen = name === 'changePassModal' && popup?.forced === true;
  useEffect(() => {
    if (mustChange && !isForcedOpen) openPopup('changePassModal', { forced: true });
  }, [mustChange, isForcedOpen]);
  return (
    <>
      {name === 'loginPopupModal' && identityCode && <SocialIdentityPopup code={identityCode} />}
      {name === 'loginPopupModal' && !identityCode && <LoginPopup open onClose={closePopup} extra={<SocialSignIn />} />}
      {name === 'registerModal' && <RegisterModal open onClose={closePopup} afterRegister={(done) => <RgLimitsOffer where="register" onDone={done} />} />}
      {name === 'rgFamilyModal' && <FamilyRequestModal open onClose={closePopup} />}
      {name === 'forgetPassModal' && <ForgotPasswordModal open onClose={closePopup} />}
      {name === 'changePassModal' && <ChangePasswordModal />}
      {params.has('resetToken') && <ResetPasswordModal />}
      {name === 'helpModal' && <HelpModal open onClose={closePopup} lang={currentLanguage()} anchor={popup?.anchor} />}
      {name === 'agentCentre' && <AgentCentrePopup />}
      {name === 'chatRoom' && isLoggedIn && <ChatRoom open onClose={closePopup} />}
      {/* publicModal: after any other popup (and the first login's own) is done. */}
      {!isAgentPage && <PublicModal isLoggedIn={isLoggedIn} blocked={popup !== null || (isLoggedIn && isFirstLoginPending) || params.has('resetToken')} />}
      {isLoggedIn && isClear && (
        <>
          <FirstLoginPopups lang={currentLanguage()} />
          <ContractOfferHost />
          <ContractAnswerNotice />
          <PayoutNotice />
          <EnvelopeHost />
        </>
      )}
    </>
  );
}
