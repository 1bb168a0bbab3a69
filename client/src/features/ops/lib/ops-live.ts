import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createSocketTransport } from '../../../realtime/socket-transport';
import { getMerchantCode } from '../../../lib/merchant';
import { OPS_CHATS_KEY } from '../api/chats';
import { getOpsToken } from './ops-session';

/** Is this socket message an event of the live chat (`chat.changed` to the operators)? */
export const isChatEvent = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && 'type' in raw && (raw as { type: unknown }).type === 'chat.changed';

/**
 * The console's live chat socket while a page that needs it is open: it connects with the operator
 * token and hears only the merchant's operator audience (`ops:{code}`, chat.answer). Each chat event
 * (its payload carries no text) marks the chat queries stale, so they are read again over HTTP, where
 * every call is authorized; so does each (re)connection, which may have missed some.
 */
export function useOpsChatLive(enabled: boolean): boolean {
  const qc = useQueryClient();
  const [isConnected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const transport = createSocketTransport(() => {
      const merchant = getMerchantCode();
      return { opsToken: getOpsToken() ?? '', ...(merchant ? { merchant } : {}), last: {} };
    });
    const refresh = () => void qc.invalidateQueries({ queryKey: OPS_CHATS_KEY });
    transport.onState((s) => setConnected(s === 'connected'));
    transport.onHello(refresh);
    transport.onEvent((raw) => {
      if (isChatEvent(raw)) refresh();
    });
    return () => {
      transport.close();
      setConnected(false);
    };
  }, [enabled, qc]);
  return isConnected;
}
