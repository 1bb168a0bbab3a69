/**
 * `npm run bench -- --tree [--members N] [--bets N] [--iters N] [--out FILE]`: which representation of the
 * agent team tree (issue 11) keeps subtree queries fast at 1,000,000 members and depth 10.
 *
 * On real PostgreSQL (DATABASE_URL, else a throwaway database on 127.0.0.1:5432, dropped at the end) it
 * generates one tree (seeded, same shape every run) and stores it four ways side by side on one table:
 *   - `recursive`: parent_id only, walked with WITH RECURSIVE (what transfers.ts did): the bare baseline
 *     of "no tree structure at all";
 *   - `text_path`: materialized path of ids as text COLLATE "C" ('1.57.2031'), btree, subtree = a range
 *     scan `path > 'p.' AND path < 'p/'` (works on any PostgreSQL and on PGlite, no extension);
 *   - `ltree`: the same path as ltree with a GiST index, subtree = `path <@ 'p'` (needs the extension);
 *   - `closure`: a closure table (ancestor_id, descendant_id, depth), btree both ways.
 * plus `bare`: the same aggregate over a precomputed temp table of the subtree's ids, i.e. the cost of
 * the aggregate alone with the tree lookup taken out; and the same aggregate from the per-member per-hour
 * rollup (`rollup`, `rollup_bare`, `rollup_byhour`: gateway migration 024 member_bet_hours), checked to
 * give the raw-bets answer.
 *
 * Queries, each timed from the client (one connection, sequential, after one warm-up):
 *   (a) subtree of the biggest top agent (~half of all members): count; and valid bets + P&L over 7 days
 *       joined to a bets table (--bets rows over 30 days; default 2,000,000 to keep generation short on
 *       a 2-core machine, the issue's 10,000,000 with --bets 10000000);
 *   (b) a page (20) of an agent's direct downlines with each one's team size, for random agents;
 *   (c) is-descendant (the authorization check) for random pairs, half of them true;
 *   (d) write cost: insert a member under a random agent (path/closure rows maintained), and move a
 *       subtree of ~100-2,000 members under another agent; each in a transaction that is rolled back.
 * Default 1,000,000 members (about 3-4 minutes on 2 cores including generation); --members 100000 for a smoke.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sequentialLatency, wallMs, type LatencyStats } from './common.ts';
import { preparePg } from './pg-gateway.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MAX_DEPTH = 10;

type Opts = { members: number; bets: number; iters: number; heavyIters: number; out: string };

function parseArgs(argv: string[]): Opts {
  const o: Opts = { members: 1_000_000, bets: 2_000_000, iters: 200, heavyIters: 10, out: path.join(HERE, 'results', 'agents-tree.json') };
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
    else if (a === '--heavy-iters') o.heavyIters = num();
    else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --tree [--members N (1000000)] [--bets N (2000000)] [--iters N (200)] [--heavy-iters N (10)] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  if (o.members < 1000) throw new Error('--members must be at least 1000');
  return o;
}

/** mulberry32: the same tree every run. */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Tree = { parent: Int32Array; depth: Int8Array; isAgent: Uint8Array; paths: string[]; agents: number[] };

/**
 * Shape: 4 top agents (ids 1-4) taking 50/20/15/15 % of the members; a chain of agents down to depth 10
 * under top agent 1; then every member joins a random agent of its top agent's team, biased towards the
 * earlier (shallower) agents so most players sit at depth 2-6 and big agents have thousands of direct
 * players; 8 % of members are agents themselves (never at depth 10, the maximum).
 */
