import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, type Db } from '../../db/db.ts';
import { migratedPgliteDb } from '../../testing/pglite-snapshot.ts';
import { migrate } from '../../db/migrate.ts';
import { reference, seedWorld, type World } from './team-overview.fixture.ts';
import { foldTeamRollup, teamOverview, teamOverviewDirect } from './team-stats.ts';

const HOUR = 3600_000;
const BASE = new Date('2026-03-01T00:00:00Z');

describe('teamOverview', () => {
  let db: Db;
  const worlds: World[] = [];
  beforeAll(async () => {
    db = await migratedPgliteDb();
    await migrate(db);
    await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Overview'), ('UU', 'Other')`);
    for (let s = 1; s <= 3; s++) worlds.push(await seedWorld(db, 'TT', s, BASE, 30));
    // Another merchant's world: never counted, and its agents give zeros to TT.
    worlds.push(await seedWorld(db, 'UU', 9, BASE, 10));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const ranges = [
    { from: BASE, to: new Date(BASE.getTime() + 72 * HOUR) },
    { from: new Date(BASE.getTime() + 24 * HOUR), to: new Date(BASE.getTime() + 48 * HOUR) },
    // Partial hours at both ends (a half-hour GMT offset).
    { from: new Date(BASE.getTime() + 5.5 * HOUR), to: new Date(BASE.getTime() + 40.5 * HOUR) },
  ];

  it('equals a reference computed from the generated tree, bets, deposits and withdrawals, for every member and range', async () => {
    const m = { code: 'TT', agentTypes: [] as number[] };
    let nonZero = 0;
    for (const w of worlds.slice(0, 3)) {
      for (const mem of w.members) {
        for (const range of ranges) {
          const want = reference(w, mem.id, range.from, range.to);
          expect(await teamOverviewDirect(db, m, mem.id, range)).toEqual(want);
          expect(await teamOverview(db, m, mem.id, range)).toEqual(want);
          if (want.validBets && want.deposits && want.withdrawals && want.activeMembers) nonZero++;
        }
      }
    }
    expect(nonZero).toBeGreaterThan(5);
  }, 120_000);

  async function checkAll(tag: string) {
    const m = { code: 'TT', agentTypes: [] as number[] };
    for (const w of worlds.slice(0, 3)) {
      for (const mem of w.members) {
        for (const range of ranges) {
          const want = reference(w, mem.id, range.from, range.to);
          expect(await teamOverview(db, m, mem.id, range), `${tag}: member ${mem.id} ${range.from.toISOString()}`).toEqual(want);
        }
      }
    }
  }
  const pending = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM agent_rollup_deltas')).rows[0]!.n);

  it('rollup: folded, with the watermark inside the ranges (live tail), and after changes to folded hours (deltas), equals the reference', async () => {
    // The worlds were written with past timestamps after the migration's fold: all of them are deltas now.
    expect(await pending()).toBeGreaterThan(0);
    await foldTeamRollup(db);
    expect(await pending()).toBe(0);
    await checkAll('folded');
    // Watermark in the middle of the worlds: the hours after it are read from the sources (the live tail).
    const mid = new Date(BASE.getTime() + 30 * HOUR);
    await db.query('SELECT agent_rollup_rebuild($1)', [mid]);
    expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM agent_team_hours WHERE hour >= $1', [mid])).rows[0]!.n)).toBe(0);
    await checkAll('tail');
    // Changes to folded hours (a rollback of an old bet, a late win row, a member registered with an old
    // time) and to an hour not folded yet: right before and after the next fold.
    const w = worlds[0]!;
    const old = w.hours.filter((h) => h.hour < mid && h.valid > 0).slice(0, 3);
    expect(old.length).toBe(3);
    for (const h of old) {
      await db.query('UPDATE member_bet_hours SET bet_count = bet_count - 1, valid_bets = valid_bets - 100 WHERE member_id = $1 AND hour = $2', [h.member, h.hour]);
      h.bets -= 1; h.valid -= 100;
    }
    const late = w.members[w.members.length - 1]!;
    const lateHour = new Date(BASE.getTime() + 2 * HOUR);
    if (!w.hours.some((h) => h.member === late.id && h.hour.getTime() === lateHour.getTime())) {
      await db.query('INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout) VALUES ($1, $2, 2, 700, 50)', [late.id, lateHour]);
      w.hours.push({ member: late.id, hour: lateHour, bets: 2, valid: 700, payout: 50 });
    }
    const createdAt = new Date(BASE.getTime() + 3 * HOUR + 60_000);
    const nm = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, account_lower, type, parent_id, created_at) VALUES ('TT', 'latecomer', 'latecomer', 2, $1, $2) RETURNING id`,
      [w.members[0]!.id, createdAt],
    );
    w.members.push({ id: nm.rows[0]!.id, parent: w.members[0]!.id, type: 2, createdAt });
    expect(await pending()).toBe(old.length + 2);
    await checkAll('deltas pending');
    await foldTeamRollup(db, new Date(BASE.getTime() + 50 * HOUR), 0);
    expect(await pending()).toBe(0);
    await checkAll('deltas folded');
    // Folding again changes nothing (a second node, a retried job).
    await foldTeamRollup(db, new Date(BASE.getTime() + 50 * HOUR), 0);
    await checkAll('refolded');
  }, 120_000);

  const activeRows = async () =>
    (await db.query<{ agent_id: string; hour: Date; prev_hour: Date; n: number }>(
      'SELECT agent_id::text, hour, prev_hour, n FROM agent_active_hours WHERE n <> 0 ORDER BY agent_id, hour, prev_hour')).rows;
  const countRows = async () =>
    (await db.query('SELECT agent_id::text, type, team, direct FROM agent_team_counts WHERE team <> 0 OR direct <> 0 ORDER BY agent_id, type')).rows;

  it('active members stay exact through late changes to folded hours (an hour made inactive, a bet row in an old hour, an hour active again), pending and folded, and the fold equals a rebuild', async () => {
    const w = worlds[1]!;
    const wm = new Date((await db.query<{ f: Date }>('SELECT folded_to AS f FROM agent_rollup_state')).rows[0]!.f);
    expect(wm.getTime()).toBe(BASE.getTime() + 50 * HOUR);
    // Members with two or more active folded hours: make the middle or first one inactive (the next entry's previous hour changes).
    const byMember = new Map<number, typeof w.hours>();
    for (const h of w.hours) if (h.valid > 0 && h.hour < wm) (byMember.get(h.member) ?? byMember.set(h.member, []).get(h.member)!).push(h);
    const multi = [...byMember.values()].filter((l) => l.length >= 2).slice(0, 4);
    expect(multi.length).toBeGreaterThan(1);
    for (const l of multi) {
      const h = l.sort((x, y) => x.hour.getTime() - y.hour.getTime())[0]!;
      await db.query('UPDATE member_bet_hours SET valid_bets = 0 WHERE member_id = $1 AND hour = $2', [h.member, h.hour]);
      h.valid = 0;
    }
    // A bet row written into an old hour between a member's active hours, and before its first.
    for (const l of multi.slice(0, 2)) {
      const m = l[0]!.member;
      for (const hour of [new Date(l[1]!.hour.getTime() - HOUR), new Date(BASE.getTime() + 1 * HOUR)]) {
        if (w.hours.some((h) => h.member === m && h.hour.getTime() === hour.getTime())) continue;
        await db.query('INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout) VALUES ($1, $2, 1, 300, 0)', [m, hour]);
        w.hours.push({ member: m, hour, bets: 1, valid: 300, payout: 0 });
      }
    }
    // An inactive folded hour made active again.
    const idle = w.hours.find((h) => h.valid === 0 && h.hour < wm && !multi.some((l) => l[0]!.member === h.member));
    if (idle) {
      await db.query('UPDATE member_bet_hours SET valid_bets = 900, bet_count = bet_count + 1 WHERE member_id = $1 AND hour = $2', [idle.member, idle.hour]);
      idle.valid = 900; idle.bets += 1;
    }
    expect(await pending()).toBeGreaterThan(multi.length);
    await checkAll('late changes pending');
    await foldTeamRollup(db, new Date(BASE.getTime() + 50 * HOUR), 0);
    expect(await pending()).toBe(0);
    await checkAll('late changes folded');
    // The incremental chains equal the ones a rebuild computes from scratch.
    const incremental = await activeRows();
    // ... and so do the per-hour totals the overview reads when its range ends at the watermark (migration 066).
    const totals = async () => (await db.query(
      'SELECT agent_id::text, hour, active_members, active_next FROM agent_team_hours WHERE active_members <> 0 OR active_next <> 0 ORDER BY agent_id, hour')).rows;
    const incrementalTotals = await totals();
    expect(incrementalTotals.length).toBeGreaterThan(0);
    await db.query('SELECT agent_rollup_rebuild($1)', [wm]);
    expect(await activeRows()).toEqual(incremental);
    expect(await totals()).toEqual(incrementalTotals);
    await checkAll('rebuilt');
  }, 120_000);

  it('team, direct and agent counts are exact right after a registration, a set-as-agent and a move, and equal a recount', async () => {
    const w = worlds[2]!;
    const m = { code: 'TT', agentTypes: [] as number[] };
    const range = ranges[0]!;
    const counts = async (id: number) => {
      const o = await teamOverview(db, m, id, range);
      return { teamSize: o.teamSize, directCount: o.directCount, agentCount: o.agentCount };
    };
    const want = (id: number) => {
      const o = reference(w, id, range.from, range.to);
      return { teamSize: o.teamSize, directCount: o.directCount, agentCount: o.agentCount };
    };
    const checkCounts = async (tag: string) => {
      for (const mem of w.members) expect(await counts(mem.id), `${tag}: member ${mem.id}`).toEqual(want(mem.id));
    };
    await checkCounts('seeded');
    // Set as agent: a player of the team becomes an agent.
    const player = w.members.find((x) => x.type === 0 && x.parent !== null)!;
    await db.query('UPDATE members SET type = 2 WHERE id = $1', [player.id]);
    player.type = 2;
    await checkCounts('set as agent');
    // A registration under a deep member.
    const deep = w.members[w.members.length - 1]!;
    const createdAt = new Date(BASE.getTime() + 80 * HOUR);
    const nm = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, account_lower, type, parent_id, created_at) VALUES ('TT', 'counted', 'counted', 0, $1, $2) RETURNING id`,
      [deep.id, createdAt]);
    w.members.push({ id: nm.rows[0]!.id, parent: deep.id, type: 0, createdAt });
    await checkCounts('registered');
    // A move: a member with a team goes under another top-level member (not in its own team).
    const parents = new Set(w.members.map((x) => x.parent));
    const withTeam = w.members.find((x) => x.parent !== null && parents.has(x.id))!;
    const inTeam = (id: number): boolean => {
      let cur = w.members.find((x) => x.id === id);
      while (cur) {
        if (cur.id === withTeam.id) return true;
        cur = cur.parent === null ? undefined : w.members.find((x) => x.id === cur!.parent);
      }
      return false;
    };
    const target = w.members.find((x) => x.id !== withTeam.parent && !inTeam(x.id))!;
    await db.query('UPDATE members SET parent_id = $2 WHERE id = $1', [withTeam.id, target.id]);
    withTeam.parent = target.id;
    await checkCounts('moved');
    const kept = await countRows();
    await db.query('SELECT agent_team_counts_rebuild()');
    expect(await countRows()).toEqual(kept);
    // The bet figures follow the move after a rebuild (moves are not covered by the incremental fold).
    await db.query(`SELECT agent_rollup_rebuild((SELECT folded_to FROM agent_rollup_state))`);
    await checkAll('after move and rebuild');
  }, 120_000);

  it('the live tail follows a move at once: the moved team\'s live bet rows take the new path (migration 045) and every tail range equals the reference', async () => {
    const w = worlds[1]!;
    const m = { code: 'TT', agentTypes: [] as number[] };
    const mid = new Date(BASE.getTime() + 30 * HOUR);
    await db.query('SELECT agent_rollup_rebuild($1)', [mid]);
    // Ranges inside the live tail (after the watermark; the second with partial hours at both ends).
    const tail = [
      { from: mid, to: new Date(BASE.getTime() + 72 * HOUR) },
      { from: new Date(mid.getTime() + 0.5 * HOUR), to: new Date(BASE.getTime() + 60.5 * HOUR) },
    ];
    const byId = new Map(w.members.map((x) => [x.id, x]));
    const under = (id: number, anc: number): boolean => {
      for (let cur = byId.get(id); cur; cur = cur.parent === null ? undefined : byId.get(cur.parent)) if (cur.id === anc) return true;
      return false;
    };
    // A member with a team, some of it betting in the live hours, moved under a member outside its team.
    const live = w.hours.filter((h) => h.hour >= mid && h.valid > 0);
    const parents = new Set(w.members.map((x) => x.parent));
    const moved = w.members.find((x) => x.parent !== null && parents.has(x.id) && live.some((h) => h.member !== x.id && under(h.member, x.id)))!;
    expect(moved).toBeDefined();
    const target = w.members.find((x) => x.id !== moved.parent && !under(x.id, moved.id))!;
    const check = async (tag: string) => {
      for (const mem of w.members) {
        for (const range of tail) {
          const want = reference(w, mem.id, range.from, range.to);
          expect(await teamOverview(db, m, mem.id, range), `${tag}: member ${mem.id} ${range.from.toISOString()}`).toEqual(want);
          expect(await teamOverviewDirect(db, m, mem.id, range), `${tag} (direct): member ${mem.id}`).toEqual(want);
        }
      }
    };
    await check('before the move');
    await db.query('UPDATE members SET parent_id = $2 WHERE id = $1', [moved.id, target.id]);
    moved.parent = target.id;
    await check('after the move');
    // The invariant: every live row holds its member's current path.
    const stale = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM member_bet_hours h JOIN members x ON x.id = h.member_id
        WHERE h.hour >= (SELECT folded_to FROM agent_rollup_state) AND h.tree_path IS DISTINCT FROM x.tree_path`);
    expect(Number(stale.rows[0]!.n)).toBe(0);
    // A bet row of a moved member written after the move takes the new path too.
    const deepMoved = w.members.find((x) => x.id !== moved.id && under(x.id, moved.id))!;
    const newHour = new Date(BASE.getTime() + 70 * HOUR);
    if (!w.hours.some((h) => h.member === deepMoved.id && h.hour.getTime() === newHour.getTime())) {
      await db.query('INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout) VALUES ($1, $2, 3, 900, 0)', [deepMoved.id, newHour]);
      w.hours.push({ member: deepMoved.id, hour: newHour, bets: 3, valid: 900, payout: 0 });
    }
    await check('a new row after the move');
  }, 120_000);

  it('another merchant\'s agent, an unknown id or a non-id gives zeros; a bad range is a 4xx', async () => {
    const m = { code: 'TT', agentTypes: [] as number[] };
    const other = worlds[3]!.members[0]!.id;
    for (const id of [other, 99_999_999, Number.NaN]) {
      const o = await teamOverview(db, m, id, ranges[0]!);
      expect(Object.values(o).every((v) => v === 0)).toBe(true);
    }
    await expect(teamOverview(db, m, worlds[0]!.members[0]!.id, { from: BASE, to: BASE })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});

describe('the team rollup job', () => {
  it('folds closed hours on the job queue, once per period, and a second run of the same period does nothing', async () => {
    const { pino } = await import('pino');
    const { createQueue } = await import('../../jobs/job-queue.ts');
    const { createTableBackend } = await import('../../jobs/table-runner.ts');
    const { registerTeamRollupJob, TEAM_ROLLUP_JOB } = await import('./team-stats.ts');
    const db = await createPgliteDb(null);
    try {
      await migrate(db);
      await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Job')`);
      const w = await seedWorld(db, 'TT', 21, BASE, 15);
      // Seeded with past times: deltas until the job folds them.
      expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM agent_rollup_deltas')).rows[0]!.n)).toBeGreaterThan(0);
      const q = createQueue({ db, log: pino({ level: 'silent' }), backend: createTableBackend({ pollMs: 20 }) });
      registerTeamRollupJob(q, db);
      await q.start();
      try {
        const key = new Date(Math.floor(Date.now() / 300_000) * 300_000).toISOString();
        expect((await q.runNow(TEAM_ROLLUP_JOB, key)).state).toBe('done');
        expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM agent_rollup_deltas')).rows[0]!.n)).toBe(0);
        const before = (await db.query('SELECT * FROM agent_team_hours ORDER BY agent_id, hour')).rows;
        expect((await q.runNow(TEAM_ROLLUP_JOB, key)).state).toBe('done');
        expect((await db.query('SELECT * FROM agent_team_hours ORDER BY agent_id, hour')).rows).toEqual(before);
        const range = { from: BASE, to: new Date(BASE.getTime() + 72 * HOUR) };
        const top = w.members[0]!.id;
        expect(await teamOverview(db, { code: 'TT', agentTypes: [] }, top, range)).toEqual(reference(w, top, range.from, range.to));
      } finally {
        await q.stop();
      }
    } finally {
      await db.close();
    }
  }, 120_000);
});
