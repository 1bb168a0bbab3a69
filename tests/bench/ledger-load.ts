/**
 * The ledger bench's throughput phases (used by tests/bench/ledger.ts): seeding N member accounts
 * with balances, and closed-loop / paced load of transfers through the gateway's ledger or through
 * a hand-written SQL transfer, with a pg_stat_activity wait sampler beside each phase.
 */
import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Db, Tx } from '../../gateway/src/db/db.ts';
import { createLedger, systemAccount, InsufficientFunds, type TransferInput } from '../../gateway/src/modules/wallet/ledger.ts';
import { drive, latencyStats, sleep, wallMs, type LatencyStats } from './common.ts';

export const MERCHANT = 'DEMO';
export const CURRENCY = 'PHP';
export const SEED_BALANCE = 1_000_000_000; // minor units per member: no bet of the bench can overdraw it
/** 'game' house rows (shards) made up front, enough for the uncontended baseline (the ledger's default uses 0..15). */
export const HOUSE_ROWS_SEEDED = 1024;

export type Accounts = {
  /** member ids (members.id) and their ledger account ids, same index */
  memberIds: number[];
  memberAccountIds: number[];
  /** the 'game' system account id of each shard 0..HOUSE_ROWS_SEEDED-1 */
  houseIds: number[];
};

/**
 * The house ('game' shards, 'deposit') exists before the members, as on a live system: its account
 * ids are the lowest, so the ledger's account-id lock order takes the house row first.
 * Members: bulk SQL, each credited by one posted deposit transfer with its two entries, so
 * checkLedger holds from the start.
 */
