import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, type Db } from '../../db/db.ts';
import { migratedPgliteDb } from '../../testing/pglite-snapshot.ts';
import { migrate, splitSql } from '../../db/migrate.ts';
import { AppError } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { createVendorWallet } from '../provider/vendor-wallet.ts';
import { transfer } from '../wallet/ledger.ts';
import { splitPeriod, teamBetTotals, teamOverview } from './team-stats.ts';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
const ROLLUP_MIGRATION = '025_member_bet_hours.sql';
const HOUR = 3600_000;

let seq = 0;
async function member(db: Db, parentId: number | null, merchant = 'TT') {
  const account = `m${++seq}`;
  const r = await db.query<{ id: number }>(
    `INSERT INTO members (merchant_code, account, account_lower, type, parent_id) VALUES ($1, $2, lower($2), 1, $3) RETURNING id`,
    [merchant, account, parentId],
  );
  return r.rows[0]!.id;
}

/** The rollup as vendor_transactions says it should be: applied bets and paid wins per member per UTC hour. */
const RAW_BY_HOUR = `
  SELECT member_id, hour, bet_count, valid_bets, payout, payout - valid_bets AS profit_loss FROM (
    SELECT member_id, date_trunc('hour', created_at, 'UTC') AS hour,
           count(*) FILTER (WHERE kind = 'bet')::int AS bet_count,
           coalesce(sum(amount) FILTER (WHERE kind = 'bet'), 0)::bigint AS valid_bets,
           coalesce(sum(amount) FILTER (WHERE kind = 'win'), 0)::bigint AS payout
      FROM vendor_transactions WHERE status = 'applied' AND kind IN ('bet', 'win') GROUP BY 1, 2) x
   WHERE bet_count <> 0 OR valid_bets <> 0 OR payout <> 0`;
const ROLLUP = `SELECT member_id, hour, bet_count, valid_bets, payout, profit_loss FROM member_bet_hours
   WHERE bet_count <> 0 OR valid_bets <> 0 OR payout <> 0`;
const ordered = (sql: string) => `${sql} ORDER BY member_id, hour`;

