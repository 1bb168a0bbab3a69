/**
 * Bench child: the real gateway (createPortal: database, migrations, outbox relay, bus, Socket.IO
 * realtime) on 127.0.0.1, plus a producer that commits events the way a use case does: a database
 * transaction that calls emitEvent (or emitEvents for a batch). Commit -> outbox -> relay -> bus ->
 * Socket.IO room `user:{id}`, or `merchant:{code}` for a broadcast.
 */
import { loadConfig } from '@portal/gateway/app/config';
import { emitEvent, emitEvents, type NewEvent } from '@portal/gateway/bus/outbox';
import { startRelay } from '@portal/gateway/bus/relay';
import { createPgDb, groupCommitStats } from '@portal/gateway/db/db';
import { merchantAudience, userAudience } from '@portal/contracts/events/events';
import { balancePayload, cpuSecondsSince, drive, serveIpc, wallMs, winnerPayload, type ProduceArgs, type ProduceResult } from './common.ts';
import { probeHandlers } from './child-common.ts';
import { startSeededPortal } from './seeded-portal.ts';
import { createAgentContracts } from '@portal/gateway/modules/agents/contracts-service';
import type { Db } from '@portal/gateway/db/db';

const runTag = process.env.BENCH_TAG ?? `${Date.now().toString(36)}`;
const config = loadConfig({
  // Production mode by default: what a deployed node runs (no dev routes, no dev tap).
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATA_DIR: ':memory:',
  // The demo merchant is seeded below without its accounts: production refuses SEED=demo.
  SEED: 'none',
  BUS_STREAM: `bench:${runTag}`,
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
});
const portal = await startSeededPortal(config, config.SEED_CATALOGUE);
const port = await portal.listen(0, '127.0.0.1');
const merchant = await portal.merchants.resolve({});
if (!merchant) throw new Error('no default merchant (seed missing?)');
const merchantCode = merchant.code;
const db = portal.db;

/**
 * Experiment (--relay-own-pool): a second relay on its own 2-connection pool, beside the one
 * createPortal starts on the shared request pool. Both take the same advisory lock, so only one
 * publishes at a time; this shows what a relay that never waits for a pooled connection gives.
 */
const extraRelay = process.env.BENCH_RELAY_OWN_POOL === '1' && config.DATABASE_URL
  ? (() => {
      const relayDb = createPgDb(config.DATABASE_URL!, 2);
      const r = startRelay(relayDb, portal.bus, portal.log, config.RELAY_POLL_MS);
      return { stop: async () => { await r.stop(); await relayDb.close(); } };
    })()
  : null;

let members: number[] = [];
/** Broadcast events the clients have fully received (window mode), fed back by the orchestrator. */
let acked = 0;
/** Ids of the broadcasts this bench wrote to the merchant room, deleted by cleanup on a shared database. */
const broadcastIds: string[] = [];

/**
 * Time each event was handed to the bus by the relay, to split commit->client into its two legs.
 * Stamped in publish, before the bus calls the Socket.IO fan-out (a broadcast to N sockets takes
 * tens of ms, which a subscriber registered after realtime's would count on the wrong side).
 */
let busIds: string[] = [];
let busAt: number[] = [];
const publish = portal.bus.publish.bind(portal.bus);
portal.bus.publish = (events) => {
  const t = wallMs();
  for (const e of events) {
    busIds.push(e.id);
    busAt.push(t);
  }
  return publish(events);
};

async function setupMembers(args: { n: number; staleSessions?: boolean }): Promise<{ memberIds: number[]; tokens: string[]; ms: number }> {
  const t0 = wallMs();
  const memberIds: number[] = [];
  const tokens: string[] = [];
  // Members straight into the table (the schema grows: fill account_lower when it exists); sessions
  // through the gateway's own session store, so their shape is always the one the handshake reads.
  const cols = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'members' AND table_schema = current_schema()`,
  );
  const hasLower = cols.rows.some((c) => c.column_name === 'account_lower');
  const BATCH = 1000;
  for (let from = 1; from <= args.n; from += BATCH) {
    const to = Math.min(args.n, from + BATCH - 1);
    const prefix = `bench_${runTag}_`;
    const r = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, nickname, type${hasLower ? ', account_lower' : ''})
       SELECT $1, $2 || g::text, $2 || g::text, 0${hasLower ? ", lower($2 || g::text)" : ''} FROM generate_series($3::int, $4::int) g RETURNING id`,
      [merchantCode, prefix, from, to],
    );
    const ids = r.rows.map((x) => Number(x.id));
    const toks: string[] = new Array(ids.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < ids.length) {
          const k = next++;
          toks[k] = await portal.sessions.create(ids[k]!, merchantCode);
        }
      }),
    );
    memberIds.push(...ids);
    tokens.push(...toks);
  }
  members = memberIds;
  // --stale-sessions: sessions last seen 5 minutes ago, as after a node restart whose browsers made no
  // call in the last minute: every handshake also writes last_seen_at (a WAL flush per write).
  if (args.staleSessions) await db.query(`UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE member_id = ANY($1::bigint[])`, [memberIds]);
  return { memberIds, tokens, ms: wallMs() - t0 };
}

