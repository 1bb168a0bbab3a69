import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TSyncReply, TSyncRequest } from '@portal/contracts/events/events';

export type HelloInfo = Parameters<ServerToClientEvents['hello']>[0];
export type HandshakeAuth = { token?: string; merchant?: string; last: Record<string, number> };

/** What the realtime client needs from a connection; Socket.IO in the app, a fake in tests. */
export type RealtimeTransport = {
  onState: (fn: (state: 'connected' | 'reconnecting') => void) => void;
  onHello: (fn: (info: HelloInfo) => void) => void;
  onEvent: (fn: (raw: unknown) => void) => void;
  /** Ask for missed events; `null` when the server did not answer in time. */
  sync: (req: TSyncRequest, done: (reply: TSyncReply | null) => void) => void;
  reconnect: () => void;
  close: () => void;
};

const SYNC_TIMEOUT_MS = 5000;

/** Socket.IO to the page's origin; `auth` is read on every (re)connect. */
export function createSocketTransport(getAuth: () => HandshakeAuth, url = ''): RealtimeTransport {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
    auth: (cb) => cb(getAuth()),
    transports: ['websocket', 'polling'],
  });
  return {
    onState: (fn) => {
      socket.on('connect', () => fn('connected'));
      socket.on('disconnect', () => fn('reconnecting'));
      socket.on('connect_error', () => fn('reconnecting'));
    },
    onHello: (fn) => {
      socket.on('hello', fn);
    },
    onEvent: (fn) => {
      socket.on('event', (raw: unknown) => fn(raw));
    },
    sync: (req, done) => {
      socket.timeout(SYNC_TIMEOUT_MS).emit('sync', req, (err: Error | null, reply: TSyncReply) => done(err ? null : reply));
    },
    reconnect: () => {
      socket.disconnect();
      socket.connect();
    },
    close: () => {
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
