import type { QueryClient } from '@tanstack/react-query';
import type { EventType, TEventEnvelope } from '@portal/contracts/events/events';
import type { TSocketGrabReply } from '@portal/contracts/api/red-envelopes';
import { applyEventToCache } from './cache-mapping';
import { PortalQueryClient } from '../lib/query-client';
import { INITIAL_SEQ_STATE, receiveEvent, receiveEvents, resetAudience, syncRequestFor } from './seq';
import type { SeqOutcome, SeqState } from './seq';
import { createSocketTransport } from './socket-transport';
import type { HandshakeAuth, RealtimeTransport } from './socket-transport';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export type RealtimeSnapshot = {
  state: ConnectionState;
  /** Audiences this socket was joined to (from `hello`). */
  audiences: readonly string[];
};

type AnyHandler = (env: TEventEnvelope) => void;

export type RealtimeDeps = {
  queryClient: QueryClient;
  getToken: () => string | null;
  getMerchant: () => string | null;
  /** Defaults to Socket.IO on the page's origin. */
  createTransport?: (getAuth: () => HandshakeAuth) => RealtimeTransport;
  /**
   * Validates an incoming event. Defaults to the contract's parseEvent, imported when the first
   * event arrives: it brings zod, which the first paint does not need.
   */
  parseEvent?: EventParser;
};

type EventParser = (raw: unknown) => TEventEnvelope | null;

/**
 * One realtime connection per tab. Orders events per audience (seq.ts), asks for missed ones,
 * writes them into the query cache and hands them to subscribers.
 */
export class RealtimeClient {
  private transport: RealtimeTransport | null = null;
  private seq: SeqState = INITIAL_SEQ_STATE;
  private syncing = new Set<string>();
  private handlers = new Map<EventType, Set<AnyHandler>>();
  private snapshot: RealtimeSnapshot = { state: 'connecting', audiences: [] };
  private snapshotListeners = new Set<() => void>();
  private refusedListeners = new Set<() => void>();

  private parser: EventParser | null;
  /** Work waiting for the parser to load, in arrival order. */
  private waiting: Array<(parse: EventParser) => void> | null = null;

  constructor(private readonly deps: RealtimeDeps) {
    this.parser = deps.parseEvent ?? null;
  }

  /** Runs `fn` with the event parser: now when it is loaded, else once it is (keeping the order). */
  private withParser(fn: (parse: EventParser) => void): void {
    if (this.parser) return fn(this.parser);
    if (!this.waiting) {
      this.waiting = [];
      const load = () =>
        import('@portal/contracts/events/events').then(
          (m) => {
            this.parser = m.parseEvent;
            const work = this.waiting ?? [];
            this.waiting = null;
            for (const w of work) w(m.parseEvent);
          },
          // Offline or a chunk of an older build: try again shortly (events stay queued meanwhile).
          () => setTimeout(load, 2000),
        );
      void load();
    }
    this.waiting.push(fn);
  }

  /** The handshake: the server sends what was missed after `last`. */
  handshakeAuth(): HandshakeAuth {
    const token = this.deps.getToken();
    const merchant = this.deps.getMerchant();
    return { ...(token ? { token } : {}), ...(merchant ? { merchant } : {}), last: { ...this.seq.last } };
  }

  connect(): void {
    if (this.transport) return;
    const create = this.deps.createTransport ?? ((getAuth) => createSocketTransport(getAuth));
    const t = create(() => this.handshakeAuth());
    // 'connected' means the server has joined this socket to its rooms (its `hello`), not merely that
    // the transport is up: events published before the join never reach this socket.
    t.onState((state) => {
      if (state !== 'connected') this.setSnapshot({ state });
    });
    t.onRefused?.(() => this.refusedListeners.forEach((fn) => fn()));
    t.onHello((info) => {
      // An audience this tab has no seq for yet may have had events between the page's HTTP reads
      // and the join, which no catch-up can name: read the data again once it is joined.
      const isNew = info.audiences.some((a) => this.seq.last[a] === undefined);
      this.setSnapshot({ state: 'connected', audiences: info.audiences });
      // First reads still in flight at page load are kept (not started over: first paint).
      const qc = this.deps.queryClient;
      if (isNew) void (qc instanceof PortalQueryClient ? qc.invalidateKeepingFirstReads({ refetchType: 'active' }) : qc.invalidateQueries({ refetchType: 'active' }));
    });
    t.onEvent((raw) =>
      this.withParser((parse) => {
        const env = parse(raw);
        if (env) this.receive(env);
      }),
    );
    this.transport = t;
  }

  /**
   * A red envelope grab over the socket (the server's `envelope:grab`): its answer, or `null` when
   * the socket is not connected or did not answer in time (the caller asks over HTTP then).
   */
  grabEnvelope(envelopeId: string): Promise<TSocketGrabReply | null> {
    const t = this.transport;
    if (!t || this.snapshot.state !== 'connected') return Promise.resolve(null);
    return new Promise((resolve) => t.grabEnvelope({ envelopeId }, resolve));
  }

  /** The server refused the session this page connects with (ended elsewhere, revoked, expired). */
  onSessionRefused(fn: () => void): () => void {
    this.refusedListeners.add(fn);
    return () => this.refusedListeners.delete(fn);
  }

  /** Reconnect with fresh auth (after login, logout or a merchant change). */
  reconnect(): void {
    if (!this.transport) return this.connect();
    this.setSnapshot({ state: 'connecting' });
    this.transport.reconnect();
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
    this.syncing.clear();
  }

  on<T extends EventType>(type: T, handler: (env: TEventEnvelope<T>) => void): () => void {
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

  /** Entry point for a parsed envelope. */
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
    const t = this.transport;
    if (!t || this.syncing.has(audience)) return;
    this.syncing.add(audience);
    t.sync(syncRequestFor(this.seq, audience), (reply) => {
      this.syncing.delete(audience);
      if (!reply || !reply.ok) return this.syncFailed(audience);
      this.withParser((parse) => {
        const events = reply.events.map((e) => parse(e)).filter((e): e is TEventEnvelope => e !== null);
        const outcome = receiveEvents(this.seq, events);
        this.seq = outcome.state;
        for (const env of outcome.apply) this.dispatch(env);
        if (this.seq.pending[audience]) this.syncFailed(audience);
      });
    });
  }

  /** The server cannot fill the gap: refetch over HTTP and continue from what is buffered. */
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
