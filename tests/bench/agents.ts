/**
 * `npm run bench -- --agents [--members N] [--bets N] [--iters N] [--keep] [--out FILE]`: the agent back
 * office at scale (issue 11), on real PostgreSQL (DATABASE_URL, else a throwaway database on
 * 127.0.0.1:5432, dropped at the end unless --keep), with the gateway's own migrations and functions.
 *
 * `--base NAME`: build the data once into the database NAME on 127.0.0.1 (kept, reused while its bench_meta
 * matches --members/--bets) and measure a file copy of it (CREATE DATABASE ... TEMPLATE NAME STRATEGY
 * FILE_COPY), migrated to the current code, the closed hours folded and the current hour given one hour's
 * bets when it has none; `--build-only` stops after the build.
 *
 * Data: the tree of tests/bench/agents-tree.ts (seeded; default 1,000,000 members, depth up to 10, top
 * agent 1 with about half of them), inserted through the real members table (its tree_path triggers);
 * --bets (default 10,000,000) bets over the last 30 days, inserted directly as member_bet_hours rows
 * (generate_series; about 2 bets per member-hour row), not replayed through the wallet; 5 % of members
 * with a paid deposit in the period. The team counters are recounted (agent_team_counts_rebuild; the
 * per-registration trigger is off during the bulk load). Then the per-agent rollup is rebuilt (agent_rollup_rebuild, the
 * fold the job runs; its time is printed as the fold throughput).
 *
 * Reported (p50 / p99 ms, sequential calls from one pool, after a warm-up; figures only, no assertions):
 *   - team overview of top agent 1 for the last 7 merchant days up to tomorrow (a live tail since the
 *     watermark included): teamOverview (rollup) beside teamOverviewDirect (the bare SQL of the same
 *     aggregate, per member; at most 5 runs) in the same run, and teamActiveMembers alone (the per-member
 *     active count the overview used before migration 029; at most 5 runs);
 *   - downlinePage: the first page of top agent 1, and pages of random agents;
 *   - daily-wages settlement: a daily-wages contract on every agent of the tree (the house pays the top
 *     agents, every other agent is paid by its upline, rates falling with depth), yesterday's merchant day
 *     settled by the real settlement code (createAgentSettlement().settleOne: figures, settlePeriod, payout
 *     rows, ledger transfers, events, one transaction), members/s; then settled again: it must insert
 *     nothing and leave payouts, ledger and outbox unchanged (checked); beside the bare SQL of the same
 *     aggregate (every agent's team valid bets for the day from member_bet_hours);
 *   - offer to the downline's socket: a real gateway (gateway-node.ts, its own throwaway database) holding
 *     --sockets (5,000) Socket.IO connections from --clients worker processes (client-worker.ts); an agent
 *     offers --offers contracts one after the other through the real contracts service; latency from the
 *     offer's commit to contract.offered arriving on the downline's socket (--sockets 0 skips it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPgDb } from '../../gateway/src/db/db.ts';
import { migrate } from '../../gateway/src/db/migrate.ts';
import { downlinePage } from '../../gateway/src/modules/agents/team-tree.ts';
import { teamActiveMembers, teamOverview, teamOverviewDirect } from '../../gateway/src/modules/agents/team-stats.ts';
import { transfer } from '../../gateway/src/modules/wallet/ledger.ts';
import { generate, rng } from './agents-tree.ts';
import { sequentialLatency, wallMs, type LatencyStats } from './common.ts';
import { preparePg } from './pg-gateway.ts';
import { periodOf } from '@portal/contracts/domain/agent-periods';
import { createAgentSettlement } from '../../gateway/src/modules/agents/settlement.ts';
import type { Merchant } from '../../gateway/src/modules/merchants/merchant-directory.ts';
import { latencyStats, type ClientCollect, type Res } from './common.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOUR = 3600_000;

type Opts = { members: number; bets: number; iters: number; pageIters: number; keep: boolean; out: string; sockets: number; clients: number; offers: number; settle: boolean; base: string | null; buildOnly: boolean };

function parseArgs(argv: string[]): Opts {
  const o: Opts = { members: 1_000_000, bets: 10_000_000, iters: 20, pageIters: 200, keep: false, out: path.join(HERE, 'results', 'agents.json'), sockets: 5000, clients: 2, offers: 300, settle: true, base: null, buildOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v <= 0) throw new Error(`${a} needs a positive integer`);
      return v;
    };
    if (a === '--members') o.members = num();
    else if (a === '--bets') o.bets = num();
    else if (a === '--iters') o.iters = num();
    else if (a === '--page-iters') o.pageIters = num();
    else if (a === '--keep') o.keep = true;
    else if (a === '--sockets') o.sockets = Number(argv[++i]);
    else if (a === '--clients') o.clients = num();
    else if (a === '--offers') o.offers = num();
    else if (a === '--no-settle') o.settle = false;
    else if (a === '--build-only') o.buildOnly = true;
    else if (a === '--base') {
      o.base = argv[++i] ?? '';
      if (!/^[a-z_][a-z0-9_]{0,40}$/.test(o.base)) throw new Error('--base needs a database name ([a-z_][a-z0-9_]*)');
    }
    else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --agents [--members N (1000000)] [--bets N (10000000)] [--iters N (20)] [--page-iters N (200)] [--sockets N (5000; 0 skips)] [--clients P (2)] [--offers N (300)] [--no-settle] [--keep] [--base DBNAME [--build-only]] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  if (o.members < 1000) throw new Error('--members must be at least 1000');
  if (o.buildOnly && !o.base) throw new Error('--build-only needs --base');
  if (!Number.isInteger(o.sockets) || o.sockets < 0 || (o.sockets > 0 && o.sockets < 2)) throw new Error('--sockets: 0, or at least 2');
  return o;
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  let target = { url: '', drop: async () => {} };
  let db = null as unknown as ReturnType<typeof createPgDb>;
  const result: Record<string, unknown> = { members: o.members, bets: o.bets, iters: o.iters };
  const build: Record<string, number> = {};
  const step = async (name: string, fn: () => Promise<unknown>) => {
    const t0 = wallMs();
    await fn();
    build[name] = wallMs() - t0;
    console.log(`  ${name}: ${(build[name] / 1000).toFixed(1)} s`);
  };
  try {
    console.log(`agents bench: ${o.members.toLocaleString()} members, ${o.bets.toLocaleString()} bets over 30 days`);
    const tree = generate(o.members);
    let src: number;
    if (o.base) {
      // A persistent base database (built once, reused): every run works on a file copy of it.
      src = await ensureBase(o, tree, step);
      if (o.buildOnly) return 0;
      target = await cloneBase(o.base);
      db = createPgDb(target.url, 4);
      await step('migrate (clone of the base)', () => migrate(db));
      await step('live tail (fold closed hours, bets of the current hour)', () => refreshLiveHour(db, o));
    } else {
      target = await preparePg('bench_agents');
      db = createPgDb(target.url, 4);
      src = await buildData(db, o, tree, step);
    }
    const sizes = (await db.query<{ rel: string; mb: number; rows: number }>(`SELECT relname AS rel, round(pg_total_relation_size(oid) / 1048576.0)::int AS mb, reltuples::bigint AS rows FROM pg_class
      WHERE relname IN ('members', 'member_bet_hours', 'agent_team_hours', 'deposits')`)).rows;
    const topSize = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM members WHERE tree_path > '1.' AND tree_path < '1/'`)).rows[0]!.n;
    const foldMs = build['rollup rebuild (fold)'];
    const foldRate = foldMs ? src / (foldMs / 1000) : null;
    console.log(`member_bet_hours rows: ${src.toLocaleString()}; ${foldRate ? `fold ${Math.round(foldRate).toLocaleString()} member-hour rows/s; ` : ''}top agent 1 has ${topSize.toLocaleString()} descendants`);
    console.log(`sizes (MB with indexes / rows): ${sizes.map((s) => `${s.rel} ${s.mb} / ${Number(s.rows).toLocaleString()}`).join(', ')}`);
    Object.assign(result, { buildMs: build, memberBetHourRows: src, foldRowsPerSecond: foldRate, topDescendants: topSize, sizes });

    const stats: Record<string, LatencyStats> = {};
    const put = (name: string, s: LatencyStats) => {
      stats[name] = s;
      console.log(`${name.padEnd(44)} p50 ${s.p50.toFixed(2).padStart(9)} ms  p99 ${s.p99.toFixed(2).padStart(9)} ms  (n=${s.count})`);
    };
    const merchant = { code: 'BA', agentTypes: [] as number[] };
    // 7 merchant days (GMT+8: days start at 16:00 UTC) up to the end of today: the live tail since the watermark included.
    const dayMs = 24 * HOUR;
    const off = 8 * HOUR;
    const todayStart = Math.floor((Date.now() + off) / dayMs) * dayMs - off;
    const range = { from: new Date(todayStart - 6 * dayMs), to: new Date(todayStart + dayMs) };
    const fast = await teamOverview(db, merchant, 1, range);
    const slow = await teamOverviewDirect(db, merchant, 1, range);
    const same = JSON.stringify(fast) === JSON.stringify(slow);
    console.log(`team overview of agent 1, ${range.from.toISOString()} .. ${range.to.toISOString()}: rollup ${same ? '=' : '!='} direct`, fast);
    if (!same) console.log('  direct:', slow);
    result.overviewEqual = same;
    put('overview 7d top agent: teamOverview (rollup)', await sequentialLatency(o.iters, () => teamOverview(db, merchant, 1, range)));
    // The per-member statements take seconds at full size: at most 5 runs each.
    const heavy = Math.min(o.iters, 5);
    put('overview 7d top agent: direct SQL', await sequentialLatency(heavy, () => teamOverviewDirect(db, merchant, 1, range)));
    put('  active members alone, per member (before)', await sequentialLatency(heavy, () => teamActiveMembers(db, 1, range)));
    const r = rng(7);
    const mid = tree.agents.filter((a) => tree.depth[a]! >= 3 && tree.depth[a]! <= 6);
    put('overview 7d random agent depth 3-6 (rollup)', await sequentialLatency(o.pageIters, () => teamOverview(db, merchant, mid[Math.floor(r() * mid.length)]!, range)));
    put('downlinePage first page, top agent', await sequentialLatency(o.iters, () => downlinePage(db, 1, {})));
    put('downlinePage, random agents', await sequentialLatency(o.pageIters, () => downlinePage(db, mid[Math.floor(r() * mid.length)]!, {})));
    if (o.settle) result.settlement = await settlementBench(db, tree, o.members);
    if (o.sockets > 0) {
      const s = await offerLatencyBench(o);
      result.offer = s;
      if (s.stats) put(`offer -> downline socket (${s.sockets} sockets)`, s.stats);
    }
    result.stats = stats;
    mkdirSync(path.dirname(o.out), { recursive: true });
    writeFileSync(o.out, JSON.stringify(result, null, 2));
    console.log(`results written to ${o.out}`);
    return 0;
  } finally {
    await db?.close();
    if (!o.keep) await target.drop();
    else console.log(`kept database: ${target.url}`);
  }
}

type Step = (name: string, fn: () => Promise<unknown>) => Promise<void>;

/** The generated data (members through the real triggers, bet hours, deposits), counters recounted, the rollup rebuilt; returns the member_bet_hours rows. */
async function buildData(db: ReturnType<typeof createPgDb>, o: Opts, tree: ReturnType<typeof generate>, step: Step): Promise<number> {
  await step('migrate', () => migrate(db));
  await db.query(`INSERT INTO merchants (code, name) VALUES ('BA', 'Bench agents')`);
  // Bulk load: the per-agent rollup's delta triggers are off during the load, the rebuild folds everything after.
  await db.query('ALTER TABLE members DISABLE TRIGGER agent_rollup_members');
  await db.query('ALTER TABLE members DISABLE TRIGGER agent_team_counts_insert');
  await db.query('ALTER TABLE member_bet_hours DISABLE TRIGGER agent_rollup_bet_hours');
  await db.query('ALTER TABLE deposits DISABLE TRIGGER agent_rollup_deposits');
  await step('members (tree_path triggers)', async () => {
    const BATCH = 50_000;
    for (let start = 1; start <= o.members; start += BATCH) {
      const ids: number[] = []; const parents: (number | null)[] = []; const types: number[] = []; const ages: number[] = [];
      for (let i = start; i < Math.min(start + BATCH, o.members + 1); i++) {
        ids.push(i); parents.push(tree.parent[i] || null); types.push(tree.isAgent[i] ? 2 : 0);
        ages.push(Math.floor(((o.members - i) / o.members) * 365 * 24 * 60)); // later ids joined later (minutes ago)
      }
      await db.query(`INSERT INTO members (id, merchant_code, account, account_lower, type, parent_id, created_at)
        SELECT i, 'BA', 'u' || i, 'u' || i, t, p, now() - make_interval(mins => a) FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::int[]) AS u(i, p, t, a)
        ORDER BY i`, [ids, parents, types, ages]);
    }
    await db.query(`SELECT setval(pg_get_serial_sequence('members', 'id'), $1)`, [o.members]);
  });
  const hours = 30 * 24;
  await step('member_bet_hours', () => db.query(
    `INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout)
     SELECT member_id, hour, sum(n)::int, sum(n * a), sum(CASE WHEN w THEN n * a * 2 ELSE 0 END)
       FROM (SELECT 1 + floor(random() * $1)::bigint AS member_id,
                    date_trunc('hour', now(), 'UTC') - make_interval(hours => floor(random() * $2)::int) AS hour,
                    1 + floor(random() * 3)::int AS n, (100 * (1 + floor(random() * 500)))::bigint AS a, random() < 0.45 AS w
               FROM generate_series(1, $3::int / 2)) g
      GROUP BY 1, 2`,
    [o.members, hours, o.bets]));
  await step('deposits', async () => {
    const t = await db.tx((tx) => transfer(tx, { merchant: 'BA', currency: 'PHP', key: 'bench:deposit', kind: 'deposit', amount: 1, debit: { system: 'deposit' }, credit: { member: 1 } }));
    await db.query(
      `INSERT INTO deposits (merchant_code, member_id, channel_code, provider, provider_order_id, reference, request_id, amount, currency, status, transfer_id, created_at, updated_at)
       SELECT 'BA', 1 + floor(random() * $1)::bigint, 'C', 'sim', 'b' || g, 'b' || g, 'b' || g, 100 * (1 + floor(random() * 1000))::bigint, 'PHP', 'paid', $2,
              now() - random() * interval '30 days', now() - random() * interval '30 days'
         FROM generate_series(1, $1::int / 20) g`,
      [o.members, t.transferId]);
  });
  await db.query('ALTER TABLE members ENABLE TRIGGER agent_rollup_members');
  await db.query('ALTER TABLE members ENABLE TRIGGER agent_team_counts_insert');
  // The team counters the trigger keeps per registration, recounted once for the bulk load.
  await step('team counters (agent_team_counts_rebuild)', () => db.query('SELECT agent_team_counts_rebuild()'));
  await db.query('ALTER TABLE member_bet_hours ENABLE TRIGGER agent_rollup_bet_hours');
  await db.query('ALTER TABLE deposits ENABLE TRIGGER agent_rollup_deposits');
  await step('analyze', () => db.query('ANALYZE'));
  const src = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM member_bet_hours')).rows[0]!.n);
  // The fold of everything before the current hour (what the job does each 5 minutes for the new hours).
  await step('rollup rebuild (fold)', () => db.query(`SELECT agent_rollup_rebuild(date_trunc('hour', now(), 'UTC'))`));
  await step('vacuum analyze', () => db.query('VACUUM ANALYZE'));
  return src;
}

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const baseUrl = (name: string) => `postgres://postgres@127.0.0.1:5432/${name}`;