export function generate(n: number): Tree {
  const r = rng(11);
  const parent = new Int32Array(n + 1);
  const depth = new Int8Array(n + 1);
  const isAgent = new Uint8Array(n + 1);
  const paths: string[] = new Array(n + 1);
  const teams: number[][] = [[], [], [], []];
  const agents: number[] = [];
  const add = (id: number, p: number, team: number, agent: boolean) => {
    parent[id] = p;
    depth[id] = p ? depth[p]! + 1 : 1;
    paths[id] = p ? `${paths[p]}.${id}` : String(id);
    if (agent && depth[id]! < MAX_DEPTH) {
      isAgent[id] = 1;
      teams[team]!.push(id);
      agents.push(id);
    }
  };
  for (let t = 0; t < 4; t++) add(t + 1, 0, t, true);
  let id = 5;
  for (let d = 2; d <= MAX_DEPTH; d++, id++) add(id, id === 5 ? 1 : id - 1, 0, true); // the depth-10 chain
  const cum = [0.5, 0.7, 0.85, 1];
  for (; id <= n; id++) {
    const x = r();
    const team = cum.findIndex((c) => x < c);
    const pool = teams[team]!;
    const p = pool[Math.floor(pool.length * r() ** 3)]!;
    add(id, p, team, r() < 0.08);
  }
  return { parent, depth, isAgent, paths, agents };
}

