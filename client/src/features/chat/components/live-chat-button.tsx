import { lazy, Suspense, useEffect, useState } from 'react';
import { retryImport } from '../../../lib/retry-import';
import { useSearchParams } from 'react-router-dom';
import type { TCustomerServiceLink } from '../../../lib/domain-route';
import { useModule } from '../../../lib/whitelabel';
import { useSessionToken } from '../../../lib/session';
import { useLoginFlags } from '../../../lib/login-state';
import { openPopup } from '../../../lib/popups';
import { Icon } from '../../../ui/icons';
import './live-chat-button.css';

/** The unread badge and its live updates: only for a signed-in player, so in its own chunk. */
const ChatBadge = lazy(() => retryImport(() => import('./chat-badge')).then((m) => ({ default: m.ChatBadge })));
/** A trial user's "register first" notice: loaded when one presses the button. */
const TrialNotice = lazy(() => retryImport(() => import('../../auth/components/trial-notice')).then((m) => ({ default: m.TrialNotice })));

/**
 * The side bar's LIVECHAT entry when it is the in-portal chat (LIVE_CHAT_URL) and the merchant's
 * LIVECHAT3 module is on: opens the chat room over the page (a guest is asked to log in first), with
 * the count of customer service's unread messages. The same URL opened directly (`/?chat=open`)
 * opens the room too.
 */
export function LiveChatButton({ cs }: { cs: TCustomerServiceLink }) {
  const isOn = useModule('LIVECHAT3');
  const sessionToken = useSessionToken();
  // A trial (free play) account has no chat (the server refuses it): it is told to register, and its
  // pages make no chat calls.
  const { isTrial } = useLoginFlags();
  const [isTrialNoticeOpen, setTrialNoticeOpen] = useState(false);
  const token = isTrial ? null : sessionToken;
  const open = () => (isTrial ? setTrialNoticeOpen(true) : openPopup(token ? 'chatRoom' : 'loginPopupModal'));
  const [params, setParams] = useSearchParams();
  const wantsChat = params.get('chat') === 'open';

  useEffect(() => {
    if (!wantsChat || !isOn) return;
    const next = new URLSearchParams(params);
    next.delete('chat');
    setParams(next, { replace: true });
    open();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantsChat, isOn, token, params, setParams]);

  if (!isOn) return null;
  return (
    <>
    <button type="button" className="side-bar__btn" data-cs={cs.csType} data-testid="live-chat-button" aria-label={cs.title} onClick={open}>
      <Icon name="LIVECHAT" size={22} />
      <span className="side-bar__label">{cs.title}</span>
      {token && (
        <Suspense fallback={null}>
          <ChatBadge token={token} />
        </Suspense>
      )}
    </button>
    {isTrialNoticeOpen && (
      <Suspense fallback={null}>
        <TrialNotice open onClose={() => setTrialNoticeOpen(false)} />
      </Suspense>
    )}
    </>
  );
}