describe('member_bet_hours kept by vendor_money', () => {
  let db: Db;
  const m = { code: 'TT', currency: 'PHP', trialTypes: [] as number[] } as unknown as Merchant;
  const players: { id: number; token: string }[] = [];

  beforeAll(async () => {
    db = await migratedPgliteDb();
    await migrate(db);
    await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Rollup')`);
    const top = await member(db, null);
    for (let i = 0; i < 3; i++) {
      const id = await member(db, top);
      const token = `tok-${id}`;
      await db.query(
        `INSERT INTO game_sessions (token_hash, merchant_code, member_id, vendor, game_code, expires_at) VALUES ($1, 'TT', $2, 'V', 'G', now() + interval '1 hour')`,
        [createHash('sha256').update(token).digest(), id],
      );
      // Enough for some bets, not for all: some are refused with INSUFFICIENT_FUNDS and must not count.
      await db.tx((tx) => transfer(tx, { merchant: 'TT', currency: 'PHP', key: `seed:${id}`, kind: 'deposit', amount: 300_000, debit: { system: 'deposit' }, credit: { member: id } }));
      players.push({ id, token });
    }
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  type Op =
    | { k: 'bet'; p: number; amount: number; round: number }
    | { k: 'win'; p: number; amount: number; round: number; pick: number; fresh: boolean }
    | { k: 'rollback'; p: number; pick: number; early: boolean }
    | { k: 'replay'; i: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ k: fc.constant('bet' as const), p: fc.nat(2), amount: fc.integer({ min: 1, max: 60_000 }), round: fc.nat(5) }),
    // Zero closes a lost round (house games send it): accepted, and it moves nothing.
    fc.record({ k: fc.constant('win' as const), p: fc.nat(2), amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })), round: fc.nat(5), pick: fc.nat(40), fresh: fc.boolean() }),
    fc.record({ k: fc.constant('rollback' as const), p: fc.nat(2), pick: fc.nat(40), early: fc.boolean() }),
    fc.record({ k: fc.constant('replay' as const), i: fc.nat(40) }),
  );

  // First in this session on purpose: PL/pgSQL plans an expression the first time it reaches it, and a
  // reference to the rollback's record before any rollback ran in the session failed there (found by the
  // house games, whose lost rounds send a zero win).
  it('a zero win closing a lost round, first call of a session after its bet, is accepted and adds nothing', async () => {
    const wallet = createVendorWallet(db);
    const pl = players[1]!;
    await wallet.bet(m, 'V', { transactionId: 'z-bet', playerId: String(pl.id), roundId: 'z', gameCode: 'G', amount: 250, token: pl.token });
    await wallet.win(m, 'V', { transactionId: 'z-win', playerId: String(pl.id), roundId: 'z', gameCode: 'G', amount: 0 });
    const h = await db.query<{ bet_count: number; valid_bets: number; payout: number }>(
      `SELECT bet_count, valid_bets, payout FROM member_bet_hours WHERE member_id = $1`, [pl.id]);
    expect(h.rows).toEqual([{ bet_count: 1, valid_bets: 250, payout: 0 }]);
  });

  it('property: after random bets, wins, rollbacks (early, repeated, refused) and replays, the rollup equals the raw rows', async () => {
    const wallet = createVendorWallet(db);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        run++;
        const done: { call: 'bet' | 'win' | 'rollback'; body: Record<string, unknown> }[] = [];
        let refusals = 0;
        for (const o of ops) {
          let call: 'bet' | 'win' | 'rollback';
          let body: Record<string, unknown>;
          if (o.k === 'replay') {
            const prev = done[o.i % Math.max(done.length, 1)];
            if (!prev) continue;
            ({ call, body } = prev);
          } else {
            const pl = players[o.p]!;
            const tx = `r${run}-${done.length}`;
            if (o.k === 'bet') {
              call = 'bet';
              body = { transactionId: tx, playerId: String(pl.id), roundId: `r${run}-${o.round}`, gameCode: 'G', amount: o.amount, token: pl.token };
            } else if (o.k === 'win') {
              // A win of an earlier bet's round, or of a round of its own (refused unless it has this player's bet).
              call = 'win';
              const bets = done.filter((d) => d.call === 'bet');
              const target = o.fresh || !bets.length ? null : bets[o.pick % bets.length]!.body;
              body = { transactionId: tx, playerId: target ? target.playerId : String(pl.id), roundId: target ? target.roundId : `r${run}-${o.round}`, gameCode: 'G', amount: o.amount };
            } else {
              // A rollback of an earlier bet of this run (again, if it was rolled back already), or of a call
              // that may come later (remembered: a late bet is refused).
              call = 'rollback';
              const bets = done.filter((d) => d.call === 'bet');
              const target = o.early || !bets.length ? null : bets[o.pick % bets.length]!.body;
              body = target
                ? { transactionId: tx, playerId: target.playerId, roundId: target.roundId, refTransactionId: target.transactionId }
                : { transactionId: tx, playerId: String(pl.id), roundId: `r${run}-0`, refTransactionId: `r${run}-${done.length + 1 + (o.pick % 3)}` };
            }
          }
          try {
            await (wallet[call] as (mm: Merchant, v: string, b: unknown) => Promise<unknown>)(m, 'V', body);
          } catch (e) {
            if (!(e instanceof AppError)) throw e;
            refusals++;
          }
          if (o.k !== 'replay') done.push({ call, body });
        }
        const raw = await db.query(ordered(RAW_BY_HOUR));
        const rollup = await db.query(ordered(ROLLUP));
        expect(rollup.rows).toEqual(raw.rows);
        return refusals >= 0;
      }),
      { numRuns: 25, seed: 24 },
    );
    // The runs did exercise every path: accepted bets and wins, refusals, applied rollbacks.
    const kinds = await db.query<{ kind: string; status: string; n: number }>(
      `SELECT kind, status, count(*)::int AS n FROM vendor_transactions GROUP BY 1, 2 ORDER BY 1, 2`);
    const seen = new Set(kinds.rows.map((r) => `${r.kind}:${r.status}`));
    for (const k of ['bet:applied', 'bet:rolled_back', 'bet:refused', 'win:applied', 'win:refused', 'rollback:applied']) expect(seen).toContain(k);
    const zeroWins = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM vendor_transactions WHERE kind = 'win' AND amount = 0 AND status = 'applied'`);
    expect(zeroWins.rows[0]!.n).toBeGreaterThan(0);
    const totals = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM member_bet_hours WHERE bet_count > 0');
    expect(totals.rows[0]!.n).toBeGreaterThan(0);
  }, 120_000);

  it('a rollback takes the bet out of the hour it was placed in, not the hour of the rollback', async () => {
    const wallet = createVendorWallet(db);
    const pl = players[0]!;
    await wallet.bet(m, 'V', { transactionId: 'old-bet', playerId: String(pl.id), roundId: 'old', gameCode: 'G', amount: 300, token: pl.token });
    // As if the bet had been placed three hours ago: move its raw row and its rollup contribution there.
    const placed = new Date(Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR + 60_000);
    await db.query(`UPDATE vendor_transactions SET created_at = $1 WHERE transaction_id = 'old-bet'`, [placed]);
    await db.query(`UPDATE member_bet_hours SET bet_count = bet_count - 1, valid_bets = valid_bets - 300 WHERE member_id = $1 AND hour = date_trunc('hour', now(), 'UTC')`, [pl.id]);
    await db.query(`INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets) VALUES ($1, date_trunc('hour', $2::timestamptz, 'UTC'), 1, 300)`, [pl.id, placed]);
    await wallet.rollback(m, 'V', { transactionId: 'old-rb', playerId: String(pl.id), roundId: 'old', refTransactionId: 'old-bet' });
    const h = await db.query<{ bet_count: number; valid_bets: number }>(
      `SELECT bet_count, valid_bets FROM member_bet_hours WHERE member_id = $1 AND hour = date_trunc('hour', $2::timestamptz, 'UTC')`, [pl.id, placed]);
    expect(h.rows).toEqual([{ bet_count: 0, valid_bets: 0 }]);
    expect((await db.query(ordered(ROLLUP))).rows).toEqual((await db.query(ordered(RAW_BY_HOUR))).rows);
  });
});

describe('teamBetTotals', () => {
  let db: Db;
  // top -> a -> (a1 -> a1p), a2 ; top -> b (a's sibling) -> bp ; other top t2 -> c ; another merchant: x
  let top: number, a: number, a1: number, a1p: number, a2: number, b: number, bp: number, t2: number, c: number, x: number;
  const base = Date.UTC(2026, 2, 16, 0, 0, 0);

  beforeAll(async () => {
    db = await migratedPgliteDb();
    await migrate(db);
    await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Tree'), ('OTHER', 'Other')`);
    top = await member(db, null);
    a = await member(db, top);
    a1 = await member(db, a);
    a1p = await member(db, a1);
    a2 = await member(db, a);
    b = await member(db, top);
    bp = await member(db, b);
    t2 = await member(db, null);
    c = await member(db, t2);
    x = await member(db, null, 'OTHER');
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  type Row = { member: number; kind: 'bet' | 'win'; status: 'applied' | 'rolled_back' | 'refused'; amount: number; at: number };

  /** Raw rows at chosen instants, and the rollup rebuilt from them (what vendor_money keeps, checked above). */
  async function load(rows: Row[]) {
    await db.query('DELETE FROM vendor_transactions');
    await db.query('DELETE FROM member_bet_hours');
    for (const [i, r] of rows.entries()) {
      await db.query(
        `INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, amount, status, response, created_at)
         VALUES ((SELECT merchant_code FROM members WHERE id = $2), 'V', $1, $3, $2, 'r', $4, $5, '{}', $6)`,
        [`t${i}`, r.member, r.kind, r.amount, r.status, new Date(r.at)],
      );
    }
    await db.query(`INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout) ${RAW_BY_HOUR.replace('SELECT member_id, hour, bet_count, valid_bets, payout, payout - valid_bets AS profit_loss', 'SELECT member_id, hour, bet_count, valid_bets, payout')}`);
  }

  function reference(rows: Row[], team: number[], from: number, to: number, activeMin = 1) {
    const per = new Map<number, { bc: number; vb: number; po: number }>();
    for (const r of rows) {
      if (!team.includes(r.member) || r.status !== 'applied' || r.at < from || r.at >= to) continue;
      const s = per.get(r.member) ?? { bc: 0, vb: 0, po: 0 };
      if (r.kind === 'bet') { s.bc++; s.vb += r.amount; } else s.po += r.amount;
      per.set(r.member, s);
    }
    const t = { betCount: 0, validBets: 0, payout: 0, profitLoss: 0, activeMembers: 0 };
    for (const s of per.values()) {
      t.betCount += s.bc; t.validBets += s.vb; t.payout += s.po;
      if (s.vb > 0 && s.vb >= activeMin) t.activeMembers++;
    }
    t.profitLoss = t.payout - t.validBets;
    return t;
  }

  it('splits a period into whole UTC hours and partial-hour edges', () => {
    const d = (h: number, mi = 0) => new Date(base + h * HOUR + mi * 60_000);
    expect(splitPeriod({ from: d(0), to: d(24) })).toEqual({ hours: { from: d(0), to: d(24) }, edges: [] });
    // A day at GMT+05:30: 18:30 to 18:30 UTC.
    expect(splitPeriod({ from: d(-6, 30), to: d(18, 30) })).toEqual({ hours: { from: d(-5), to: d(18) }, edges: [{ from: d(-6, 30), to: d(-5) }, { from: d(18), to: d(18, 30) }] });
    // A 5-minute real-time salary period: all of it raw.
    expect(splitPeriod({ from: d(3, 5), to: d(3, 10) })).toEqual({ hours: null, edges: [{ from: d(3, 5), to: d(3, 10) }] });
  });

  it('a team\'s totals count its own subtree only, whole hours and half-hour edges alike', async () => {
    const m = (h: number, mi = 0) => base + h * HOUR + mi * 60_000;
    const rows: Row[] = [
      { member: a1, kind: 'bet', status: 'applied', amount: 1000, at: m(1, 10) },
      { member: a1, kind: 'win', status: 'applied', amount: 2500, at: m(1, 40) },
      { member: a1p, kind: 'bet', status: 'applied', amount: 700, at: m(2, 15) }, // before the half-hour edge
      { member: a1p, kind: 'bet', status: 'applied', amount: 300, at: m(2, 45) }, // after it
      { member: a2, kind: 'bet', status: 'rolled_back', amount: 5000, at: m(1) },
      { member: a2, kind: 'bet', status: 'refused', amount: 6000, at: m(1) },
      { member: a, kind: 'bet', status: 'applied', amount: 50, at: m(1) }, // the agent itself
      { member: b, kind: 'bet', status: 'applied', amount: 9000, at: m(1) }, // sibling
      { member: bp, kind: 'win', status: 'applied', amount: 9000, at: m(1) }, // sibling's team
      { member: top, kind: 'bet', status: 'applied', amount: 4000, at: m(1) }, // upline
      { member: c, kind: 'bet', status: 'applied', amount: 8000, at: m(1) }, // another top agent's team
      { member: x, kind: 'bet', status: 'applied', amount: 7000, at: m(1) }, // another merchant
      { member: a1, kind: 'bet', status: 'applied', amount: 123, at: m(5) }, // after the period
    ];
    await load(rows);
    const p = { from: new Date(m(0)), to: new Date(m(3)) };
    expect(await teamBetTotals(db, a, p)).toEqual({ betCount: 3, validBets: 2000, payout: 2500, profitLoss: 500, activeMembers: 2 });
    expect(await teamBetTotals(db, a, p, { includeSelf: true })).toEqual({ betCount: 4, validBets: 2050, payout: 2500, profitLoss: 450, activeMembers: 3 });
    // Ends at 02:30: the 02:45 bet is out, the 02:15 one in (read raw, the hour being partial).
    expect(await teamBetTotals(db, a, { from: new Date(m(0, 30)), to: new Date(m(2, 30)) })).toEqual({ betCount: 2, validBets: 1700, payout: 2500, profitLoss: 800, activeMembers: 2 });
    expect(await teamBetTotals(db, a, p, { activeMinValidBets: 1000 })).toMatchObject({ activeMembers: 2 });
    expect(await teamBetTotals(db, a, p, { activeMinValidBets: 1001 })).toMatchObject({ activeMembers: 0 });
    expect(await teamBetTotals(db, a, { from: new Date(m(0, 30)), to: new Date(m(2, 30)) }, { activeMinValidBets: 701 })).toMatchObject({ activeMembers: 1 });
    // The team overview on the same rows, the rollup folded up to 02:00: a1 is active in a folded hour,
    // a1p only in the partial hour 02:00-02:30 after the watermark (raw rows), so both count.
    await db.query('DELETE FROM agent_rollup_deltas');
    await db.query('SELECT agent_rollup_rebuild($1)', [new Date(m(2))]);
    const TT = { code: 'TT', agentTypes: [] as number[] };
    expect(await teamOverview(db, TT, a, { from: new Date(m(0, 30)), to: new Date(m(2, 30)) })).toMatchObject({ betCount: 2, validBets: 1700, payout: 2500, activeMembers: 2 });
    expect(await teamOverview(db, TT, a, { from: new Date(m(2, 10)), to: new Date(m(2, 20)) })).toMatchObject({ betCount: 1, validBets: 700, activeMembers: 1 });
    expect(await teamOverview(db, TT, a, { from: new Date(m(1, 5)), to: new Date(m(1, 30)) })).toMatchObject({ betCount: 1, validBets: 1000, activeMembers: 1 });
    // A leaf's team is empty; an unknown agent sees nothing.
    expect(await teamBetTotals(db, a1p, p)).toEqual({ betCount: 0, validBets: 0, payout: 0, profitLoss: 0, activeMembers: 0 });
    expect(await teamBetTotals(db, 99_999_999, p)).toEqual({ betCount: 0, validBets: 0, payout: 0, profitLoss: 0, activeMembers: 0 });
    await expect(teamBetTotals(db, a, { from: p.to, to: p.from })).rejects.toBeInstanceOf(AppError);
  });

  it('property: for random bets and periods (any minute bounds), totals and the team overview equal a reference over the raw rows of the subtree', async () => {
    const all = () => [top, a, a1, a1p, a2, b, bp, t2, c, x];
    const teams: Record<number, number[]> = {};
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({
          member: fc.constantFrom(...all()), kind: fc.constantFrom('bet' as const, 'win' as const),
          status: fc.constantFrom('applied' as const, 'applied' as const, 'rolled_back' as const, 'refused' as const),
          amount: fc.integer({ min: 0, max: 100_000 }), at: fc.integer({ min: base, max: base + 48 * HOUR }),
        }), { maxLength: 60 }),
        // Short periods too (a few partial hours): members active only at the edges count in the overview.
        fc.integer({ min: 0, max: 48 * 60 }), fc.oneof(fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 48 * 60 })),
        fc.constantFrom(...all()), fc.boolean(), fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 50 }),
        async (rows, fromMin, lenMin, agent, includeSelf, activeMin, wmHour) => {
          await load(rows);
          if (!teams[agent]) {
            const r = await db.query<{ id: number }>(`SELECT d.id FROM members ag JOIN members d ON d.tree_path > ag.tree_path || '.' AND d.tree_path < ag.tree_path || '/' WHERE ag.id = $1`, [agent]);
            teams[agent] = r.rows.map((y) => y.id);
          }
          const team = includeSelf ? [...teams[agent]!, agent] : teams[agent]!;
          const from = base + fromMin * 60_000;
          const to = from + lenMin * 60_000;
          const got = await teamBetTotals(db, agent, { from: new Date(from), to: new Date(to) }, { includeSelf, activeMinValidBets: activeMin });
          expect(got).toEqual(reference(rows, team, from, to, activeMin));
          // The team overview (per-agent rollup, active members from the per-agent chains, raw rows for the
          // partial hours and the live tail) with the rollup's watermark at a random hour of the rows.
          if (agent !== x) {
            await db.query('DELETE FROM agent_rollup_deltas');
            await db.query('SELECT agent_rollup_rebuild($1)', [new Date(base + wmHour * HOUR)]);
            const o = await teamOverview(db, { code: 'TT', agentTypes: [] }, agent, { from: new Date(from), to: new Date(to) });
            const { betCount, validBets, payout, profitLoss, activeMembers } = o;
            expect({ betCount, validBets, payout, profitLoss, activeMembers }).toEqual(reference(rows, teams[agent]!, from, to));
          }
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  }, 120_000);
});

