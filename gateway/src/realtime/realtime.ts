import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import {
  EVENTS_PER_FRAME,
  ZHandshakeAuth,
  ZSyncRequest,
  merchantAudience,
  opsAudience,
  userAudience,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type TEventEnvelope,
  type TSyncReply,
} from '@portal/contracts/events/events';
import type { Db } from '../db/db.ts';
import type { EventBus } from '../bus/bus.ts';
import { readSince } from '../bus/outbox.ts';
import type { MerchantDirectory } from '../modules/merchants/merchant-directory.ts';
import type { SessionStore } from '../modules/sessions/session-store.ts';
import { operatorSessionKey, type Operator } from '../modules/ops/operators.ts';
import { opsCan } from '@portal/contracts/api/ops';
import { eventsDelivered, eventsReceived, socketsConnected } from '../obs/metrics.ts';

/** `control`: rooms that carry no events, only disconnects (an operator's sockets, one session's). */
type SocketData = { memberId: number | null; merchantCode: string; audiences: string[]; control?: string[] };

/** The room of every socket of an operator, and of one operator session's (by its token hash): disconnects only. */
const operatorRoom = (operatorId: number) => `opsop:${operatorId}`;
const operatorSessionRoom = (sessionKey: string) => `opssess:${sessionKey}`;
export type PortalSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type PortalIo = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type Logger = {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  debug?(obj: unknown, msg?: string): void;
  isLevelEnabled?(level: string): boolean;
};

const KNOWN_CLIENT_EVENTS = ['sync'];

/**
 * Events go to a socket in frames: a run of consecutive events of one audience, at most
 * EVENTS_PER_FRAME, as ONE `events` frame, a lone event as `event`. A frame costs a write on the server
 * and a read on the client whatever it carries (a grab's balance.changed and envelope.grabbed, a
 * reconnect's catch-up). The end (exclusive) of the run that starts at `i`:
 */
function runEnd(events: readonly TEventEnvelope[], i: number): number {
  const audience = events[i]!.audience;
  let j = i + 1;
  while (j < events.length && j - i < EVENTS_PER_FRAME && events[j]!.audience === audience) j++;
  return j;
}

type FrameTarget = { emit(ev: 'event', e: TEventEnvelope): unknown; emit(ev: 'events', es: TEventEnvelope[]): unknown };

/** The run events[i..j) (one audience) as one frame. */
function emitRun(to: FrameTarget, events: readonly TEventEnvelope[], i: number, j: number) {
  if (j - i === 1) to.emit('event', events[i]!);
  else to.emit('events', events.slice(i, j));
}

/** Every event, in order, to one socket (a catch-up), run by run. */
function emitAll(to: FrameTarget, events: readonly TEventEnvelope[]) {
  for (let i = 0, j = 0; i < events.length; i = j) emitRun(to, events, i, (j = runEnd(events, i)));
}

/** Client calls a module answers on the socket (red envelope grabs): the event names it handles and where it attaches them. */
export type SocketHook = { events: string[]; attach(socket: PortalSocket): void };

export type RealtimeDeps = {
  db: Db;
  bus: EventBus;
  merchants: MerchantDirectory;
  sessions: SessionStore;
  log: Logger;
  nodeId: string;
  /** A node-redis client for the Socket.IO adapter (several nodes); absent for one process. */
  redisClient?: Parameters<typeof createAdapter>[0];
  /** The adapter's own stream, apart from other deployments or test runs on the same Redis. */
  adapterStream?: string;
  /** Client calls answered on the socket besides `sync` (attached when the socket connects). */
  hooks?: SocketHook[];
  /** Operator sessions, for the console's live chat socket (`opsToken`); without it no operator socket is accepted. */
  operators?: { resolve(token: string): Promise<Operator | null>; check(token: string): Promise<Operator | null> };
  /**
   * How often an open operator socket checks its session (config OPS_SOCKET_RECHECK_MS): a session that
   * idled out or was ended where no hook reaches (another process) closes its sockets within this.
   */
  operatorRecheckMs?: number;
};

/**
 * May this operator's socket hear the merchant's `ops:{code}` events? The console's gate (password
 * changed, authenticator enrolled) and the live chat permission; only its own merchant.
 */
export function canJoinOps(op: Operator | null, merchantCode: string): op is Operator {
  return !!op && op.merchantCode === merchantCode && !op.mustChangePassword && op.totpEnrolled && opsCan(op.roles, 'chat.answer');
}

/**
 * May a page of `origin` open a socket on this server? Only the portal's own pages: same host as the
 * request (the SPA on any address the portal answers), or one of the merchant's configured domains
 * (a merchant whose site and API live on sibling hosts). No Origin at all is a client that is not a
 * browser (vendors, QA tools, tests): nothing of a visitor's browser can be borrowed there.
 */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined, merchantDomains: string[]): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (host && url.host.toLowerCase() === host.toLowerCase()) return true;
  return merchantDomains.includes(url.hostname.toLowerCase());
}