/**
 * --base NAME: the database NAME on 127.0.0.1:5432 holds the generated data, built once (its table
 * bench_meta records the size it was built for; another size or an unfinished build is rebuilt). Returns
 * its member_bet_hours rows. The base itself is never measured or changed after its build: see cloneBase.
 */
async function ensureBase(o: Opts, tree: ReturnType<typeof generate>, step: Step): Promise<number> {
  const base = o.base!;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [base])).rowCount! > 0;
    if (exists) {
      const c = new pg.Client({ connectionString: baseUrl(base) });
      await c.connect();
      const meta = await c.query<{ members: number; bets: number; rows: number; built_at: Date }>(
        `SELECT members, bets, rows, built_at FROM bench_meta`).catch(() => null);
      await c.end();
      const m = meta?.rows[0];
      if (m && Number(m.members) === o.members && Number(m.bets) === o.bets) {
        console.log(`base database ${base}: ${o.members.toLocaleString()} members, ${o.bets.toLocaleString()} bets, built ${m.built_at.toISOString()} (reused)`);
        return Number(m.rows);
      }
      console.log(`base database ${base} is of another size or unfinished: rebuilt`);
      await admin.query(`DROP DATABASE ${base} WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE ${base}`);
  } finally {
    await admin.end();
  }
  const db = createPgDb(baseUrl(base), 4);
  try {
    const rows = await buildData(db, o, tree, step);
    await db.query('CREATE TABLE bench_meta (members bigint NOT NULL, bets bigint NOT NULL, rows bigint NOT NULL, built_at timestamptz NOT NULL DEFAULT now())');
    await db.query('INSERT INTO bench_meta (members, bets, rows) VALUES ($1, $2, $3)', [o.members, o.bets, rows]);
    return rows;
  } finally {
    await db.close();
  }
}