export async function seedAccounts(db: Db, n: number, tag: string): Promise<Accounts> {
  await db.query(
    `INSERT INTO ledger_accounts (merchant_code, kind, currency, shard, allow_negative) SELECT $1, 'game', $2, s, true FROM generate_series(0, $3::int - 1) s
     ON CONFLICT (merchant_code, kind, currency, shard) WHERE member_id IS NULL DO NOTHING`,
    [MERCHANT, CURRENCY, HOUSE_ROWS_SEEDED],
  );
  const houseIds = (await db.query<{ id: number }>(
    `SELECT id FROM ledger_accounts WHERE merchant_code = $1 AND kind = 'game' AND currency = $2 AND member_id IS NULL AND shard < $3 ORDER BY shard`,
    [MERCHANT, CURRENCY, HOUSE_ROWS_SEEDED],
  )).rows.map((r) => r.id);
  const deposit = await systemAccount(db, MERCHANT, 'deposit', CURRENCY, 0);
  return db.tx(async (tx) => {
    const m = await tx.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, account_lower) SELECT $1, $2 || g, $2 || g FROM generate_series(1, $3::int) g RETURNING id`,
      [MERCHANT, `lb${tag}_`, n],
    );
    const memberIds = m.rows.map((r) => r.id).sort((a, b) => a - b);
    const a = await tx.query<{ id: number; member_id: number }>(
      `INSERT INTO ledger_accounts (merchant_code, kind, member_id, currency, balance)
       SELECT $1, 'member', id, $2, $3 FROM unnest($4::bigint[]) AS id RETURNING id, member_id`,
      [MERCHANT, CURRENCY, SEED_BALANCE, memberIds],
    );
    const byMember = new Map(a.rows.map((r) => [r.member_id, r.id]));
    const memberAccountIds = memberIds.map((id) => byMember.get(id)!);
    await tx.query(
      `WITH t AS (
         INSERT INTO ledger_transfers (merchant_code, idempotency_key, request_hash, kind, debit_account_id, credit_account_id, amount, status)
         SELECT $1, 'benchseed:' || acc, 'benchseed', 'deposit', $2, acc, $3, 'posted' FROM unnest($4::bigint[]) AS acc
         RETURNING id, credit_account_id
       )
       INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after)
       SELECT id, credit_account_id, $3, $3 FROM t UNION ALL SELECT id, $2, -$3, 0 FROM t`,
      [MERCHANT, deposit, SEED_BALANCE, memberAccountIds],
    );
    await tx.query('UPDATE ledger_accounts SET balance = balance - $2 WHERE id = $1', [deposit, SEED_BALANCE * n]);
    return { memberIds, memberAccountIds, houseIds };
  });
}

export type Target =
  | { kind: 'ledger'; shards: number }
  | { kind: 'sql'; shards: number; outbox: boolean };

export type LoadSpec = {
  name: string;
  target: Target;
  clients: number;
  seconds: number;
  /** closed loop (each client starts its next transfer when the last one ends) or an open-loop rate */
  rate: number | null;
  /** share of wins (house -> member); the rest are bets (member -> house) */
  winShare: number;
};

export type WaitSample = Record<string, number>;
export type PhaseResult = {
  name: string;
  target: Target;
  clients: number;
  rate: number | null;
  seconds: number;
  ok: number;
  failed: number;
  insufficient: number;
  firstError: string | null;
  transfersPerSec: number;
  latencyMs: LatencyStats;
  /** share of sampled active backends in each wait (pg_stat_activity, every 50 ms) */
  waits: WaitSample;
  waitSamples: number;
  /** CPU time of this (client) process per transfer, microseconds: the Node side of a transfer */
  clientCpuUsPerTransfer: number;
};

let keySeq = 0;

/** One bench transfer on the gateway's ledger (transfer() of a ledger with `shards` system rows). */
function ledgerTransfer(db: Db, shards: number) {
  const ledger = createLedger({ systemShards: shards });
  return (input: TransferInput) => db.tx((tx) => ledger.transfer(tx, input));
}

/**
 * The bare SQL baseline: one transaction, no ledger code, no events. Idempotency row first (its
 * unique key), the member's guarded update, the house update, the two entries; with `outbox`, one
 * outbox row for the member the way emitEvent writes it (audience seq under a row lock).
 */
export async function sqlTransfer(tx: Tx, t: { key: string; kind: string; member: number; memberId: number; house: number; amount: number; bet: boolean; outbox: boolean }) {
  const debit = t.bet ? t.member : t.house;
  const credit = t.bet ? t.house : t.member;
  const ins = await tx.query<{ id: number }>(
    `INSERT INTO ledger_transfers (merchant_code, idempotency_key, request_hash, kind, debit_account_id, credit_account_id, amount, status)
     VALUES ($1, $2, 'sql', $3, $4, $5, $6, 'posted') ON CONFLICT (merchant_code, idempotency_key) DO NOTHING RETURNING id`,
    [MERCHANT, t.key, t.kind, debit, credit, t.amount],
  );
  const id = ins.rows[0]?.id;
  if (id === undefined) return; // a replay: nothing to do
  const memberDelta = t.bet ? -t.amount : t.amount;
  const m = await tx.query<{ balance: number }>(
    'UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1 AND balance + $2 - held >= 0 RETURNING balance',
    [t.member, memberDelta],
  );
  if (!m.rows[0]) throw new InsufficientFunds();
  const h = await tx.query<{ balance: number }>('UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1 RETURNING balance', [t.house, -memberDelta]);
  const entry = 'INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, $3, $4)';
  await tx.query(entry, [id, t.member, memberDelta, m.rows[0].balance]);
  await tx.query(entry, [id, t.house, -memberDelta, h.rows[0]!.balance]);
  if (t.outbox) {
    const audience = `user:${t.memberId}`;
    const payload = { memberId: t.memberId, currency: CURRENCY, balance: m.rows[0].balance, available: m.rows[0].balance, delta: memberDelta, reason: t.kind, transferId: String(id) };
    await tx.query(
      `WITH s AS (
         INSERT INTO audience_seq (audience, seq) VALUES ($3, 1)
         ON CONFLICT (audience) DO UPDATE SET seq = audience_seq.seq + 1 RETURNING seq
       ), o AS (
         INSERT INTO outbox (id, merchant_code, audience, seq, type, v, payload, at)
         SELECT gen_random_uuid(), $1, $3, s.seq, 'balance.changed', 1, $2, now() FROM s RETURNING pos
       )
       INSERT INTO outbox_pending (pos) SELECT pos FROM o`,
      [MERCHANT, JSON.stringify(payload), audience],
    );
  }
}

/** Sample what the bench database's active backends are doing, every `everyMs`, until stopped. */
export function waitSampler(url: string, everyMs = 50) {
  const counts: WaitSample = {};
  let samples = 0;
  let stop = false;
  const c = new pg.Client({ connectionString: url });
  const done = (async () => {
    await c.connect();
    while (!stop) {
      const r = await c.query<{ w: string; n: number }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU/running') AS w, count(*)::int AS n
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' GROUP BY 1`,
      );
      samples++;
      for (const row of r.rows) counts[row.w] = (counts[row.w] ?? 0) + row.n;
      await sleep(everyMs);
    }
    await c.end();
  })();
  return {
    async stop() {
      stop = true;
      await done.catch(() => undefined);
      const total = Object.values(counts).reduce((a, b) => a + b, 0) || 1;
      const waits: WaitSample = {};
      for (const [k, v] of Object.entries(counts).sort((a, b) => b[1] - a[1])) waits[k] = Math.round((v / total) * 1000) / 10;
      return { waits, samples };
    },
  };
}

