import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, type Db } from '../../db/db.ts';
import { migratedPgliteDb } from '../../testing/pglite-snapshot.ts';
import { migrate, splitSql } from '../../db/migrate.ts';
import { AppError } from '../../app/errors.ts';
import { descendantOf, downlinePage, isInSubtree, requireInSubtree, subtreeSummary } from './team-tree.ts';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
const TREE_MIGRATION = '023_agents_team_tree.sql';

let seq = 0;
async function member(db: Db, parentId: number | null, opts: { merchant?: string; account?: string; id?: number; createdAt?: Date; type?: number } = {}) {
  const account = opts.account ?? `m${++seq}`;
  const r = await db.query<{ id: number; tree_path: string }>(
    `INSERT INTO members (${opts.id ? 'id, ' : ''}merchant_code, account, account_lower, type, parent_id, created_at)
     VALUES (${opts.id ? `${opts.id}, ` : ''}$1, $2, lower($2), $3, $4, $5) RETURNING id, tree_path`,
    [opts.merchant ?? 'TT', account, opts.type ?? 1, parentId, opts.createdAt ?? new Date()],
  );
  return r.rows[0]!;
}

async function bet(db: Db, memberId: number, at: Date, status = 'applied') {
  await db.query(
    `INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, amount, status, response, created_at)
     VALUES ('TT', 'V', $1, 'bet', $2, $1, 100, $3, '{}', $4)`,
    [`t${++seq}`, memberId, status, at],
  );
}

/** The SQL answer for every member: the ids of its strict descendants, straight from tree_path. */
async function subtreeIds(db: Db, agentId: number): Promise<number[]> {
  const r = await db.query<{ id: number }>(`SELECT d.id FROM members a JOIN members d ON ${descendantOf('d', 'a.tree_path')} WHERE a.id = $1 ORDER BY d.id`, [agentId]);
  return r.rows.map((x) => x.id);
}