/** The subtree predicate of each representation, for descendants (self excluded) of the agent with id $1. */
const SUBTREE: Record<string, string> = {
  recursive: `WITH RECURSIVE sub(id) AS (SELECT id FROM members WHERE parent_id = $1 UNION ALL SELECT m.id FROM members m JOIN sub ON m.parent_id = sub.id) SELECT id FROM sub`,
  text_path: `SELECT d.id FROM members a JOIN members d ON d.path > a.path || '.' AND d.path < a.path || '/' WHERE a.id = $1`,
  ltree: `SELECT d.id FROM members a JOIN members d ON d.lpath <@ a.lpath AND d.id <> a.id WHERE a.id = $1`,
  // descendant_id <> $1 rather than depth > 0: the primary key alone answers it (index-only scan).
  closure: `SELECT descendant_id AS id FROM tree_closure WHERE ancestor_id = $1 AND descendant_id <> $1`,
};

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  const db = await preparePg('bench_tree');
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const result: Record<string, unknown> = { members: o.members, bets: o.bets, iters: o.iters, heavyIters: o.heavyIters };
  try {
    const ltree = await c.query('CREATE EXTENSION IF NOT EXISTS ltree').then(() => true, (e: Error) => {
      console.log(`ltree unavailable (${e.message}): that representation is left out`);
      return false;
    });
    const reps = ['recursive', 'text_path', ...(ltree ? ['ltree'] : []), 'closure'];
    console.log(`tree bench: ${o.members.toLocaleString()} members, ${o.bets.toLocaleString()} bets, representations ${reps.join(', ')}`);

    let t0 = wallMs();
    const tree = generate(o.members);
    await c.query(`CREATE TABLE members (id bigint PRIMARY KEY, parent_id bigint, type int NOT NULL, status text NOT NULL DEFAULT 'active',
      created_at timestamptz NOT NULL, path text COLLATE "C" NOT NULL${ltree ? ', lpath ltree' : ''})`);
    const BATCH = 50_000;
    for (let start = 1; start <= o.members; start += BATCH) {
      const ids: number[] = []; const parents: (number | null)[] = []; const types: number[] = []; const ps: string[] = []; const ages: number[] = [];
      for (let i = start; i < Math.min(start + BATCH, o.members + 1); i++) {
        ids.push(i); parents.push(tree.parent[i] || null); types.push(tree.isAgent[i] ? 1 : 0); ps.push(tree.paths[i]!);
        ages.push(Math.floor(((o.members - i) / o.members) * 365 * 24 * 60)); // later ids joined later: minutes ago
      }
      await c.query(`INSERT INTO members (id, parent_id, type, created_at, path)
        SELECT i, p, t, now() - make_interval(mins => a), pa FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::int[], $5::text[]) AS u(i, p, t, a, pa)`,
        [ids, parents, types, ages, ps]);
    }
    const loadMs = wallMs() - t0;
    const build: Record<string, number> = { load: loadMs };
    t0 = wallMs();
    await c.query('CREATE INDEX members_parent ON members (parent_id, id)');
    build.recursive = wallMs() - t0;
    t0 = wallMs();
    await c.query('CREATE INDEX members_path ON members (path)');
    build.text_path = wallMs() - t0;
    if (ltree) {
      t0 = wallMs();
      await c.query('UPDATE members SET lpath = path::ltree');
      await c.query('CREATE INDEX members_lpath ON members USING gist (lpath)');
      build.ltree = wallMs() - t0;
    }
    t0 = wallMs();
    await c.query(`CREATE TABLE tree_closure (ancestor_id bigint NOT NULL, descendant_id bigint NOT NULL, depth int NOT NULL)`);
    await c.query(`INSERT INTO tree_closure SELECT a.anc::bigint, m.id, array_length(string_to_array(m.path, '.'), 1) - a.ord
      FROM members m, unnest(string_to_array(m.path, '.')) WITH ORDINALITY AS a(anc, ord)`);
    await c.query('ALTER TABLE tree_closure ADD PRIMARY KEY (ancestor_id, descendant_id)');
    await c.query('CREATE INDEX tree_closure_desc ON tree_closure (descendant_id, ancestor_id)');
    build.closure = wallMs() - t0;
    t0 = wallMs();
    await c.query(`CREATE TABLE bets (id bigserial PRIMARY KEY, member_id bigint NOT NULL, placed_at timestamptz NOT NULL, amount bigint NOT NULL, win bigint NOT NULL)`);
    await c.query(`INSERT INTO bets (member_id, placed_at, amount, win)
      SELECT 1 + floor(random() * $1)::bigint, now() - random() * interval '30 days', a, CASE WHEN random() < 0.45 THEN a * 2 ELSE 0 END
      FROM (SELECT (100 * (1 + floor(random() * 500)))::bigint AS a FROM generate_series(1, $2)) g`, [o.members, o.bets]);
    await c.query('CREATE INDEX bets_member_at ON bets (member_id, placed_at) INCLUDE (amount, win)');
    build.bets = wallMs() - t0;
    // The per-member per-hour rollup (gateway migration 024, member_bet_hours), built from the same bets.
    t0 = wallMs();
    await c.query(`CREATE TABLE bet_hours AS SELECT member_id, date_trunc('hour', placed_at, 'UTC') AS hour, count(*)::int AS bet_count,
      sum(amount)::bigint AS valid_bets, sum(win)::bigint AS payout FROM bets GROUP BY 1, 2`);
    await c.query('ALTER TABLE bet_hours ADD PRIMARY KEY (member_id, hour)');
    build.rollup = wallMs() - t0;
    t0 = wallMs();
    await c.query('CREATE INDEX bet_hours_hour ON bet_hours (hour, member_id) INCLUDE (valid_bets, payout)');
    build.rollupHourIndex = wallMs() - t0;
    await c.query('VACUUM ANALYZE members');
    await c.query('VACUUM ANALYZE tree_closure');
    await c.query('VACUUM ANALYZE bets');
    await c.query('VACUUM ANALYZE bet_hours');
    const sizes = (await c.query<{ rel: string; mb: number }>(`SELECT relname AS rel, round(pg_total_relation_size(oid) / 1048576.0)::int AS mb FROM pg_class
      WHERE relname IN ('members', 'members_parent', 'members_path', 'members_lpath', 'tree_closure', 'tree_closure_pkey', 'tree_closure_desc', 'bets', 'bet_hours', 'bet_hours_pkey', 'bet_hours_hour')`)).rows;
    const hist = new Map<number, number>();
    for (let i = 1; i <= o.members; i++) hist.set(tree.depth[i]!, (hist.get(tree.depth[i]!) ?? 0) + 1);
    const top = 1;
    const topSize = Number((await c.query('SELECT count(*) FROM tree_closure WHERE ancestor_id = 1 AND depth > 0')).rows[0].count);
    console.log(`built in ${Object.entries(build).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}`);
    console.log(`depths ${[...hist].sort((a, b) => a[0] - b[0]).map(([d, n]) => `${d}:${n}`).join(' ')}; top agent 1 has ${topSize.toLocaleString()} descendants`);
    console.log(`sizes (MB, with indexes): ${sizes.map((s) => `${s.rel} ${s.mb}`).join(', ')}`);
    Object.assign(result, { buildMs: build, depths: Object.fromEntries(hist), topDescendants: topSize, sizesMb: Object.fromEntries(sizes.map((s) => [s.rel, s.mb])) });

    const r = rng(99);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
    const agentsWithTeams = tree.agents.filter((a) => tree.depth[a]! <= 6);
    const stats: Record<string, Record<string, LatencyStats>> = {};
    const put = (q: string, rep: string, s: LatencyStats) => {
      (stats[q] ??= {})[rep] = s;
      console.log(`${q.padEnd(22)} ${rep.padEnd(10)} p50 ${s.p50.toFixed(2).padStart(9)} ms  p99 ${s.p99.toFixed(2).padStart(9)} ms  (n=${s.count})`);
    };

    // (a) the big subtree: count, then 7-day valid bets and P&L.
    // On a whole UTC hour, so the rollup answers the same period exactly (as a merchant day at a whole-hour offset does).
    const since = "date_trunc('hour', now() - interval '7 days', 'UTC')";
    await c.query(`CREATE TEMP TABLE sub_ids AS ${SUBTREE.closure!}`, [top]);
    await c.query('ALTER TABLE sub_ids ADD PRIMARY KEY (id)');
    await c.query('ANALYZE sub_ids');
    put('a.count', 'bare', await sequentialLatency(o.heavyIters, () => c.query('SELECT count(*) FROM sub_ids')));
    for (const rep of reps) put('a.count', rep, await sequentialLatency(o.heavyIters, () => c.query(`SELECT count(*) FROM (${SUBTREE[rep]!}) s`, [top])));
    const agg = (from: string) => `SELECT count(DISTINCT b.member_id) AS active, coalesce(sum(b.amount), 0) AS valid, coalesce(sum(b.amount - b.win), 0) AS pnl
      FROM (${from}) s JOIN bets b ON b.member_id = s.id AND b.placed_at >= ${since}`;
    put('a.aggregate7d', 'bare', await sequentialLatency(o.heavyIters, () => c.query(agg('SELECT id FROM sub_ids'))));
    for (const rep of reps) put('a.aggregate7d', rep, await sequentialLatency(o.heavyIters, () => c.query(agg(SUBTREE[rep]!), [top])));
    // The same aggregate from the rollup: per member over its hours (the active count needs per-member sums).
    // rollup: subtree by text_path joined to the rollup's primary key (what teamBetTotals does); rollup_bare:
    // the subtree precomputed; rollup_byhour: driven by the hour index, each row's member checked by path.
    const rollupAgg = (inner: string) => `SELECT count(*) FILTER (WHERE vb > 0) AS active, coalesce(sum(vb), 0) AS valid, coalesce(sum(vb - po), 0) AS pnl
      FROM (SELECT h.member_id, sum(h.valid_bets) AS vb, sum(h.payout) AS po FROM ${inner} GROUP BY h.member_id) x`;
    const ROLLUP: Record<string, string> = {
      rollup_bare: rollupAgg(`sub_ids s JOIN bet_hours h ON h.member_id = s.id AND h.hour >= ${since}`),
      rollup: rollupAgg(`(${SUBTREE.text_path!}) s JOIN bet_hours h ON h.member_id = s.id AND h.hour >= ${since}`),
      rollup_byhour: rollupAgg(`bet_hours h JOIN members d ON d.id = h.member_id, (SELECT path FROM members WHERE id = $1) a
        WHERE h.hour >= ${since} AND d.path > a.path || '.' AND d.path < a.path || '/'`),
    };
    const rawAnswer = (await c.query(agg(SUBTREE.text_path!), [top])).rows[0];
    for (const [name, sql] of Object.entries(ROLLUP)) {
      const args = name === 'rollup_bare' ? [] : [top];
      const got = (await c.query(sql, args)).rows[0];
      if (JSON.stringify(got) !== JSON.stringify(rawAnswer)) throw new Error(`${name} answers ${JSON.stringify(got)}, raw bets ${JSON.stringify(rawAnswer)}`);
      put('a.aggregate7d', name, await sequentialLatency(o.heavyIters, () => c.query(sql, args)));
    }

    // (b) a page of direct downlines with team sizes; agents drawn at random (the same ones for every representation).
    const pageAgents = Array.from({ length: o.iters + 1 }, () => pick(agentsWithTeams));
    const TEAM: Record<string, string> = {
      recursive: `(WITH RECURSIVE sub(id) AS (SELECT id FROM members WHERE parent_id = c.id UNION ALL SELECT m.id FROM members m JOIN sub ON m.parent_id = sub.id) SELECT count(*) FROM sub)`,
      text_path: `(SELECT count(*) FROM members d WHERE d.path > c.path || '.' AND d.path < c.path || '/')`,
      ltree: `(SELECT count(*) - 1 FROM members d WHERE d.lpath <@ c.lpath)`,
      closure: `(SELECT count(*) - 1 FROM tree_closure t WHERE t.ancestor_id = c.id)`,
    };
    put('b.downlinePage', 'bare', await sequentialLatency(o.iters, (i) => c.query('SELECT c.id, c.type FROM members c WHERE c.parent_id = $1 ORDER BY c.id LIMIT 20', [pageAgents[i + 1]])));
    for (const rep of reps) {
      put('b.downlinePage', rep, await sequentialLatency(o.iters, (i) => c.query(`SELECT c.id, c.type, ${TEAM[rep]!} AS team FROM members c WHERE c.parent_id = $1 ORDER BY c.id LIMIT 20`, [pageAgents[i + 1]])));
    }
    // The worst page: the biggest top agent's first page, whose rows carry the biggest teams.
    for (const rep of reps) put('b.topAgentPage', rep, await sequentialLatency(o.heavyIters, () => c.query(`SELECT c.id, c.type, ${TEAM[rep]!} AS team FROM members c WHERE c.parent_id = $1 ORDER BY c.id LIMIT 20`, [top])));

    // (c) is-descendant: half the pairs are true (a random member and one of its ancestors), half random.
    const pairs = Array.from({ length: o.iters + 1 }, (_, i) => {
      const m = 1 + Math.floor(r() * o.members);
      if (i % 2 === 0 && tree.parent[m]) {
        const anc = tree.paths[m]!.split('.').map(Number);
        return [anc[Math.floor(r() * (anc.length - 1))]!, m] as const;
      }
      return [pick(tree.agents), m] as const;
    });
    const IS_DESC: Record<string, string> = {
      recursive: `WITH RECURSIVE up(id, parent_id) AS (SELECT id, parent_id FROM members WHERE id = $2 UNION ALL SELECT m.id, m.parent_id FROM members m JOIN up ON m.id = up.parent_id) SELECT EXISTS (SELECT 1 FROM up WHERE id = $1 AND id <> $2) AS ok`,
      text_path: `SELECT EXISTS (SELECT 1 FROM members a, members d WHERE a.id = $1 AND d.id = $2 AND d.path > a.path || '.' AND d.path < a.path || '/') AS ok`,
      ltree: `SELECT EXISTS (SELECT 1 FROM members a, members d WHERE a.id = $1 AND d.id = $2 AND d.lpath <@ a.lpath AND d.id <> a.id) AS ok`,
      closure: `SELECT EXISTS (SELECT 1 FROM tree_closure WHERE ancestor_id = $1 AND descendant_id = $2 AND depth > 0) AS ok`,
    };
    put('c.isDescendant', 'bare', await sequentialLatency(o.iters, (i) => c.query('SELECT id FROM members WHERE id = $1', [pairs[i + 1]![1]])));
    const answers: Record<string, boolean[]> = {};
    for (const rep of reps) {
      const got: boolean[] = (answers[rep] = []);
      put('c.isDescendant', rep, await sequentialLatency(o.iters, async (i) => {
        const x = await c.query<{ ok: boolean }>(IS_DESC[rep]!, [...pairs[i + 1]!]);
        if (i >= 0) got.push(x.rows[0]!.ok);
      }));
    }
    const disagree = reps.filter((rep) => answers[rep]!.some((v, i) => v !== answers.recursive![i]));
    if (disagree.length) throw new Error(`is-descendant answers differ from the recursive walk: ${disagree.join(', ')}`);

    // (d) writes, each rolled back so every iteration sees the same tree.
    const newId = o.members + 1;
    const INSERT: Record<string, (p: number) => string[]> = {
      recursive: (p) => [`INSERT INTO members (id, parent_id, type, created_at, path) VALUES (${newId}, ${p}, 0, now(), '')`],
      text_path: (p) => [`INSERT INTO members (id, parent_id, type, created_at, path) SELECT ${newId}, ${p}, 0, now(), path || '.${newId}' FROM members WHERE id = ${p}`],
      ltree: (p) => [`INSERT INTO members (id, parent_id, type, created_at, path, lpath) SELECT ${newId}, ${p}, 0, now(), '', lpath || '${newId}' FROM members WHERE id = ${p}`],
      closure: (p) => [
        `INSERT INTO members (id, parent_id, type, created_at, path) VALUES (${newId}, ${p}, 0, now(), '')`,
        `INSERT INTO tree_closure SELECT ancestor_id, ${newId}, depth + 1 FROM tree_closure WHERE descendant_id = ${p} UNION ALL SELECT ${newId}, ${newId}, 0`,
      ],
    };
    const insertParents = Array.from({ length: o.iters + 1 }, () => pick(tree.agents));
    for (const rep of reps) {
      put('d.insertMember', rep, await sequentialLatency(o.iters, async (i) => {
        await c.query('BEGIN');
        for (const s of INSERT[rep]!(insertParents[i + 1]!)) await c.query(s);
        await c.query('ROLLBACK');
      }));
    }
    // Subtrees of 100-2,000 members (a mid-size agent changes upline) moved under a top agent of another team.
    const sizeOf = new Map<number, number>();
    for (let i = 1; i <= o.members; i++) for (let p = tree.parent[i]!; p; p = tree.parent[p]!) if (tree.depth[p]! >= 3) sizeOf.set(p, (sizeOf.get(p) ?? 0) + 1);
    const movable = [...sizeOf].filter(([, n]) => n >= 100 && n <= 2000).map(([a]) => a);
    const moves = Array.from({ length: Math.min(o.heavyIters, movable.length) + 1 }, () => pick(movable));
    const MOVE: Record<string, (m: number) => string[]> = {
      recursive: (m) => [`UPDATE members SET parent_id = 4 WHERE id = ${m}`],
      text_path: (m) => [
        `UPDATE members d SET path = n.np || substr(d.path, length(o.op) + 1)
           FROM (SELECT path AS op FROM members WHERE id = ${m}) o, (SELECT path || '.${m}' AS np FROM members WHERE id = 4) n
          WHERE d.path = o.op OR (d.path > o.op || '.' AND d.path < o.op || '/')`,
        `UPDATE members SET parent_id = 4 WHERE id = ${m}`,
      ],
      ltree: (m) => [
        `UPDATE members d SET lpath = CASE WHEN d.id = ${m} THEN n.np ELSE n.np || subpath(d.lpath, nlevel(o.op)) END
           FROM (SELECT lpath AS op FROM members WHERE id = ${m}) o, (SELECT lpath || '${m}' AS np FROM members WHERE id = 4) n
          WHERE d.lpath <@ o.op`,
        `UPDATE members SET parent_id = 4 WHERE id = ${m}`,
      ],
      closure: (m) => [
        `DELETE FROM tree_closure t USING tree_closure sub, tree_closure sup
          WHERE sub.ancestor_id = ${m} AND sup.descendant_id = ${m} AND sup.depth > 0 AND t.ancestor_id = sup.ancestor_id AND t.descendant_id = sub.descendant_id`,
        `INSERT INTO tree_closure SELECT sup.ancestor_id, sub.descendant_id, sup.depth + sub.depth + 1
           FROM tree_closure sup, tree_closure sub WHERE sup.descendant_id = 4 AND sub.ancestor_id = ${m}`,
        `UPDATE members SET parent_id = 4 WHERE id = ${m}`,
      ],
    };
    const moveSizes = moves.slice(1).map((m) => sizeOf.get(m)!);
    result.moveSubtreeSizes = { min: Math.min(...moveSizes), max: Math.max(...moveSizes) };
    for (const rep of reps) {
      put('d.moveSubtree', rep, await sequentialLatency(moves.length - 1, async (i) => {
        await c.query('BEGIN');
        for (const s of MOVE[rep]!(moves[i + 1]!)) await c.query(s);
        await c.query('ROLLBACK');
      }));
    }
    result.stats = stats;
    mkdirSync(path.dirname(o.out), { recursive: true });
    writeFileSync(o.out, JSON.stringify(result, null, 2));
    console.log(`written ${o.out}`);
    return 0;
  } finally {
    await c.end();
    await db.drop();
  }
}