async function produce(args: ProduceArgs): Promise<ProduceResult> {
  if (!members.length) throw new Error('setup first');
  const ids: string[] = [];
  const at: number[] = [];
  let failed = 0;
  let firstError: string | null = null;
  let i = 0;
  acked = 0;
  busIds = [];
  busAt = [];
  const cpu0 = process.cpuUsage();
  const gc0 = { ...(groupCommitStats(db) ?? { alone: 0, batches: 0, batched: 0, batchesFailed: 0 }) };
  // perTx > 1 (batched saturation): several events, to distinct members, in one transaction written
  // by one emitEvents statement, so the database's commit rate stops being the limit and the relay ->
  // bus -> Socket.IO path is measured.
  // In rate mode `rate` counts transactions: perTx events each (the paced 5,000 events/s phase).
  const perTx = args.mode === 'max' || args.mode === 'rate' ? Math.max(1, args.perTx ?? 1) : 1;
  const broadcast = args.fanout === 'merchant';
  // One event per transaction: committed as one statement (db.single) unless the phase asks for db.tx.
  const commit = perTx > 1 || args.commit === 'tx' ? db.tx.bind(db) : db.single.bind(db);
  const fire = async () => {
    try {
      await commit(async (tx) => {
        const sent: string[] = [];
        if (perTx > 1 && !broadcast) {
          // A producer that announces many events in one transaction writes them with one statement.
          const batch: NewEvent[] = [];
          for (let j = 0; j < perTx; j++) {
            const k = i++;
            const memberId = members[k % members.length]!;
            batch.push({ audience: userAudience(memberId), type: 'balance.changed', payload: balancePayload(memberId, k) });
          }
          for (const e of await emitEvents(tx, merchantCode, batch)) sent.push(e.id);
        } else {
          const k = i++;
          const memberId = members[k % members.length]!;
          const e = broadcast
            ? await emitEvent(tx, merchantCode, merchantAudience(merchantCode), 'winner.posted', winnerPayload(k))
            : await emitEvent(tx, merchantCode, userAudience(memberId), 'balance.changed', balancePayload(memberId, k));
          sent.push(e.id);
          if (broadcast) broadcastIds.push(e.id);
        }
        tx.afterCommit(() => {
          const t = wallMs();
          for (const id of sent) {
            ids.push(id);
            at.push(t);
          }
        });
      });
    } catch (err) {
      failed++;
      firstError ??= err instanceof Error ? err.message : String(err);
    }
  };
  const r = await drive(args, fire, () => acked);
  return {
    ids,
    committedAt: Float64Array.from(at),
    failed,
    firstError,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    maxBacklog: r.maxBacklog,
    cpuSeconds: cpuSecondsSince(cpu0),
    elapsedSeconds: (r.endedAt - r.startedAt) / 1000,
    groupCommit: (() => {
      const gc = groupCommitStats(db);
      return gc ? { alone: gc.alone - gc0.alone, batches: gc.batches - gc0.batches, batched: gc.batched - gc0.batched, batchesFailed: gc.batchesFailed - gc0.batchesFailed } : null;
    })(),
  };
}

/**
 * The agent contract offer (the agents bench, `--agents`): the first member set up becomes an agent with
 * a house daily-wages contract and every other one an agent directly under it; `offer` then has it offer
 * terms to its downlines one after the other through the real contracts service (validation, insert,
 * audit, outbox event in one transaction). Its commit time is taken in the transaction's afterCommit; the
 * envelope id of the contract.offered event to the downline is read back from the outbox.
 */
let lastCommit = 0;
const timedDb: Db = Object.assign(Object.create(db) as Db, {
  tx: <T>(fn: Parameters<Db['tx']>[0]) => db.tx(async (tx) => {
    const r = await fn(tx);
    tx.afterCommit(() => {
      lastCommit = wallMs();
    });
    return r as T;
  }),
}) as Db;
const contracts = createAgentContracts({ db: timedDb });
let offerTargets: number[] = [];

