import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { useLogout } from '../../features/auth/components/use-logout';
import { useUnreadCount } from '../../features/messages/api/get-unread-count';
import { TrialRegisterButton } from '../../features/auth/components/trial-register-button';
import { HeaderBalance } from '../../features/wallet/components/header-balance';
import { RealityCheck } from '../../features/rg/components/reality-check';
import { WithdrawalNotice } from '../../features/withdraw/components/withdrawal-notice';
import { useModule } from '../../lib/whitelabel';
import { openPopup } from '../../lib/popups';
import { Icon } from '../../ui/icons';
import '../../features/auth/components/auth.css';
import { useUniqueId } from '../../lib/unique-id';
import { useDismiss } from '../../lib/use-dismiss';

/** Member-centre items the header links to (spec: member centre item names). */
const MEMBER_TAB = {
  deposit: '/member?tab=depositv2',
  withdraw: '/member?tab=withdraw',
  accountRecord: '/member?tab=transactionHistory',
  bettingRecord: '/member?tab=personalHistoryCopy',
  messages: '/member?tab=messageV2',
} as const;

/**
 * Logged-in part of the header: the balance slot (wallet work), the user menu (Member, Agent for
 * agents, Withdrawal, Account record with TRANSREC3, Betting record with TRANSBETREPMEM3, Points Mall, Sign out)
 * and the Deposit button.
 */
export function AccountSlot() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const { member, isAgent, isTrial, isMemberLoading } = useAuth();
  const location = useLocation();
  // Trial users have no wallet and skip unread fetching (spec section 6).
  const isReal = !isTrial && !isMemberLoading;
  const unread = useUnreadCount(isReal).data?.count ?? 0;
  const isOnWithdraw = location.pathname.toLowerCase() === '/member' && new URLSearchParams(location.search).get('tab') === 'withdraw';
  const hasAccountRecord = useModule('TRANSREC3');
  const hasBettingRecord = useModule('TRANSBETREPMEM3');
  const { requestLogout, logoutNow, dialog } = useLogout('/');
  const [isOpen, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useUniqueId('account-menu');
  // A trial has no name of its own (the server calls it "Guest"): said in the page's language.
  const name = member ? (isTrial ? t('trial_guest') : member.nickname ?? member.account) : '';

  useDismiss(rootRef, isOpen, () => setOpen(false));

  const go = (to: string) => {
    setOpen(false);
    // Spec: the user menu's Agent entry opens the agent centre popup (its back office is /agentHome).
    if (to === '/agentHome') openPopup('agentCentre');
    else navigate(to);
  };
  // A trial (free play) account has no member centre, wallet or records: its menu is sign out only.
  const items: Array<{ key: string; label: string; to: string; badge?: number } | null> = isTrial ? [] : [
    { key: 'member', label: t('menu_member'), to: '/member' },
    // The button's unread count leads here (the menu had no messages entry: the count pointed nowhere).
    { key: 'messages', label: t('menu_messages'), to: MEMBER_TAB.messages, badge: unread },
    isAgent ? { key: 'agent', label: t('menu_agent'), to: '/agentHome' } : null,
    { key: 'withdraw', label: t('menu_withdraw'), to: MEMBER_TAB.withdraw },
    hasAccountRecord ? { key: 'accountRecord', label: t('menu_account_record'), to: MEMBER_TAB.accountRecord } : null,
    hasBettingRecord ? { key: 'bettingRecord', label: t('menu_betting_record'), to: MEMBER_TAB.bettingRecord } : null,
    // The points mall is in no navigation of the spec: without this (and the footer's link) no page led to it.
    { key: 'pointMall', label: t('common:w_shop'), to: '/pointMall' },
  ];

  return (
    <div className="account-slot" data-slot="account">
      <div data-slot="balance">{isReal && <HeaderBalance />}</div>
      <div className="account-menu" ref={rootRef}>
        <button
          type="button"
          className="btn btn--ghost btn--sm account-menu__button"
          aria-haspopup="menu"
          aria-expanded={isOpen}
          aria-controls={menuId}
          onClick={() => setOpen((o) => !o)}
          // On a phone the name and the count are hidden or bare: the button says what it is.
          aria-label={[t('my_account'), name, unread > 0 ? t('wallet:unread_messages', { count: unread }) : ''].filter(Boolean).join(', ')}
          data-testid="account-menu-button"
        >
          {member?.imgUrl ? <img className="account-menu__avatar" src={member.imgUrl} alt="" width={22} height={22} data-testid="account-avatar" /> : <Icon name="user" size={16} />}
          {unread > 0 && <span className="mc-menu__badge account-menu__unread" data-testid="header-unread" aria-label={t('wallet:unread_messages', { count: unread })}>{unread > 99 ? '99+' : unread}</span>}
          <span className="account-menu__name" data-testid="account-name" title={name || undefined}>
            {name || t('my_account')}
          </span>
          <Icon name="chevron" size={14} />
        </button>
        {isOpen && (
          <ul className="account-menu__list" role="menu" id={menuId} data-testid="account-menu">
            {member && (
              <li role="none" className="account-menu__who">
                {isTrial ? name : member.account}
              </li>
            )}
            {items.map((item) =>
              item ? (
                <li role="none" key={item.key}>
                  <button type="button" role="menuitem" className="account-menu__item" onClick={() => go(item.to)} data-testid={`account-menu-${item.key}`}>
                    {item.label}
                    {item.badge ? <span className="mc-menu__badge account-menu__item-badge" aria-label={t('wallet:unread_messages', { count: item.badge })}>{item.badge > 99 ? '99+' : item.badge}</span> : null}
                  </button>
                </li>
              ) : null,
            )}
            {items.some(Boolean) && <li role="separator" className="account-menu__sep" />}
            <li role="none">
              <button
                type="button"
                role="menuitem"
                className="account-menu__item"
                onClick={() => {
                  setOpen(false);
                  requestLogout();
                }}
                data-testid="account-menu-logout"
              >
                {t('sign_out')}
              </button>
            </li>
          </ul>
        )}
      </div>
      {isTrial ? (
        <TrialRegisterButton className="btn btn--primary btn--sm" testId="register-button" />
      ) : member?.rgExclusion ? null : (
        // No Deposit while the player is excluded (cooling-off, self-exclusion): deposits are closed.
        <Link to={MEMBER_TAB.deposit} className="btn btn--primary btn--sm" data-testid="deposit-button">
          {t('deposit')}
        </Link>
      )}
      {dialog}
      {isReal && <RealityCheck onStop={logoutNow} />}
      {isReal && <WithdrawalNotice isOnWithdraw={isOnWithdraw} onOpen={() => navigate(MEMBER_TAB.withdraw)} />}
    </div>
  );
}
