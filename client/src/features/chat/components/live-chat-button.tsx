import { lazy, Suspense, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { TCustomerServiceLink } from '../../../lib/domain-route';
import { useModule } from '../../../lib/whitelabel';
import { useSessionToken } from '../../../lib/session';
import { openPopup } from '../../../lib/popups';
import { Icon } from '../../../ui/icons';
import './live-chat-button.css';

/** The unread badge and its live updates: only for a signed-in player, so in its own chunk. */
const ChatBadge = lazy(() => import('./chat-badge').then((m) => ({ default: m.ChatBadge })));

/**
 * The side bar's LIVECHAT entry when it is the in-portal chat (LIVE_CHAT_URL) and the merchant's
 * LIVECHAT3 module is on: opens the chat room over the page (a guest is asked to log in first), with
 * the count of customer service's unread messages. The same URL opened directly (`/?chat=open`)
 * opens the room too.
 */
export function LiveChatButton({ cs }: { cs: TCustomerServiceLink }) {
  const isOn = useModule('LIVECHAT3');
  const token = useSessionToken();
  const [params, setParams] = useSearchParams();
  const wantsChat = params.get('chat') === 'open';

  useEffect(() => {
    if (!wantsChat || !isOn) return;
    const next = new URLSearchParams(params);
    next.delete('chat');
    setParams(next, { replace: true });
    openPopup(token ? 'chatRoom' : 'loginPopupModal');
  }, [wantsChat, isOn, token, params, setParams]);

  if (!isOn) return null;
  return (
    <button type="button" className="side-bar__btn" data-cs={cs.csType} data-testid="live-chat-button"
      onClick={() => openPopup(token ? 'chatRoom' : 'loginPopupModal')}>
      <Icon name="LIVECHAT" size={22} />
      <span className="side-bar__label">{cs.title}</span>
      {token && (
        <Suspense fallback={null}>
          <ChatBadge token={token} />
        </Suspense>
      )}
    </button>
  );
}