export async function runLoad(db: Db, url: string, acc: Accounts, spec: LoadSpec): Promise<PhaseResult> {
  const { target } = spec;
  const ledger = target.kind === 'ledger' ? ledgerTransfer(db, target.shards) : null;
  const n = acc.memberIds.length;
  const lat: number[] = [];
  let ok = 0;
  let failed = 0;
  let insufficient = 0;
  let firstError: string | null = null;
  const prefix = `b${process.pid}:${spec.name}:${Date.now().toString(36)}`;
  const fire = async () => {
    const i = randomInt(n);
    const bet = Math.random() >= spec.winShare;
    const amount = 1 + randomInt(bet ? 500 : 900);
    const key = `${prefix}:${++keySeq}`;
    const t0 = wallMs();
    try {
      if (ledger) {
        const member = { member: acc.memberIds[i]! };
        const house = { system: 'game' as const };
        await ledger({ merchant: MERCHANT, currency: CURRENCY, key, kind: bet ? 'bet' : 'win', debit: bet ? member : house, credit: bet ? house : member, amount });
      } else {
        const house = acc.houseIds[target.shards === 1 ? 0 : randomInt(target.shards)]!;
        await db.tx((tx) => sqlTransfer(tx, { key, kind: bet ? 'bet' : 'win', member: acc.memberAccountIds[i]!, memberId: acc.memberIds[i]!, house, amount, bet, outbox: target.kind === 'sql' && target.outbox }));
      }
      ok++;
      lat.push(wallMs() - t0);
    } catch (err) {
      if (err instanceof InsufficientFunds) insufficient++;
      else {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  const sampler = waitSampler(url);
  const cpu0 = process.cpuUsage();
  const d = await drive(
    spec.rate ? { mode: 'rate', rate: spec.rate, seconds: spec.seconds, maxInFlight: spec.clients } : { mode: 'max', seconds: spec.seconds, maxInFlight: spec.clients },
    fire,
  );
  const cpu = process.cpuUsage(cpu0);
  const { waits, samples } = await sampler.stop();
  const elapsed = (d.endedAt - d.startedAt) / 1000;
  return {
    name: spec.name, target, clients: spec.clients, rate: spec.rate, seconds: elapsed,
    ok, failed, insufficient, firstError,
    transfersPerSec: ok / elapsed,
    latencyMs: latencyStats(lat),
    waits, waitSamples: samples,
    clientCpuUsPerTransfer: ok ? (cpu.user + cpu.system) / ok : NaN,
  };
}