export function createRealtime(http: HttpServer, deps: RealtimeDeps) {
  const hooks = deps.hooks ?? [];
  const knownEvents = new Set<string>([...KNOWN_CLIENT_EVENTS, ...hooks.flatMap((h) => h.events)]);
  const io: PortalIo = new Server(http, {
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
    pingInterval: 10_000,
    pingTimeout: 8_000,
    connectionStateRecovery: undefined,
    // Cross-site WebSocket hijacking: a browser always says which page opens a socket (Origin).
    allowRequest: (req, callback) => {
      const host = req.headers.host;
      const merchantCode = req.headers['x-merchant-code'];
      deps.merchants
        .resolve({ host, code: typeof merchantCode === 'string' ? merchantCode : undefined })
        .then((m) => callback(null, isAllowedOrigin(req.headers.origin, host, m?.domains ?? [])))
        .catch((err: unknown) => {
          deps.log.warn({ err }, 'socket origin check failed');
          callback('HANDSHAKE_FAILED', false);
        });
    },
    ...(deps.redisClient ? { adapter: createAdapter(deps.redisClient, { streamName: deps.adapterStream ?? 'socket.io' }) } : {}),
  });

  io.use(async (socket, next) => {
    try {
      const auth = ZHandshakeAuth.safeParse(socket.handshake.auth ?? {});
      if (!auth.success) return next(new Error('BAD_HANDSHAKE'));
      const host = socket.handshake.headers.host;
      const headerMerchant = socket.handshake.headers['x-merchant-code'];
      const merchant = await deps.merchants.resolve({
        host,
        code: auth.data.merchant ?? (typeof headerMerchant === 'string' ? headerMerchant : undefined),
      });
      if (!merchant) return next(new Error('UNKNOWN_MERCHANT'));
      if (auth.data.opsToken !== undefined) {
        // An operator's socket hears its merchant's operator audience and nothing of the players.
        const op = deps.operators ? await deps.operators.resolve(auth.data.opsToken) : null;
        if (!canJoinOps(op, merchant.code)) return next(new Error('UNAUTHORIZED'));
        socket.data = {
          memberId: null, merchantCode: merchant.code, audiences: [opsAudience(merchant.code)],
          control: [operatorRoom(op.id), operatorSessionRoom(operatorSessionKey(auth.data.opsToken))],
        };
        return next();
      }
      let memberId: number | null = null;
      if (auth.data.token) {
        const session = await deps.sessions.resolveForSocket(auth.data.token);
        if (!session || session.merchantCode !== merchant.code) return next(new Error('UNAUTHORIZED'));
        memberId = session.memberId;
      }
      const audiences = [merchantAudience(merchant.code)];
      if (memberId !== null) audiences.push(userAudience(memberId));
      socket.data = { memberId, merchantCode: merchant.code, audiences };
      next();
    } catch (err) {
      deps.log.warn({ err }, 'socket handshake failed');
      next(new Error('HANDSHAKE_FAILED'));
    }
  });

  const connected = socketsConnected.labels({ node: deps.nodeId });
  const received = eventsReceived.labels({ node: deps.nodeId });
  const delivered = eventsDelivered.labels({ node: deps.nodeId });
  // Fan-out debug lines (event id, audience, request id, sockets reached) only when debug is on: checked once.
  const logFanout = (deps.log.isLevelEnabled?.('debug') ?? false) && !!deps.log.debug;

  /**
   * An operator socket asks now and then whether its session still holds (without counting as activity)
   * and closes when it does not: the hooks of onSessionsEnded close sockets at once, but a session that
   * idles out, or one another process ends, has nobody to tell. A failed check keeps the socket (the
   * next one decides): a database hiccup must not throw every desk out.
   */
  function recheckOperator(socket: PortalSocket, token: string) {
    const ops = deps.operators;
    if (!ops || socket.disconnected) return;
    const timer = setInterval(() => {
      ops.check(token).then((op) => {
        if (!canJoinOps(op, socket.data.merchantCode)) socket.disconnect(true);
      }, (err: unknown) => deps.log.warn({ err }, 'operator socket session check failed'));
    }, deps.operatorRecheckMs ?? 60_000);
    timer.unref();
    socket.once('disconnect', () => clearInterval(timer));
  }

  io.on('connection', async (socket: PortalSocket) => {
    const { audiences, memberId, merchantCode } = socket.data;
    connected.inc();
    socket.once('disconnect', () => connected.dec());
    // Junk from a client costs that client its connection and nobody else anything.
    socket.onAny((name: string) => {
      if (!knownEvents.has(name)) socket.disconnect(true);
    });
    socket.on('sync', async (req: unknown, ack: unknown) => {
      const parsed = ZSyncRequest.safeParse(req);
      if (!parsed.success || typeof ack !== 'function') {
        socket.disconnect(true);
        return;
      }
      const reply = await catchUp(parsed.data.last, audiences);
      (ack as (r: TSyncReply) => void)(reply);
    });
    for (const h of hooks) h.attach(socket);
    const auth = ZHandshakeAuth.safeParse(socket.handshake.auth ?? {});
    const last = auth.success && auth.data.last ? { ...auth.data.last } : null;
    // Catch up before joining, so what was missed arrives in order ahead of live events; then join and
    // send whatever committed meanwhile. Live events can still interleave with that last short read:
    // the client applies by seq and drops what it already has.
    if (last) {
      const first = await catchUp(last, audiences);
      if (first.ok) {
        emitAll(socket, first.events);
        for (const e of first.events) last[e.audience] = Math.max(last[e.audience] ?? 0, e.seq);
      }
    }
    await socket.join(socket.data.control ? [...audiences, ...socket.data.control] : audiences);
    if (socket.data.control && auth.success && auth.data.opsToken !== undefined) recheckOperator(socket, auth.data.opsToken);
    socket.emit('hello', { memberId, merchantCode, audiences, nodeId: deps.nodeId });
    if (last && Object.keys(last).length) {
      const second = await catchUp(last, audiences);
      if (second.ok) emitAll(socket, second.events);
    }

    async function catchUp(lastSeqs: Record<string, number>, allowed: string[]): Promise<TSyncReply> {
      const events: TEventEnvelope[] = [];
      try {
        for (const [audience, seq] of Object.entries(lastSeqs)) {
          if (!allowed.includes(audience)) continue;
          const r = await readSince(deps.db, audience, seq);
          if (r.ok) events.push(...r.events);
          else events.push(await resyncEvent(audience, r.reason));
        }
        return { ok: true, events };
      } catch (err) {
        deps.log.warn({ err }, 'catch-up failed');
        return { ok: false, code: 'CATCH_UP_FAILED' };
      }
    }
  });

  /** A resync tells the client to refetch over HTTP; its seq is the audience's current one. */
  async function resyncEvent(audience: string, reason: string): Promise<TEventEnvelope> {
    const r = await deps.db.query<{ seq: number }>('SELECT seq FROM audience_seq WHERE audience = $1', [audience]);
    return {
      id: `resync-${audience}-${Date.now()}`,
      type: 'system.resync',
      v: 1,
      audience,
      seq: r.rows[0]?.seq ?? 0,
      at: new Date().toISOString(),
      payload: { audience, reason },
    };
  }

  // Every node reads the whole bus and delivers to its own sockets.
  // Deliveries are counted by the size of each room on this node (one Map lookup per event).
  const rooms = io.of('/').adapter.rooms;
  // Consecutive events of one audience (one transaction's balance.changed and envelope.grabbed, say) go
  // as ONE `events` frame (runEnd). The order across audiences is kept.
  const unsubscribe = deps.bus.subscribe((events) => {
    let sockets = 0;
    for (let i = 0, j = 0; i < events.length; i = j) {
      j = runEnd(events, i);
      const audience = events[i]!.audience;
      const n = rooms.get(audience)?.size ?? 0;
      if (n === 0) continue;
      emitRun(io.local.to(audience), events, i, j);
      sockets += n * (j - i);
      if (logFanout) for (let k = i; k < j; k++) {
        const x = events[k]!;
        deps.log.debug!({ eventId: x.id, type: x.type, audience: x.audience, requestId: x.requestId, sockets: n }, 'event delivered');
      }
    }
    received.inc(events.length);
    if (sockets) delivered.inc(sockets);
  });

  return {
    io,
    /** Disconnect every socket of a member on every node (logout, disabled account). */
    async disconnectMember(memberId: number) {
      io.in(userAudience(memberId)).disconnectSockets(true);
    },
    /**
     * Disconnect an operator's sockets on every node once sessions of it ended (logout, disabled, roles
     * changed, authenticator reset, password changed elsewhere): a reconnect is judged afresh by canJoinOps.
     * `only`: the sockets of that one session (by token hash); `except`: all but that session's (a password
     * change ends only the others).
     */
    async disconnectOperator(operatorId: number, opts: { only?: string; except?: string } = {}) {
      if (opts.only) io.in(operatorSessionRoom(opts.only)).disconnectSockets(true);
      else if (opts.except) io.in(operatorRoom(operatorId)).except(operatorSessionRoom(opts.except)).disconnectSockets(true);
      else io.in(operatorRoom(operatorId)).disconnectSockets(true);
    },
    async close() {
      unsubscribe();
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
