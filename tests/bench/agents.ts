/**
 * `npm run bench -- --agents [--members N] [--bets N] [--iters N] [--keep] [--out FILE]`: the agent back
 * office at scale (issue 11), on real PostgreSQL (DATABASE_URL, else a throwaway database on
 * 127.0.0.1:5432, dropped at the end unless --keep), with the gateway's own migrations and functions.
 *
 * Data: the tree of tests/bench/agents-tree.ts (seeded; default 1,000,000 members, depth up to 10, top
 * agent 1 with about half of them), inserted through the real members table (its tree_path triggers);
 * --bets (default 10,000,000) bets over the last 30 days, inserted directly as member_bet_hours rows
 * (generate_series; about 2 bets per member-hour row), not replayed through the wallet; 5 % of members
 * with a paid deposit in the period. Then the per-agent rollup is rebuilt (agent_rollup_rebuild, the
 * fold the job runs; its time is printed as the fold throughput).
 *
 * Reported (p50 / p99 ms, sequential calls from one pool, after a warm-up; figures only, no assertions):
 *   - team overview of top agent 1 for the last 7 merchant days up to tomorrow (a live tail since the
 *     watermark included): teamOverview (rollup) beside teamOverviewDirect (the bare SQL of the same
 *     aggregate, per member) in the same run, and teamActiveMembers alone (the part that stays per member);
 *   - downlinePage: the first page of top agent 1, and pages of random agents;
 *   - daily-wages settlement throughput and offer-to-socket latency: printed as not measured (see README).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgDb } from '../../gateway/src/db/db.ts';
import { migrate } from '../../gateway/src/db/migrate.ts';
import { downlinePage } from '../../gateway/src/modules/agents/team-tree.ts';
import { teamActiveMembers, teamOverview, teamOverviewDirect } from '../../gateway/src/modules/agents/team-stats.ts';
import { transfer } from '../../gateway/src/modules/wallet/ledger.ts';
import { generate, rng } from './agents-tree.ts';
import { sequentialLatency, wallMs, type LatencyStats } from './common.ts';
import { preparePg } from './pg-gateway.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOUR = 3600_000;

type Opts = { members: number; bets: number; iters: number; pageIters: number; keep: boolean; out: string };

function parseArgs(argv: string[]): Opts {
  const o: Opts = { members: 1_000_000, bets: 10_000_000, iters: 20, pageIters: 200, keep: false, out: path.join(HERE, 'results', 'agents.json') };
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
    else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --agents [--members N (1000000)] [--bets N (10000000)] [--iters N (20)] [--page-iters N (200)] [--keep] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  if (o.members < 1000) throw new Error('--members must be at least 1000');
  return o;
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  const target = await preparePg('bench_agents');
  const db = createPgDb(target.url, 4);
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
    await step('migrate', () => migrate(db));
    await db.query(`INSERT INTO merchants (code, name) VALUES ('BA', 'Bench agents')`);
    const tree = generate(o.members);
    // Bulk load: the per-agent rollup's delta triggers are off during the load, the rebuild folds everything after.
    await db.query('ALTER TABLE members DISABLE TRIGGER agent_rollup_members');
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
    await db.query('ALTER TABLE member_bet_hours ENABLE TRIGGER agent_rollup_bet_hours');
    await db.query('ALTER TABLE deposits ENABLE TRIGGER agent_rollup_deposits');
    await step('analyze', () => db.query('ANALYZE'));
    const src = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM member_bet_hours')).rows[0]!.n);
    // The fold of everything before the current hour (what the job does each 5 minutes for the new hours).
    await step('rollup rebuild (fold)', () => db.query(`SELECT agent_rollup_rebuild(date_trunc('hour', now(), 'UTC'))`));
    await step('vacuum analyze', () => db.query('VACUUM ANALYZE'));
    const sizes = (await db.query<{ rel: string; mb: number; rows: number }>(`SELECT relname AS rel, round(pg_total_relation_size(oid) / 1048576.0)::int AS mb, reltuples::bigint AS rows FROM pg_class
      WHERE relname IN ('members', 'member_bet_hours', 'agent_team_hours', 'deposits')`)).rows;
    const topSize = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM members WHERE tree_path > '1.' AND tree_path < '1/'`)).rows[0]!.n;
    const foldRate = src / (build['rollup rebuild (fold)']! / 1000);
    console.log(`member_bet_hours rows: ${src.toLocaleString()}; fold ${Math.round(foldRate).toLocaleString()} member-hour rows/s; top agent 1 has ${topSize.toLocaleString()} descendants`);
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
    put('overview 7d top agent: direct SQL', await sequentialLatency(o.iters, () => teamOverviewDirect(db, merchant, 1, range)));
    put('  of which active members (per member)', await sequentialLatency(o.iters, () => teamActiveMembers(db, 1, range)));
    const r = rng(7);
    const mid = tree.agents.filter((a) => tree.depth[a]! >= 3 && tree.depth[a]! <= 6);
    put('overview 7d random agent depth 3-6 (rollup)', await sequentialLatency(o.pageIters, () => teamOverview(db, merchant, mid[Math.floor(r() * mid.length)]!, range)));
    put('downlinePage first page, top agent', await sequentialLatency(o.iters, () => downlinePage(db, 1, {})));
    put('downlinePage, random agents', await sequentialLatency(o.pageIters, () => downlinePage(db, mid[Math.floor(r() * mid.length)]!, {})));
    console.log('daily-wages settlement throughput: not measured (this benchmark is not built yet)');
    console.log('offer-to-downline socket latency at 5,000 sockets: not measured');
    result.stats = stats;
    mkdirSync(path.dirname(o.out), { recursive: true });
    writeFileSync(o.out, JSON.stringify(result, null, 2));
    console.log(`results written to ${o.out}`);
    return 0;
  } finally {
    await db.close();
    if (!o.keep) await target.drop();
    else console.log(`kept database: ${target.url}`);
  }
}
