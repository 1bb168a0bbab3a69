import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_SERVICE_TYPES, LIMITS, LIVE_CHAT_URL } from '@portal/contracts/domain/constants';
import { LiveChatButton } from '../../features/chat/components/live-chat-button';
import { useCustomerService } from '../../lib/domain-route';
import { Icon, isIconName } from '../../ui/icons';
import { LazyQrCode } from '../../ui/lazy-qr-code';
import { useSideBarTucked } from './side-bar-tuck';
import { useDismiss } from '../../lib/use-dismiss';

/**
 * Right side bar: customer service (Facebook, Telegram, live chat) and the app download. A LIVECHAT
 * entry pointing at the in-portal chat (LIVE_CHAT_URL) opens the chat room; other entries are links.
 * On phones it floats at the bottom right, over the page, folded into one round button that opens
 * the entries beside it (open, the row of four covered a deposit channel or a form's button); it tucks
 * away while the page scrolls down and comes back on scrolling up, near the top and at the end, and
 * steps aside while a form's button, a field or a tab lies under it (side-bar-tuck.ts). Wider screens show the entries and never the button.
 */
export function SideBar() {
  const { t } = useTranslation('common');
  const links = useCustomerService(CUSTOMER_SERVICE_TYPES);
  const downloadUrl = `${window.location.origin}/down`;
  // The QR code shows on hover or focus: its encoder loads then, not with the page.
  const [isQrWanted, setQrWanted] = useState(false);
  const wantQr = () => setQrWanted(true);
  const [isOpen, setOpen] = useState(false);
  const bar = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  // Open, it stays where it is (the player is using it).
  const tucked = useSideBarTucked(bar, toggle) && !isOpen;
  // Open, Escape or a tap anywhere else folds it again (only the button and an entry did).
  useDismiss(bar, isOpen, () => setOpen(false));
  return (
    <aside ref={bar} className={`side-bar${tucked ? ' side-bar--tucked' : ''}${isOpen ? ' side-bar--open' : ''}`} aria-label={t('customer_service')}>
      <button ref={toggle} type="button" className="side-bar__toggle" aria-expanded={isOpen} aria-controls="side-bar-list" aria-label={t('customer_service')}
        onClick={() => setOpen(!isOpen)} data-testid="side-bar-toggle">
        <Icon name={isOpen ? 'close' : 'LIVECHAT'} size={22} />
      </button>
      {/* Choosing an entry folds the bar again (phones). */}
      <ul className="side-bar__list" id="side-bar-list" onClick={() => setOpen(false)}>
        {links.map((cs) =>
          cs.csType === 'LIVECHAT' && cs.url === LIVE_CHAT_URL ? (
            <li key={`${cs.csType}-${cs.url}`} className="side-bar__chat">
              <LiveChatButton cs={cs} />
            </li>
          ) : (
            <li key={`${cs.csType}-${cs.url}`}>
              {/* Named for screen readers: its label shows only on hover or focus (visibility hides it from them). */}
              <a className="side-bar__btn" href={cs.url} target="_blank" rel="noopener noreferrer" data-cs={cs.csType} aria-label={cs.title}>
                {isIconName(cs.csType) && <Icon name={cs.csType} size={22} />}
                <span className="side-bar__label">{cs.title}</span>
              </a>
            </li>
          ),
        )}
        <li className="side-bar__download" onPointerEnter={wantQr} onFocus={wantQr}>
          <Link className="side-bar__btn" to="/down" data-testid="sidebar-download" aria-label={t('app_download')}>
            <Icon name="download" size={22} />
            <span className="side-bar__label">{t('app_download')}</span>
          </Link>
          <div className="side-bar__qr">
            <LazyQrCode when={isQrWanted} value={downloadUrl} label={t('app_download_qr')} size={LIMITS.QR_SIZE_SIDEBAR} margin={6} />
          </div>
        </li>
      </ul>
    </aside>
  );
}