/** A file copy of the base (CREATE DATABASE ... TEMPLATE, STRATEGY FILE_COPY): what a run measures and changes, dropped at the end unless --keep. */
async function cloneBase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${base}_run_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const t0 = wallMs();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${base} STRATEGY FILE_COPY`);
  } finally {
    await admin.end();
  }
  console.log(`  clone of ${base} as ${name}: ${((wallMs() - t0) / 1000).toFixed(1)} s`);
  return {
    url: baseUrl(name),
    drop: async () => {
      const d = new pg.Client({ connectionString: ADMIN_URL });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

/**
 * A base built in an earlier hour: fold the hours closed since (what the rollup job does every few
 * minutes), then give the current hour the same load as the generated hours (bets / 2 / 720 member-hour
 * rows, about 2 bets each), so the live tail is one hour of bets as in a fresh build.
 */
async function refreshLiveHour(db: ReturnType<typeof createPgDb>, o: Opts) {
  await db.query(`SELECT agent_rollup_fold(date_trunc('hour', now(), 'UTC'))`);
  const has = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM member_bet_hours WHERE hour >= date_trunc('hour', now(), 'UTC')`)).rows[0]!.n;
  if (has > 0) return;
  await db.query(
    `INSERT INTO member_bet_hours AS h (member_id, hour, bet_count, valid_bets, payout)
     SELECT member_id, date_trunc('hour', now(), 'UTC'), sum(n)::int, sum(n * a), sum(CASE WHEN w THEN n * a * 2 ELSE 0 END)
       FROM (SELECT 1 + floor(random() * $1)::bigint AS member_id,
                    1 + floor(random() * 3)::int AS n, (100 * (1 + floor(random() * 500)))::bigint AS a, random() < 0.45 AS w
               FROM generate_series(1, $2::int)) g
      GROUP BY 1`,
    [o.members, Math.round(o.bets / 2 / 720)]);
  await db.query('ANALYZE member_bet_hours');
}

