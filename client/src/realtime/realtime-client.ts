import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';
import { parseEvent } from '@portal/contracts/events/events';
import type { ClientToServerEvents, EventType, ServerToClientEvents, TEventEnvelope, TSyncReply } from '@portal/contracts/events/events';
import { applyEventToCache } from './cache-mapping';
import { INITIAL_SEQ_STATE, receiveEvent, receiveEvents, resetAudience, syncRequestFor } from './seq';
import type { SeqOutcome, SeqState } from './seq';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export type RealtimeSnapshot = {
  state: ConnectionState;
  /** Audiences this socket was joined to (from `hello`). */
  audiences: readonly string[];
};

type Handler<T extends EventType> = (env: TEventEnvelope<T>) => void;
type AnyHandler = (env: TEventEnvelope) => void;

export type RealtimeDeps = {
  queryClient: QueryClient;
  getToken: () => string | null;
  getMerchant: () => string | null;
  /** For tests and other origins; defaults to the page's origin. */
  url?: string;
};

const SYNC_TIMEOUT_MS = 5000;

/**
 * One Socket.IO connection per tab. Orders events per audience (see seq.ts), asks for missed
 * ones, writes them into the query cache and hands them to subscribers.
 */
export class RealtimeClient {
  private socket: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;
  private seq: SeqState = INITIAL_SEQ_STATE;
  private syncing = new Set<string>();
  private handlers = new Map<EventType, Set<AnyHandler>>();
  private snapshot: RealtimeSnapshot = { state: 'connecting', audiences: [] };
  private snapshotListeners = new Set<() => void>();

  constructor(private readonly deps: RealtimeDeps) {}

  connect(): void {
    if (this.socket) return;
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(this.deps.url ?? '', {
      // Evaluated on every (re)connect, so the server learns what this tab already applied.
      auth: (cb) => {
        const token = this.deps.getToken();
        const merchant = this.deps.getMerchant();
        cb({ ...(token ? { token } : {}), ...(merchant ? { merchant } : {}), last: { ...this.seq.last } });
      },
      transports: ['websocket', 'polling'],
    });
    socket.on('connect', () => this.setSnapshot({ state: 'connected' }));
    socket.on('disconnect', () => this.setSnapshot({ state: 'reconnecting' }));
    socket.on('connect_error', () => this.setSnapshot({ state: 'reconnecting' }));
    socket.on('hello', (info) => this.setSnapshot({ audiences: info.audiences }));
    socket.on('event', (raw: unknown) => {
      const env = parseEvent(raw);
      if (env) this.receive(env);
    });
    this.socket = socket;
  }

  /** Reconnect with fresh auth (after login, logout or a merchant change). */
  reconnect(): void {
    if (!this.socket) return this.connect();
    this.setSnapshot({ state: 'connecting' });
    this.socket.disconnect();
    this.socket.connect();
  }

  close(): void {
    this.socket?.disconnect();
    this.socket?.removeAllListeners();
    this.socket = null;
  }

  on<T extends EventType>(type: T, handler: Handler<T>): () => void {
    let set = this.handlers.get(type);
    if (!set) {
      set = new Set();
      this.handlers.set(type, set);
    }
    const h = handler as AnyHandler;
    set.add(h);
    return () => set.delete(h);
  }

  getSnapshot = (): RealtimeSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.snapshotListeners.add(listener);
    return () => this.snapshotListeners.delete(listener);
  };

  /** Copy of the last applied seq per audience. */
  lastSeq(): Record<string, number> {
    return { ...this.seq.last };
  }

  /** Entry point for an incoming envelope (also used by tests and replays). */
  receive(env: TEventEnvelope): void {
    this.take(receiveEvent(this.seq, env));
  }

  private take(outcome: SeqOutcome): void {
    this.seq = outcome.state;
    for (const env of outcome.apply) this.dispatch(env);
    if (outcome.gap) this.requestSync(outcome.gap);
  }

  private dispatch(env: TEventEnvelope): void {
    applyEventToCache(this.deps.queryClient, env);
    for (const h of this.handlers.get(env.type) ?? []) {
      try {
        h(env);
      } catch (e) {
        console.error(`realtime handler for ${env.type} failed`, e);
      }
    }
  }

  private requestSync(audience: string): void {
    const socket = this.socket;
    if (!socket || this.syncing.has(audience)) return;
    this.syncing.add(audience);
    socket.timeout(SYNC_TIMEOUT_MS).emit('sync', syncRequestFor(this.seq, audience), (err: Error | null, reply: TSyncReply) => {
      this.syncing.delete(audience);
      if (err || !reply.ok) return this.syncFailed(audience);
      const events = reply.events.map((e) => parseEvent(e)).filter((e): e is TEventEnvelope => e !== null);
      const outcome = receiveEvents(this.seq, events);
      this.seq = outcome.state;
      for (const env of outcome.apply) this.dispatch(env);
      if (this.seq.pending[audience]) this.syncFailed(audience);
    });
  }

  /** The server cannot fill the gap: refetch everything over HTTP and continue from what is buffered. */
  private syncFailed(audience: string): void {
    void this.deps.queryClient.invalidateQueries();
    const outcome = resetAudience(this.seq, audience);
    this.seq = outcome.state;
    for (const env of outcome.apply) this.dispatch(env);
  }

  private setSnapshot(patch: Partial<RealtimeSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of [...this.snapshotListeners]) l();
  }
}