describe(`migration ${ROLLUP_MIGRATION} on a database that already has bets`, () => {
  it('backfills the rollup from the recorded calls', async () => {
    const db = await createPgliteDb(null);
    try {
      await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const files = (await readdir(MIGRATIONS)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
      for (const f of files.filter((y) => y < ROLLUP_MIGRATION)) {
        for (const s of splitSql(await readFile(path.join(MIGRATIONS, f), 'utf8'))) await db.query(s);
        await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
      }
      await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Tree')`);
      const p = await member(db, null);
      const q = await member(db, p);
      const rows: [number, string, string, number, string][] = [
        [p, 'bet', 'applied', 100, '2026-03-16T01:10:00Z'], [p, 'bet', 'applied', 200, '2026-03-16T01:50:00Z'],
        [p, 'win', 'applied', 500, '2026-03-16T01:55:00Z'], [p, 'win', 'applied', 0, '2026-03-16T02:00:00Z'],
        [p, 'bet', 'rolled_back', 900, '2026-03-16T02:10:00Z'], [p, 'bet', 'refused', 800, '2026-03-16T02:20:00Z'],
        [q, 'bet', 'applied', 40, '2026-03-16T02:59:59Z'], [q, 'rollback', 'applied', 0, '2026-03-16T03:00:00Z'],
      ];
      for (const [i, [mem, kind, status, amount, at]] of rows.entries()) {
        await db.query(
          `INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, amount, status, response, created_at)
           VALUES ('TT', 'V', $1, $2, $3, 'r', $4, $5, '{}', $6)`, [`b${i}`, kind, mem, amount, status, at]);
      }
      await migrate(db);
      const r = await db.query<{ member_id: number; hour: Date; bet_count: number; valid_bets: number; payout: number; profit_loss: number }>(ordered('SELECT member_id, hour, bet_count, valid_bets, payout, profit_loss FROM member_bet_hours'));
      expect(r.rows.map((y) => ({ ...y, hour: y.hour.toISOString() }))).toEqual([
        { member_id: p, hour: '2026-03-16T01:00:00.000Z', bet_count: 2, valid_bets: 300, payout: 500, profit_loss: 200 },
        { member_id: q, hour: '2026-03-16T02:00:00.000Z', bet_count: 1, valid_bets: 40, payout: 0, profit_loss: -40 },
      ]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
