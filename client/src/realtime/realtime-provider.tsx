import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clearSession, getSessionToken, subscribeSession } from '../lib/session';
import { getMerchantCode, subscribeMerchant } from '../lib/merchant';
import { RealtimeClient } from './realtime-client';
import { RealtimeContext } from './realtime-context';
import { endsThisSession } from './session-key';

type PortalRealtimeDebug = { readonly lastSeq: Record<string, number>; readonly connected: boolean };

declare global {
  interface Window {
    /** Read-only debug info for end-to-end tests (not sensitive). */
    readonly __portalRealtime?: PortalRealtimeDebug;
  }
}

function exposeDebug(client: RealtimeClient): () => void {
  const info: PortalRealtimeDebug = Object.freeze({
    get lastSeq() {
      return client.lastSeq();
    },
    get connected() {
      return client.getSnapshot().state === 'connected';
    },
  });
  Object.defineProperty(window, '__portalRealtime', { value: info, writable: false, configurable: true });
  return () => {
    Reflect.deleteProperty(window, '__portalRealtime');
  };
}

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [client] = useState(() => new RealtimeClient({ queryClient, getToken: getSessionToken, getMerchant: getMerchantCode }));

  useEffect(() => {
    // Deferred so React's development double-mount does not open and drop a socket.
    const timer = window.setTimeout(() => client.connect(), 0);
    const hide = exposeDebug(client);
    let token = getSessionToken();
    let merchant = getMerchantCode();
    const onAuthChange = () => {
      const t = getSessionToken();
      const m = getMerchantCode();
      // Learning the merchant code for the first time changes nothing: the gateway already
      // resolved the same merchant from the host.
      const changed = t !== token || (merchant !== null && m !== merchant);
      token = t;
      merchant = m;
      if (changed) client.reconnect();
    };
    // The server ended this session (signed out elsewhere, disabled, expired): drop the token. A logout
    // names its session: the member's pages of other sessions (another browser) stay signed in.
    const signOut = () => {
      clearSession();
      void queryClient.invalidateQueries();
    };
    const offLogout = client.on('system.logout', (env) => {
      const token = getSessionToken();
      void endsThisSession(env.payload.session, token).then((ends) => {
        if (ends && getSessionToken() === token) signOut();
      });
    });
    // ... or its socket was closed before that event reached it, and a new handshake is refused: the
    // same (a tab whose session ended in another kept looking signed in).
    const offRefused = client.onSessionRefused(() => {
      if (getSessionToken()) signOut();
    });
    const offSession = subscribeSession(onAuthChange);
    const offMerchant = subscribeMerchant(onAuthChange);
    return () => {
      window.clearTimeout(timer);
      offLogout();
      offRefused();
      offSession();
      offMerchant();
      hide();
      client.close();
    };
  }, [client, queryClient]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}