describe('team tree on PGlite', () => {
  let db: Db;
  // top1 -> a1 -> (chain of 8 more: depth 10) ; top1 -> a2 (a1's sibling) -> a2p ; top2 -> b1 ; other merchant: x
  let top1: number, a1: number, a2: number, a2p: number, top2: number, b1: number;
  const chain: number[] = [];

  beforeAll(async () => {
    db = await migratedPgliteDb();
    await migrate(db);
    await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Tree'), ('OTHER', 'Other')`);
    top1 = (await member(db, null, { account: 'top1' })).id;
    a1 = (await member(db, top1, { account: 'a1' })).id;
    a2 = (await member(db, top1, { account: 'a2' })).id;
    a2p = (await member(db, a2, { account: 'a2p', type: 0 })).id;
    top2 = (await member(db, null, { account: 'top2' })).id;
    b1 = (await member(db, top2, { account: 'b1', type: 0 })).id;
    chain.push(top1, a1);
    while (chain.length < 10) chain.push((await member(db, chain.at(-1)!)).id);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('an agent sees its own team only: not a sibling, a sibling\'s team, its upline, another top agent\'s team, or itself unless asked', async () => {
    expect(await isInSubtree(db, top1, a1)).toBe(true);
    expect(await isInSubtree(db, top1, a2p)).toBe(true);
    expect(await isInSubtree(db, a1, a2)).toBe(false); // sibling
    expect(await isInSubtree(db, a1, a2p)).toBe(false); // sibling's team
    expect(await isInSubtree(db, a1, top1)).toBe(false); // upline
    expect(await isInSubtree(db, top1, b1)).toBe(false); // another top agent's team
    expect(await isInSubtree(db, top2, a1)).toBe(false);
    expect(await isInSubtree(db, a1, a1)).toBe(false);
    expect(await isInSubtree(db, a1, a1, { includeSelf: true })).toBe(true);
    expect(await isInSubtree(db, a1, 987_654_321)).toBe(false);
    expect(await isInSubtree(db, 987_654_321, a1)).toBe(false);
    await expect(requireInSubtree(db, a1, a2p)).rejects.toMatchObject({ code: 'NOT_IN_TREE', status: 403 });
    await expect(requireInSubtree(db, a1, a2p)).rejects.toBeInstanceOf(AppError);
    await expect(requireInSubtree(db, top1, a2p)).resolves.toBeUndefined();
  });

  it('a depth-10 chain: the leaf is in every ancestor\'s team, and sees none of them', async () => {
    const leaf = chain.at(-1)!;
    const r = await db.query<{ tree_path: string }>('SELECT tree_path FROM members WHERE id = $1', [leaf]);
    expect(r.rows[0]!.tree_path.split('.').map(Number)).toEqual(chain);
    for (const anc of chain.slice(0, -1)) expect(await isInSubtree(db, anc, leaf)).toBe(true);
    for (const anc of chain.slice(0, -1)) expect(await isInSubtree(db, leaf, anc)).toBe(false);
    expect(await subtreeIds(db, leaf)).toEqual([]);
    expect(await subtreeIds(db, chain[7]!)).toEqual(chain.slice(8));
  });

  it('a member inserted under a downline appears in the agent\'s team at once', async () => {
    const before = await subtreeSummary(db, top1, { from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) });
    const fresh = await member(db, a2p);
    expect(fresh.tree_path).toBe(`${top1}.${a2}.${a2p}.${fresh.id}`);
    expect(await isInSubtree(db, top1, fresh.id)).toBe(true);
    expect(await isInSubtree(db, a2, fresh.id)).toBe(true);
    expect(await isInSubtree(db, a1, fresh.id)).toBe(false);
    const after = await subtreeSummary(db, top1, { from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) });
    expect(after.teamSize).toBe(before.teamSize + 1);
    expect(after.newMembers).toBe(before.newMembers + 1);
  });

  it('an id that is a text prefix of another (7000007 / 70000070) is not its upline', async () => {
    const p = await member(db, null, { id: 7_000_007 });
    const q = await member(db, null, { id: 70_000_070 });
    const qChild = await member(db, q.id);
    expect(qChild.tree_path.startsWith(p.tree_path)).toBe(true); // the trap a LIKE 'p%' would fall into
    expect(await isInSubtree(db, p.id, qChild.id)).toBe(false);
    expect(await subtreeIds(db, p.id)).toEqual([]);
  });

  it('summary: team size, new and active members for a period, the agent and other teams left out', async () => {
    const from = new Date('2031-03-01T00:00:00Z');
    const to = new Date('2031-03-08T00:00:00Z');
    const boss = (await member(db, null, { createdAt: new Date('2031-01-01T00:00:00Z') })).id;
    const old = (await member(db, boss, { createdAt: new Date('2031-02-01T00:00:00Z') })).id;
    const newcomer = (await member(db, old, { createdAt: new Date('2031-03-02T00:00:00Z') })).id;
    const late = (await member(db, old, { createdAt: new Date('2031-03-08T00:00:00Z') })).id; // to is exclusive
    const stranger = (await member(db, null, { createdAt: new Date('2031-03-03T00:00:00Z') })).id;
    await bet(db, boss, new Date('2031-03-03T00:00:00Z')); // the agent's own bet: not its team's
    await bet(db, old, new Date('2031-03-04T00:00:00Z'));
    await bet(db, old, new Date('2031-03-05T00:00:00Z'));
    await bet(db, newcomer, new Date('2031-02-28T23:59:59Z')); // before the period
    await bet(db, late, new Date('2031-03-06T00:00:00Z'), 'refused'); // not accepted
    await bet(db, stranger, new Date('2031-03-04T00:00:00Z'));
    expect(await subtreeSummary(db, boss, { from, to })).toEqual({ teamSize: 3, newMembers: 1, activeMembers: 1 });
    expect(await subtreeSummary(db, old, { from, to })).toEqual({ teamSize: 2, newMembers: 1, activeMembers: 0 });
    expect(await subtreeSummary(db, 987_654_321, { from, to })).toEqual({ teamSize: 0, newMembers: 0, activeMembers: 0 });
    await expect(subtreeSummary(db, boss, { from: to, to: from })).rejects.toMatchObject({ code: 'VALIDATION', status: 400 });
    await expect(subtreeSummary(db, boss, { from: new Date('nope'), to })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('downline page: direct downlines with team sizes, paging, drilling into a downline, nothing outside the team', async () => {
    const boss = (await member(db, null, { account: 'boss_x' })).id;
    const kids: number[] = [];
    for (let i = 0; i < 5; i++) kids.push((await member(db, boss, { account: `kid${i}_x` })).id);
    await member(db, kids[0]!);
    const g = (await member(db, kids[0]!, { account: 'grand_x' })).id;
    await member(db, g);
    await member(db, kids[3]!, { account: 'pct%_x' });
    const p1 = await downlinePage(db, boss, { pageSize: 2 });
    expect(p1.total).toBe(5);
    expect(p1.list.map((d) => [d.id, d.teamSize])).toEqual([[kids[0], 3], [kids[1], 0]]);
    const p3 = await downlinePage(db, boss, { pageSize: 2, pageNo: 3 });
    expect(p3.list.map((d) => d.id)).toEqual([kids[4]]);
    expect(p3.total).toBe(5);
    // A page past the end: empty, with the total still given (one statement: page and total together).
    expect(await downlinePage(db, boss, { pageSize: 2, pageNo: 9 })).toMatchObject({ list: [], total: 5 });
    expect(await downlinePage(db, boss, { account: 'kid', pageSize: 2, pageNo: 9 })).toMatchObject({ list: [], total: 5 });
    expect((await downlinePage(db, boss, { parentId: kids[0]! })).list.map((d) => d.account)).toEqual([expect.stringMatching(/^m\d+$/), 'grand_x']);
    expect((await downlinePage(db, boss, { parentId: g })).total).toBe(1); // two levels down
    expect((await downlinePage(db, boss, { account: 'KID3' })).list.map((d) => d.id)).toEqual([kids[3]]);
    expect((await downlinePage(db, boss, { parentId: kids[3]!, account: 'pct%' })).total).toBe(1);
    expect((await downlinePage(db, boss, { parentId: kids[3]!, account: 'p_t' })).total).toBe(0); // _ is literal
    // outside the team: a sibling's downlines, the upline's, another tree's, an unknown id: all empty
    expect(await downlinePage(db, kids[1]!, { parentId: kids[0]! })).toMatchObject({ list: [], total: 0 });
    expect(await downlinePage(db, kids[0]!, { parentId: boss })).toMatchObject({ list: [], total: 0 });
    expect(await downlinePage(db, a1, { parentId: top1 })).toMatchObject({ list: [], total: 0 });
    expect(await downlinePage(db, boss, { parentId: top1 })).toMatchObject({ list: [], total: 0 });
    expect(await downlinePage(db, 987_654_321)).toMatchObject({ list: [], total: 0 });
    await expect(downlinePage(db, boss, { pageSize: 1000 })).rejects.toMatchObject({ code: 'VALIDATION', status: 400 });
    await expect(downlinePage(db, boss, { pageNo: 0 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('the database keeps the path: a move takes the team along, a cycle, a foreign upline and a hand-written path are refused', async () => {
    const r1 = (await member(db, null)).id;
    const r2 = (await member(db, null)).id;
    const x = (await member(db, r1)).id;
    const y = (await member(db, x)).id;
    const z = (await member(db, y)).id;
    await db.query('UPDATE members SET parent_id = $1 WHERE id = $2', [r2, x]);
    expect(await subtreeIds(db, r1)).toEqual([]);
    expect(await subtreeIds(db, r2)).toEqual([x, y, z]);
    expect((await db.query<{ tree_path: string }>('SELECT tree_path FROM members WHERE id = $1', [z])).rows[0]!.tree_path).toBe(`${r2}.${x}.${y}.${z}`);
    await expect(db.query('UPDATE members SET parent_id = $1 WHERE id = $2', [z, x])).rejects.toThrow(/own team/);
    await expect(db.query('UPDATE members SET parent_id = $1 WHERE id = $1', [x])).rejects.toThrow(/own team/);
    await expect(db.query(`UPDATE members SET tree_path = '1' WHERE id = $1`, [z])).rejects.toThrow(/maintained by the database/);
    await expect(member(db, r2, { merchant: 'OTHER' })).rejects.toThrow(/another merchant/);
    await expect(db.query(`INSERT INTO members (merchant_code, account, account_lower, parent_id) VALUES ('TT', 'ghost', 'ghost', 987654321)`)).rejects.toThrow();
    expect(await subtreeIds(db, r2)).toEqual([x, y, z]);
  });

  it('property: for random trees and moves, the SQL subtree of every member equals a walk of the parent links', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 5 }),
        async (parents, moves) => {
          const ids: number[] = [];
          const parent = new Map<number, number | null>();
          for (const [i, p] of parents.entries()) {
            const up = i === 0 || p % 4 === 0 ? null : ids[p % i]!; // a few roots, the rest under an earlier member
            const m = await member(db, up);
            ids.push(m.id);
            parent.set(m.id, up);
          }
          const isAncestor = (a: number, d: number) => {
            for (let u = parent.get(d) ?? null; u !== null; u = parent.get(u) ?? null) if (u === a) return true;
            return false;
          };
          for (const [mi, ti] of moves) {
            const m = ids[mi % ids.length]!;
            const t = ids[ti % ids.length]!;
            if (t === m || isAncestor(m, t)) continue; // a cycle: refused, tested above
            await db.query('UPDATE members SET parent_id = $1 WHERE id = $2', [t, m]);
            parent.set(m, t);
          }
          for (const a of ids) expect(await subtreeIds(db, a)).toEqual(ids.filter((d) => isAncestor(a, d)));
        },
      ),
      { numRuns: 15, seed: 11 },
    );
  });
});

describe('migration 022 on a database that already has members', () => {
  it('backfills tree_path for every existing member, parents before children', async () => {
    const db = await createPgliteDb(null);
    try {
      await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const files = (await readdir(MIGRATIONS)).filter((f) => /^\d{3}_.+\.sql$/.test(f) && f !== TREE_MIGRATION).sort();
      for (const f of files.filter((x) => x < TREE_MIGRATION)) {
        for (const s of splitSql(await readFile(path.join(MIGRATIONS, f), 'utf8'))) await db.query(s);
        await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
      }
      await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Tree')`);
      // Children inserted with explicit ids smaller than their parents' would break an id-ordered backfill.
      await db.query(`INSERT INTO members (id, merchant_code, account, account_lower) VALUES (900, 'TT', 'r', 'r')`);
      await db.query(`INSERT INTO members (id, merchant_code, account, account_lower, parent_id) VALUES (950, 'TT', 'a', 'a', 900)`);
      await db.query(`INSERT INTO members (id, merchant_code, account, account_lower, parent_id) VALUES (10, 'TT', 'b', 'b', 950)`);
      await db.query(`INSERT INTO members (id, merchant_code, account, account_lower) VALUES (5, 'TT', 'c', 'c')`);
      await migrate(db);
      const r = await db.query<{ id: number; tree_path: string }>('SELECT id, tree_path FROM members ORDER BY id');
      expect(r.rows).toEqual([{ id: 5, tree_path: '5' }, { id: 10, tree_path: '900.950.10' }, { id: 900, tree_path: '900' }, { id: 950, tree_path: '900.950' }]);
      expect(await isInSubtree(db, 900, 10)).toBe(true);
      expect(await isInSubtree(db, 5, 10)).toBe(false);
    } finally {
      await db.close();
    }
  }, 60_000);
});