async function offerSetup() {
  if (members.length < 2) throw new Error('setup first');
  const [upline, ...downlines] = members;
  await db.query('UPDATE members SET type = 2 WHERE id = ANY($1::bigint[])', [members]);
  await db.query('UPDATE members SET parent_id = $1 WHERE id = ANY($2::bigint[])', [upline, downlines]);
  const terms = { kind: 'dailyWages', rate: 300, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' };
  await db.query(
    `INSERT INTO agent_contracts (merchant_code, kind, upline_id, downline_id, terms, rate, active_members, bet_amount, status, answered_at)
     VALUES ($1, 'dailyWages', NULL, $2, $3, 300, 0, 0, 'active', now())`,
    [merchantCode, upline, JSON.stringify(terms)],
  );
  offerTargets = downlines;
  return { upline, downlines: downlines.length };
}

async function offer(args: { count: number; gapMs: number }) {
  const ids: string[] = [];
  const at: number[] = [];
  let failed = 0;
  let firstError: string | null = null;
  const upline = members[0]!;
  for (let k = 0; k < Math.min(args.count, offerTargets.length); k++) {
    const downlineId = offerTargets[k]!;
    try {
      await contracts.offer(merchant!, upline, { downlineId, terms: { kind: 'dailyWages', rate: 100, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' } });
      const t = lastCommit;
      const e = await db.query<{ id: string }>(
        `SELECT id FROM outbox WHERE audience = $1 AND type = 'contract.offered' ORDER BY pos DESC LIMIT 1`, [userAudience(downlineId)]);
      ids.push(e.rows[0]!.id);
      at.push(t);
    } catch (err) {
      failed++;
      firstError ??= err instanceof Error ? err.message : String(err);
    }
    if (args.gapMs > 0) await new Promise((r) => setTimeout(r, args.gapMs));
  }
  return { ids, committedAt: Float64Array.from(at), failed, firstError };
}

/** Delete what the bench wrote (matters only on a real, shared PostgreSQL). */
async function cleanup() {
  if (!members.length || db.kind !== 'pg') return { deleted: 0 };
  const audiences = members.map((m) => userAudience(m));
  await db.query('DELETE FROM outbox WHERE audience = ANY($1::text[])', [audiences]);
  await db.query('DELETE FROM outbox WHERE id = ANY($1::uuid[])', [broadcastIds]);
  await db.query('DELETE FROM audience_seq WHERE audience = ANY($1::text[])', [audiences]);
  await db.query('DELETE FROM sessions WHERE member_id = ANY($1::bigint[])', [members]);
  if (offerTargets.length) {
    // The agents bench's contracts (and their audit rows), then the tree: children before their upline.
    await db.query('DELETE FROM agent_contract_audit WHERE contract_id IN (SELECT id FROM agent_contracts WHERE downline_id = ANY($1::bigint[]))', [members]);
    await db.query('DELETE FROM agent_contracts WHERE downline_id = ANY($1::bigint[])', [members]);
    await db.query('DELETE FROM members WHERE id = ANY($1::bigint[])', [offerTargets]);
  }
  const r = await db.query('DELETE FROM members WHERE id = ANY($1::bigint[])', [members]);
  return { deleted: r.rowCount };
}

serveIpc({
  ...probeHandlers(),
  info: () => ({ port, db: db.kind, bus: portal.bus.kind, nodeEnv: config.NODE_ENV, relayPollMs: config.RELAY_POLL_MS, merchantCode, relayOwnPool: !!extraRelay }),
  setup: setupMembers,
  offerSetup,
  offer,
  produce,
  busTimes: () => ({ ids: busIds, at: Float64Array.from(busAt) }),
  /**
   * Between phases, what autovacuum does in a deployment (the bench's PostgreSQL may run with it off,
   * PGlite has none): without it every relay pass walks the index entries of all rows marked so far.
   */
  vacuum: async () => {
    const t0 = wallMs();
    await db.query('VACUUM outbox');
    await db.query('VACUUM audience_seq');
    return wallMs() - t0;
  },
  ack: (n: number) => {
    acked = Math.max(acked, n);
    return true;
  },
  sockets: () => portal.io.of('/').sockets.size,
  cleanup,
  stop: async () => {
    await cleanup().catch(() => undefined);
    if (portal.bus.kind === 'redis' && config.REDIS_URL) {
      // The bench's own stream only.
      const { createClient } = await import('redis');
      const c = createClient({ url: config.REDIS_URL });
      await c.connect();
      await c.del(config.BUS_STREAM);
      await c.close();
    }
    await extraRelay?.stop();
    await portal.stop();
    setTimeout(() => process.exit(0), 100);
    return true;
  },
});
process.send!({ ready: true, port });
