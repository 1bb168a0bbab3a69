import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TSyncReply, TSyncRequest } from '@portal/contracts/events/events';
import type { TSocketGrabReply, TSocketGrabRequest } from '@portal/contracts/api/red-envelopes';

export type HelloInfo = Parameters<ServerToClientEvents['hello']>[0];
/** `opsToken`: the operator console's socket (live chat), which hears only its merchant's operator audience. */
export type HandshakeAuth = { token?: string; opsToken?: string; merchant?: string; last: Record<string, number> };

/** What the realtime client needs from a connection; Socket.IO in the app, a fake in tests. */
export type RealtimeTransport = {
  onState: (fn: (state: 'connected' | 'reconnecting') => void) => void;
  /** The server refused this connection's session (UNAUTHORIZED: ended, revoked, expired). */
  onRefused?: (fn: () => void) => void;
  onHello: (fn: (info: HelloInfo) => void) => void;
  onEvent: (fn: (raw: unknown) => void) => void;
  /** Ask for missed events; `null` when the server did not answer in time. */
  sync: (req: TSyncRequest, done: (reply: TSyncReply | null) => void) => void;
  /** A red envelope grab over the socket; `null` when the server did not answer in time. */
  grabEnvelope: (req: TSocketGrabRequest, done: (reply: TSocketGrabReply | null) => void) => void;
  reconnect: () => void;
  close: () => void;
};

const SYNC_TIMEOUT_MS = 5000;
/** A grab's answer waits for its commit; past this the page asks over HTTP (the grab is idempotent per player). */
const GRAB_TIMEOUT_MS = 8000;
const RETRY_IMPORT_MS = 2000;

type PortalSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Socket.IO to the page's origin; `auth` is read on every (re)connect. The Socket.IO client
 * (~12 KB compressed) is imported when the connection opens, after the first render, not with
 * the app: what is asked of the transport meanwhile is applied, in order, once the socket exists.
 */
/** Where the browser says the network went away and came back (window's offline and online events). */
type NetworkEvents = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export function createSocketTransport(getAuth: () => HandshakeAuth, url = '', network: NetworkEvents | null = typeof window === 'undefined' ? null : window): RealtimeTransport {
  let socket: PortalSocket | null = null;
  let isClosed = false;
  const unlisten: Array<() => void> = [];
  const pending: Array<(s: PortalSocket) => void> = [];
  const withSocket = (fn: (s: PortalSocket) => void): void => {
    if (socket) fn(socket);
    else pending.push(fn);
  };
  const open = () =>
    import('socket.io-client').then(
      ({ io }) => {
        if (isClosed) return;
        const s: PortalSocket = io(url, { auth: (cb) => cb(getAuth()), transports: ['websocket', 'polling'] });
        socket = s;
        for (const fn of pending.splice(0)) fn(s);
      },
      // Offline or a chunk of an older build: try again shortly, as a failed connection would.
      () => {
        if (!isClosed) setTimeout(open, RETRY_IMPORT_MS);
      },
    );
  void open();
  return {
    onState: (fn) =>
      withSocket((s) => {
        s.on('connect', () => fn('connected'));
        s.on('disconnect', (reason) => {
          fn('reconnecting');
          // Closed by the server (the session ended: logout elsewhere, an exclusion, a disabled account):
          // Socket.IO does not come back by itself, so the page sat at "reconnecting" still looking signed
          // in. A new handshake tells: refused (onRefused) or welcomed as before.
          if (reason === 'io server disconnect' && !isClosed) s.connect();
        });
        s.on('connect_error', () => fn('reconnecting'));
        // The browser knows at once when the network goes: the socket found out only at its ping timeout
        // (about 13 s saying "connected" over a stale page). Offline, its connection is dropped, so the page
        // says "reconnecting" and, like any reconnect, joins and catches up when it is back; back online, a
        // socket waiting out its backoff tries at once.
        if (network) {
          const onOffline = () => {
            if (s.connected) s.io.engine?.close();
          };
          const onOnline = () => {
            if (s.connected || isClosed) return;
            s.disconnect();
            s.connect();
          };
          network.addEventListener('offline', onOffline);
          network.addEventListener('online', onOnline);
          unlisten.push(() => {
            network.removeEventListener('offline', onOffline);
            network.removeEventListener('online', onOnline);
          });
        }
      }),
    onRefused: (fn) => withSocket((s) => s.on('connect_error', (err: Error) => err.message === 'UNAUTHORIZED' && fn())),
    onHello: (fn) => withSocket((s) => s.on('hello', fn)),
    onEvent: (fn) =>
      withSocket((s) => {
        s.on('event', (raw: unknown) => fn(raw));
        // Consecutive events of one audience, in order: each as if it came alone.
        s.on('events', (raws: unknown) => {
          if (Array.isArray(raws)) for (const raw of raws) fn(raw);
        });
      }),
    sync: (req, done) =>
      withSocket((s) => s.timeout(SYNC_TIMEOUT_MS).emit('sync', req, (err: Error | null, reply: TSyncReply) => done(err ? null : reply))),
    grabEnvelope: (req, done) => {
      if (!socket?.connected) return done(null);
      socket.timeout(GRAB_TIMEOUT_MS).emit('envelope:grab', req, (err: Error | null, reply: TSocketGrabReply) => done(err ? null : reply));
    },
    reconnect: () => {
      // Before the socket exists there is nothing to redo: it connects with the auth of that moment.
      if (!socket) return;
      socket.disconnect();
      socket.connect();
    },
    close: () => {
      isClosed = true;
      pending.length = 0;
      for (const u of unlisten.splice(0)) u();
      socket?.removeAllListeners();
      socket?.disconnect();
    },
  };
}
