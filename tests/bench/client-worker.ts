/**
 * Bench child: holds a share of the N socket.io-client websocket connections and records, for every
 * event received, its envelope id and the wall time it arrived. Checks seq per audience on the way.
 */
import { io as ioClient, type Socket } from 'socket.io-client';
import { serveIpc, sleep, wallMs, type ClientCollect } from './common.ts';
import { probeHandlers } from './child-common.ts';

let sockets: Socket[] = [];
/** Envelope ids of this phase, each once; a reception records its index here, its socket and its time. */
let ids: string[] = [];
let idIndex = new Map<string, number>();
let idOf: number[] = [];
let sockOf: number[] = [];
let at: number[] = [];
let nextSock = 0;
let seqAnomalies = 0;
let unexpectedDisconnects = 0;
let closing = false;
let cpu0 = process.cpuUsage();

function open(url: string, token: string, timeoutMs: number): Promise<Socket> {
  const s = ioClient(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: timeoutMs });
  const last = new Map<string, number>();
  const sock = nextSock++;
  const onEvent = (e: { id: string; audience: string; seq: number }) => {
    const t = wallMs();
    let k = idIndex.get(e.id);
    if (k === undefined) {
      k = ids.length;
      ids.push(e.id);
      idIndex.set(e.id, k);
    }
    idOf.push(k);
    sockOf.push(sock);
    at.push(t);
    const prev = last.get(e.audience);
    if (prev !== undefined && e.seq !== prev + 1) seqAnomalies++;
    last.set(e.audience, e.seq);
  };
  s.on('event', onEvent);
  // Consecutive events of one audience come as one frame (realtime.ts): each counts as a delivery.
  s.on('events', (es: Array<{ id: string; audience: string; seq: number }>) => es.forEach(onEvent));
  s.on('disconnect', () => {
    if (!closing) unexpectedDisconnects++;
  });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      s.close();
      reject(new Error('hello timeout'));
    }, timeoutMs);
    s.once('hello', () => {
      clearTimeout(t);
      resolve(s);
    });
    s.once('connect_error', (err) => {
      clearTimeout(t);
      s.close();
      reject(err);
    });
  });
}

async function connect(args: { url: string; tokens: string[]; concurrency: number; timeoutMs: number }) {
  closing = false;
  unexpectedDisconnects = 0;
  const t0 = wallMs();
  let next = 0;
  let failed = 0;
  let firstError: string | null = null;
  const lane = async () => {
    while (next < args.tokens.length) {
      const token = args.tokens[next++]!;
      try {
        sockets.push(await open(args.url, token, args.timeoutMs));
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, args.concurrency) }, lane));
  return { connected: sockets.length, failed, firstError, ms: wallMs() - t0 };
}

async function disconnect() {
  closing = true;
  for (const s of sockets) s.close();
  sockets = [];
  await sleep(200);
  return true;
}

function reset() {
  ids = [];
  idIndex = new Map();
  idOf = [];
  sockOf = [];
  at = [];
  seqAnomalies = 0;
  cpu0 = process.cpuUsage();
  return true;
}

function collect(): ClientCollect & { unexpectedDisconnects: number; open: number } {
  const d = process.cpuUsage(cpu0);
  return {
    ids,
    idOf: Uint32Array.from(idOf),
    sockOf: Uint32Array.from(sockOf),
    receivedAt: Float64Array.from(at),
    seqAnomalies,
    cpuSeconds: (d.user + d.system) / 1e6,
    unexpectedDisconnects,
    open: sockets.filter((s) => s.connected).length,
  };
}

serveIpc({
  ...probeHandlers(),
  connect,
  disconnect,
  reset,
  count: () => at.length,
  collect,
});
process.send!({ ready: true });