/** Daily-wages settlement of every contract in the tree by the real settlement code, its rerun, and the bare SQL of its aggregate. */
async function settlementBench(db: ReturnType<typeof createPgDb>, tree: ReturnType<typeof generate>, members: number) {
  const off = 8 * 60;
  const merchant = { code: 'BA', currency: 'PHP', brand: { gmtOffsetMinutes: off }, agentTypes: [], trialTypes: [] } as unknown as Merchant;
  const period = periodOf(Date.now() - 24 * HOUR, 'daily', off);
  const since = new Date(period.start.getTime() - 24 * HOUR);
  const ids: number[] = []; const uplines: (number | null)[] = []; const rates: number[] = [];
  for (const a of tree.agents) {
    ids.push(a);
    uplines.push(tree.parent[a] || null);
    rates.push(Math.max(10, 110 - 10 * tree.depth[a]!));
  }
  const t0 = wallMs();
  await db.query(
    `INSERT INTO agent_contracts (merchant_code, kind, upline_id, downline_id, terms, rate, active_members, bet_amount, status, offered_at, answered_at)
     SELECT 'BA', 'dailyWages', u, d, jsonb_build_object('kind', 'dailyWages', 'rate', r, 'activeMembers', 0, 'betAmount', 0, 'validBetPeriod', 'daily'), r, 0, 0, 'active', $4, $4
       FROM unnest($1::bigint[], $2::bigint[], $3::int[]) AS x(d, u, r)`,
    [ids, uplines, rates, since]);
  await db.query('ANALYZE agent_contracts');
  // Every member has its wallet account, as on a live portal (an account is created at the first deposit or
  // bet). Without them the settlement creates tens of thousands inside its one transaction while the
  // planner's statistics still say ledger_accounts is nearly empty: measured at 7-9 transfers/s against
  // ~160/s with the accounts in place (same data, same load).
  const ta = wallMs();
  await db.query(`INSERT INTO ledger_accounts (merchant_code, kind, member_id, currency) SELECT 'BA', 'member', id, 'PHP' FROM members ON CONFLICT DO NOTHING`);
  await db.query('ANALYZE ledger_accounts');
  console.log(`settlement: a wallet account for every member in ${((wallMs() - ta) / 1000).toFixed(1)} s`);
  console.log(`settlement: ${ids.length.toLocaleString()} daily-wages contracts (every agent) inserted in ${((wallMs() - t0) / 1000).toFixed(1)} s; period ${period.key} (${period.start.toISOString()} .. ${period.end.toISOString()})`);
  const svc = createAgentSettlement({ db, merchants: { all: async () => [merchant] } });
  const snapshot = async () => (await db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM agent_payouts)::text AS payouts, (SELECT coalesce(sum(amount), 0) FROM agent_payouts)::text AS paid,
            (SELECT count(*) FROM agent_payouts WHERE status = 'unfunded')::text AS unfunded,
            (SELECT count(*) FROM ledger_transfers)::text AS transfers, (SELECT count(*) FROM ledger_entries)::text AS entries,
            (SELECT coalesce(sum(balance * (id % 9973)), 0) FROM ledger_accounts)::text AS balances,
            (SELECT count(*) FROM outbox)::text AS events`)).rows[0]!;
  const t1 = wallMs();
  const first = await svc.settleOne(merchant, 'dailyWages', period);
  const firstMs = wallMs() - t1;
  const after = await snapshot();
  const t2 = wallMs();
  const again = await svc.settleOne(merchant, 'dailyWages', period);
  const againMs = wallMs() - t2;
  const afterAgain = await snapshot();
  const unchanged = again.inserted === 0 && JSON.stringify(after) === JSON.stringify(afterAgain);
  const [h0, h1] = [new Date(Math.ceil(period.start.getTime() / HOUR) * HOUR), new Date(Math.floor(period.end.getTime() / HOUR) * HOUR)];
  const t3 = wallMs();
  const bare = await db.query<{ agents: number; vb: string }>(
    `SELECT count(*)::int AS agents, sum(vb)::text AS vb FROM (
       SELECT a.anc, sum(h.valid_bets) AS vb FROM member_bet_hours h JOIN members m ON m.id = h.member_id
         CROSS JOIN LATERAL unnest(string_to_array(m.tree_path, '.')) AS a(anc)
        WHERE h.hour >= $1 AND h.hour < $2 GROUP BY 1) x`, [h0, h1]);
  const bareMs = wallMs() - t3;
  const out = {
    contracts: ids.length, periodKey: period.key, first, firstMs, membersPerSecond: members / (firstMs / 1000), contractsPerSecond: ids.length / (firstMs / 1000),
    after, rerun: again, rerunMs: againMs, rerunUnchanged: unchanged, bareAggregateMs: bareMs, bareAgents: bare.rows[0]!.agents,
  };
  console.log(`settlement of ${ids.length.toLocaleString()} contracts over ${members.toLocaleString()} members: ${(firstMs / 1000).toFixed(1)} s = ${Math.round(out.membersPerSecond).toLocaleString()} members/s `
    + `(${first.inserted} payouts, ${first.paid} paid, ${first.unfunded} unfunded); rerun ${(againMs / 1000).toFixed(2)} s, inserted ${again.inserted}, `
    + `payouts/ledger/outbox ${unchanged ? 'unchanged' : 'CHANGED'}; bare SQL of the aggregate (team valid bets of every agent for the day) ${(bareMs / 1000).toFixed(2)} s`);
  return out;
}

/** A bench child over IPC (the protocol of common.ts serveIpc). */
function child(file: string, env: Record<string, string | undefined>) {
  const proc: ChildProcess = fork(path.join(HERE, file), [], {
    cwd: path.resolve(HERE, '../..'), execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const ready = new Promise<void>((resolve, reject) => {
    proc.on('message', (m: Res & { ready?: boolean }) => {
      if (m.ready) return resolve();
      const p = pending.get(m.reqId);
      if (!p) return;
      pending.delete(m.reqId);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(`${file}: ${m.error}`));
    });
    proc.on('exit', (code) => {
      reject(new Error(`${file} exited (${code})`));
      for (const p of pending.values()) p.reject(new Error(`${file} exited (${code})`));
    });
  });
  return {
    ready,
    call: <T>(cmd: string, args?: unknown) => new Promise<T>((resolve, reject) => {
      const reqId = ++seq;
      pending.set(reqId, { resolve: resolve as (v: unknown) => void, reject });
      proc.send({ reqId, cmd, args });
    }),
    kill: () => {
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
    stopped: () => new Promise<void>((r) => (proc.exitCode !== null ? r() : proc.once('exit', () => r()))),
  };
}

/** Offer -> contract.offered on the downline's socket, with o.sockets connected to a real gateway. */
async function offerLatencyBench(o: Opts) {
  const rt = await preparePg('bench_agents_rt');
  const gw = child('gateway-node.ts', { DATABASE_URL: rt.url, SEED_CATALOGUE: 'small' });
  const clients = Array.from({ length: o.clients }, () => child('client-worker.ts', {}));
  try {
    await gw.ready;
    await Promise.all(clients.map((c) => c.ready));
    const info = await gw.call<{ port: number }>('info');
    const setup = await gw.call<{ tokens: string[]; memberIds: number[] }>('setup', { n: o.sockets });
    const ag = await gw.call<{ upline: number; downlines: number }>('offerSetup');
    const share = Math.ceil(setup.tokens.length / clients.length);
    const conn = await Promise.all(clients.map((c, i) => c.call<{ connected: number; failed: number; firstError: string | null }>('connect',
      { url: `http://127.0.0.1:${info.port}`, tokens: setup.tokens.slice(i * share, (i + 1) * share), concurrency: 50, timeoutMs: 30_000 })));
    const connected = conn.reduce((s, c) => s + c.connected, 0);
    const open = await gw.call<number>('sockets');
    console.log(`offer bench: gateway on :${info.port}, ${open} sockets open (${connected} connected, ${conn.reduce((s, c) => s + c.failed, 0)} failed${conn.find((c) => c.firstError)?.firstError ? `: ${conn.find((c) => c.firstError)!.firstError}` : ''}); agent ${ag.upline} with ${ag.downlines} downlines`);
    await Promise.all(clients.map((c) => c.call('reset')));
    const warm = Math.min(20, Math.floor(ag.downlines / 10));
    const produced = await gw.call<{ ids: string[]; committedAt: Float64Array; failed: number; firstError: string | null }>('offer', { count: warm + o.offers, gapMs: 20 });
    await new Promise((r) => setTimeout(r, 2000));
    const cols = await Promise.all(clients.map((c) => c.call<ClientCollect>('collect')));
    const commitOf = new Map(produced.ids.map((id, k) => [id, produced.committedAt[k]!]));
    const measured = new Set(produced.ids.slice(warm));
    const lat: number[] = [];
    let missing = measured.size;
    cols.forEach((c, w) => {
      for (let k = 0; k < c.receivedAt.length; k++) {
        if (w === 0 && c.sockOf[k] === 0) continue; // the offering agent's own socket (it is told too)
        const id = c.ids[c.idOf[k]!]!;
        if (!measured.has(id)) continue;
        lat.push(c.receivedAt[k]! - commitOf.get(id)!);
        missing--;
      }
    });
    const stats = lat.length ? latencyStats(lat) : null;
    console.log(`offers: ${produced.ids.length} committed (${warm} warm-up), ${produced.failed} failed${produced.firstError ? ` (${produced.firstError})` : ''}; ${lat.length} received on the downline's socket, ${missing} missing`);
    return { sockets: open, offers: measured.size, failed: produced.failed, received: lat.length, missing, stats };
  } finally {
    await Promise.all(clients.map((c) => c.call('disconnect').catch(() => undefined)));
    await gw.call('stop').catch(() => undefined);
    await Promise.race([gw.stopped(), new Promise((r) => setTimeout(r, 15_000))]);
    gw.kill();
    for (const c of clients) c.kill();
    await rt.drop();
  }
}
