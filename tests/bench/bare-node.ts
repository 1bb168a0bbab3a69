/**
 * Bench child: a bare Socket.IO server, same socket.io version and server options as the gateway,
 * same process model (its own process on 127.0.0.1). Clients authenticate with a token that maps to
 * a member in memory, join `user:{id}` and the merchant room, and receive the same envelopes the
 * gateway sends. No database, no outbox, no bus: the ceiling the gateway is compared to.
 */
import { createServer } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { Server } from 'socket.io';
import { balancePayload, cpuSecondsSince, drive, serveIpc, wallMs, winnerPayload, type ProduceArgs, type ProduceResult } from './common.ts';
import { probeHandlers } from './child-common.ts';

const MERCHANT = 'DEMO';
const http = createServer((_req, res) => {
  res.statusCode = 404;
  res.end();
});
const io = new Server(http, { serveClient: false, maxHttpBufferSize: 16 * 1024, pingInterval: 10_000, pingTimeout: 8_000 });
const byToken = new Map<string, number>();
let members: number[] = [];
const seqs = new Map<string, number>();
/** Broadcast events the clients have fully received (window mode), fed back by the orchestrator. */
let acked = 0;

io.use((socket, next) => {
  const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  const memberId = typeof token === 'string' ? byToken.get(token) : undefined;
  if (memberId === undefined) return next(new Error('UNAUTHORIZED'));
  socket.data = { memberId, audiences: [`merchant:${MERCHANT}`, `user:${memberId}`] };
  next();
});
io.on('connection', (socket) => {
  const { memberId, audiences } = socket.data as { memberId: number; audiences: string[] };
  socket.join(audiences);
  socket.emit('hello', { memberId, merchantCode: MERCHANT, audiences, nodeId: 'bare' });
});

await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
const addr = http.address();
const port = typeof addr === 'object' && addr ? addr.port : 0;

function setup(args: { n: number }) {
  const tokens: string[] = [];
  members = [];
  for (let i = 1; i <= args.n; i++) {
    const t = randomBytes(32).toString('base64url');
    byToken.set(t, i);
    members.push(i);
    tokens.push(t);
  }
  return { memberIds: members, tokens, ms: 0 };
}

async function produce(args: ProduceArgs): Promise<ProduceResult> {
  const ids: string[] = [];
  const at: number[] = [];
  let i = 0;
  acked = 0;
  const cpu0 = process.cpuUsage();
  const broadcast = args.fanout === 'merchant';
  // As the gateway's producer: in rate mode with perTx, `rate` counts batches of perTx events.
  const perFire = args.mode === 'rate' && !broadcast ? Math.max(1, args.perTx ?? 1) : 1;
  const fire = async () => {
    for (let j = 0; j < perFire; j++) fireOne();
  };
  const fireOne = () => {
    const k = i++;
    const memberId = members[k % members.length]!;
    const audience = broadcast ? `merchant:${MERCHANT}` : `user:${memberId}`;
    const seq = (seqs.get(audience) ?? 0) + 1;
    seqs.set(audience, seq);
    const e = broadcast
      ? { id: randomUUID(), type: 'winner.posted', v: 1, audience, seq, at: new Date().toISOString(), payload: winnerPayload(k) }
      : { id: randomUUID(), type: 'balance.changed', v: 1, audience, seq, at: new Date().toISOString(), payload: balancePayload(memberId, k) };
    // Stamped before the emit, like the gateway's commit time: a broadcast's emit is the fan-out itself.
    ids.push(e.id);
    at.push(wallMs());
    io.local.to(audience).emit('event', e);
  };
  const r = await drive(args, fire, () => acked);
  return {
    ids,
    committedAt: Float64Array.from(at),
    failed: 0,
    firstError: null,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    maxBacklog: r.maxBacklog,
    cpuSeconds: cpuSecondsSince(cpu0),
    elapsedSeconds: (r.endedAt - r.startedAt) / 1000,
  };
}

serveIpc({
  ...probeHandlers(),
  info: () => ({ port, db: 'none', bus: 'none', nodeEnv: 'bare', relayPollMs: 0, merchantCode: MERCHANT }),
  setup,
  produce,
  busTimes: () => ({ ids: [], at: new Float64Array(0) }),
  vacuum: () => 0,
  ack: (n: number) => {
    acked = Math.max(acked, n);
    return true;
  },
  sockets: () => io.of('/').sockets.size,
  cleanup: () => ({ deleted: 0 }),
  stop: async () => {
    io.disconnectSockets(true);
    await new Promise<void>((r) => io.close(() => r()));
    setTimeout(() => process.exit(0), 100);
    return true;
  },
});
process.send!({ ready: true, port });
