import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { InsufficientFunds, SYSTEM_SHARDS, balanceOf, shardOfKey, checkLedger, createLedger, resolveHold, transfer, type TransferInput, type TransferResult } from './ledger.ts';

let t: TestPortal;
let run = 0;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  await t.stop();
});

async function newMembers(n: number): Promise<number[]> {
  run++;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await api<{ memberId: number }>(t.url, '/wps/dev/sessions', { body: { account: `lg${run}_${i}` } });
    ids.push(r.json!.value!.memberId);
  }
  return ids;
}

type Op =
  | { op: 'deposit'; m: number; amount: number; key: string }
  | { op: 'bet'; m: number; amount: number; key: string }
  | { op: 'win'; m: number; amount: number; key: string }
  | { op: 'move'; from: number; to: number; amount: number; key: string }
  | { op: 'hold'; m: number; amount: number; key: string }
  | { op: 'resolve'; hold: number; outcome: 'post' | 'void' };

const amount = fc.integer({ min: 1, max: 50_000 });
const keyArb = fc.integer({ min: 0, max: 40 }).map((k) => `k${k}`);
const opArb = (members: number) => {
  const m = fc.integer({ min: 0, max: members - 1 });
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ op: fc.constant('deposit' as const), m, amount, key: keyArb }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('bet' as const), m, amount, key: keyArb }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('win' as const), m, amount, key: keyArb }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), from: m, to: m, amount, key: keyArb }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('hold' as const), m, amount, key: keyArb }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('resolve' as const), hold: fc.integer({ min: 0, max: 10 }), outcome: fc.constantFrom('post' as const, 'void' as const) }) },
  );
};

function toInput(o: Exclude<Op, { op: 'resolve' }>, ids: number[], prefix: string): TransferInput {
  const base = { merchant: 'DEMO', currency: 'PHP', key: `${prefix}:${o.key}`, amount: o.amount };
  switch (o.op) {
    case 'deposit': return { ...base, kind: 'deposit', debit: { system: 'deposit' }, credit: { member: ids[o.m]! } };
    case 'bet': return { ...base, kind: 'bet', debit: { member: ids[o.m]! }, credit: { system: 'game' } };
    case 'win': return { ...base, kind: 'win', debit: { system: 'game' }, credit: { member: ids[o.m]! } };
    case 'move': return { ...base, kind: 'transfer', debit: { member: ids[o.from]! }, credit: { member: ids[o.to]! } };
    case 'hold': return { ...base, kind: 'withdrawal', debit: { member: ids[o.m]! }, credit: { system: 'withdrawal' }, pending: true };
  }
}

/** The reference model: what the ledger should hold after a sequence, applied one at a time. */
class Model {
  balance = new Map<number, number>();
  held = new Map<number, number>();
  keys = new Map<string, { hash: string; result: 'ok' | 'insufficient' | 'conflict' }>();
  holds: Array<{ transferId: number; m: number; amount: number; status: 'pending' | 'posted' | 'voided' }> = [];
  bal(m: number) { return this.balance.get(m) ?? 0; }
  hld(m: number) { return this.held.get(m) ?? 0; }
  avail(m: number) { return this.bal(m) - this.hld(m); }
}

async function apply(o: Op, ids: number[], prefix: string): Promise<TransferResult | Error> {
  try {
    if (o.op === 'resolve') throw new Error('resolve handled separately');
    return await t.portal.db.tx((tx) => transfer(tx, toInput(o, ids, prefix)));
  } catch (err) {
    return err as Error;
  }
}

describe('ledger against a reference model (fast-check)', () => {
  it('matches the model op by op: idempotent keys, no negative balances, holds resolve once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb(3), { minLength: 1, maxLength: 25 }), async (ops) => {
        const ids = await newMembers(3);
        const prefix = `seq${run}`;
        const model = new Model();
        for (const o of ops) {
          if (o.op === 'resolve') {
            const h = model.holds[o.hold];
            const r = await t.portal.db.tx((tx) => resolveHold(tx, 'DEMO', 'PHP', h?.transferId ?? 2 ** 40, o.outcome)).catch((e: Error) => e);
            if (!h) { expect(r).toBeInstanceOf(Error); continue; }
            const want = o.outcome === 'post' ? 'posted' : 'voided';
            if (h.status === 'pending') {
              expect(r).toMatchObject({ status: want, replayed: false });
              h.status = want;
              model.held.set(h.m, model.hld(h.m) - h.amount);
              if (want === 'posted') model.balance.set(h.m, model.bal(h.m) - h.amount);
            } else if (h.status === want) {
              expect(r).toMatchObject({ status: want, replayed: true });
            } else {
              expect(r).toBeInstanceOf(Error);
            }
            continue;
          }
          const input = toInput(o, ids, prefix);
          const sig = JSON.stringify([input.kind, input.debit, input.credit, input.amount, !!input.pending]);
          const prior = model.keys.get(o.key);
          const r = await apply(o, ids, prefix);
          // a transfer from an account to itself is refused before anything else
          if (o.op === 'move' && o.from === o.to) { expect((r as { code?: string }).code).toBe('VALIDATION'); continue; }
          if (prior && prior.result === 'ok') {
            if (prior.hash === sig) expect(r).toMatchObject({ replayed: true });
            else expect((r as { code?: string }).code).toBe('IDEMPOTENCY_MISMATCH');
            continue;
          }
          const debitMember = o.op === 'bet' || o.op === 'hold' ? o.m : o.op === 'move' ? o.from : null;
          if (debitMember !== null && model.avail(debitMember) < o.amount) {
            expect(r).toBeInstanceOf(InsufficientFunds);
            continue; // a refused transfer leaves no trace: its key stays free
          }
          expect(r).toMatchObject({ replayed: false });
          model.keys.set(o.key, { hash: sig, result: 'ok' });
          const res = r as TransferResult;
          if (o.op === 'hold') {
            model.held.set(o.m, model.hld(o.m) + o.amount);
            model.holds.push({ transferId: res.transferId, m: o.m, amount: o.amount, status: 'pending' });
          } else {
            if (debitMember !== null) model.balance.set(debitMember, model.bal(debitMember) - o.amount);
            const creditMember = o.op === 'deposit' || o.op === 'win' ? o.m : o.op === 'move' ? o.to : null;
            if (creditMember !== null) model.balance.set(creditMember, model.bal(creditMember) + o.amount);
          }
        }
        for (const [i, id] of ids.entries()) {
          const b = await balanceOf(t.portal.db, id, 'PHP');
          expect(b).toEqual({ balance: model.bal(i), held: model.hld(i), available: model.avail(i) });
          expect(b.available).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 25 },
    );
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });

  it('applies the same request submitted concurrently exactly once, and never overdraws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb(2).filter((o) => o.op !== 'resolve'), { minLength: 2, maxLength: 16 }), async (ops) => {
        const ids = await newMembers(2);
        const prefix = `con${run}`;
        await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `${prefix}:seed0`, kind: 'deposit', amount: 30_000, debit: { system: 'deposit' }, credit: { member: ids[0]! } }));
        // every op twice, all at once: duplicates and races on the same balances
        const results = await Promise.all([...ops, ...ops].map((o) => apply(o, ids, prefix)));
        const applied = new Map<number, number>();
        for (const r of results) if (!(r instanceof Error) && !r.replayed) applied.set(r.transferId, (applied.get(r.transferId) ?? 0) + 1);
        for (const n of applied.values()) expect(n).toBe(1);
        const keys = await t.portal.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ledger_transfers WHERE idempotency_key LIKE $1 GROUP BY idempotency_key HAVING count(*) > 1`, [`${prefix}:%`]);
        expect(keys.rows).toEqual([]);
        for (const id of ids) expect((await balanceOf(t.portal.db, id, 'PHP')).available).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 15 },
    );
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });

  it('announces every committed member balance change, and nothing for a refused one', async () => {
    const [a] = await newMembers(1);
    const before = (await t.portal.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE audience = $1", [`user:${a}`])).rows[0]!.n;
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `ann${a}:1`, kind: 'deposit', amount: 500, debit: { system: 'deposit' }, credit: { member: a! } }));
    await expect(t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `ann${a}:2`, kind: 'bet', amount: 501, debit: { member: a! }, credit: { system: 'game' } }))).rejects.toBeInstanceOf(InsufficientFunds);
    const rows = await t.portal.db.query<{ payload: { balance: number; delta: number } }>("SELECT payload FROM outbox WHERE audience = $1 ORDER BY seq", [`user:${a}`]);
    expect(rows.rows.length - before).toBe(1);
    expect(rows.rows.at(-1)!.payload).toMatchObject({ balance: 500, delta: 500 });
  });

  it('the invariant checker finds drift', async () => {
    const [a] = await newMembers(1);
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `drift${a}`, kind: 'deposit', amount: 700, debit: { system: 'deposit' }, credit: { member: a! } }));
    await t.portal.db.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE member_id = $1', [a]);
    const v = await checkLedger(t.portal.db);
    expect(v.map((x) => x.rule)).toContain('balance equals entries');
    await t.portal.db.query('UPDATE ledger_accounts SET balance = balance - 1 WHERE member_id = $1', [a]);
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });

  it('refuses to delete merchants, accounts or transfers (the ledger rows carry no foreign keys), and the checker finds a dangling reference', async () => {
    const [a] = await newMembers(1);
    const r = await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `keep${a}`, kind: 'deposit', amount: 300, debit: { system: 'deposit' }, credit: { member: a! } }));
    for (const sql of [
      'DELETE FROM ledger_transfers WHERE id = $1',
      'DELETE FROM ledger_accounts WHERE member_id = $1',
      "DELETE FROM merchants WHERE code = 'DEMO' AND $1::bigint IS NOT NULL",
      "UPDATE merchants SET code = 'DEMO2' WHERE code = 'DEMO' AND $1::bigint IS NOT NULL",
    ]) {
      await expect(t.portal.db.query(sql, [sql.includes('member_id') ? a : r.transferId])).rejects.toThrow(/never deleted or renamed/);
    }
    // A leg pointing at no transfer (only a hand-written row can do this): reported, then removed.
    const acc = (await t.portal.db.query<{ id: number }>('SELECT id FROM ledger_accounts WHERE member_id = $1', [a])).rows[0]!.id;
    const e = (await t.portal.db.query<{ id: number }>(
      'INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after) VALUES (-1, $1, 1, 0), (-1, $1, -1, 0) RETURNING id', [acc])).rows.map((x) => x.id);
    expect((await checkLedger(t.portal.db)).map((x) => x.rule)).toEqual(['references resolve', 'references resolve']);
    await t.portal.db.query('DELETE FROM ledger_entries WHERE id = ANY($1::bigint[])', [e]);
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });

  it('spreads system legs over SYSTEM_SHARDS rows by default, over the given count with createLedger, and keeps them consistent', async () => {
    const [a] = await newMembers(1);
    const shardsUsed = async (prefix: string) => (await t.portal.db.query<{ shard: number }>(
      `SELECT DISTINCT s.shard FROM ledger_transfers x JOIN ledger_accounts s ON s.id = x.credit_account_id WHERE x.idempotency_key LIKE $1 ORDER BY 1`, [`${prefix}%`])).rows.map((r) => r.shard);
    const bet = (key: string, amount = 10): TransferInput => ({ merchant: 'DEMO', currency: 'PHP', key, kind: 'bet', amount, debit: { member: a! }, credit: { system: 'game' } });
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `sh${a}:seed`, kind: 'deposit', amount: 10_000, debit: { system: 'deposit' }, credit: { member: a! } }));
    for (let i = 0; i < 40; i++) await t.portal.db.tx((tx) => transfer(tx, bet(`sh${a}:d${i}`)));
    const spread = await shardsUsed(`sh${a}:d`);
    expect(spread.length).toBeGreaterThan(4);
    // shardOfKey tells in JavaScript the row each key's transfer took (callers group grabs by it).
    const picked = (await t.portal.db.query<{ key: string; shard: number }>(
      `SELECT x.idempotency_key AS key, s.shard FROM ledger_transfers x JOIN ledger_accounts s ON s.id = x.credit_account_id WHERE x.idempotency_key LIKE $1`, [`sh${a}:d%`])).rows;
    expect(picked).toHaveLength(40);
    for (const p of picked) expect(shardOfKey(p.key)).toBe(Number(p.shard));
    expect(Math.max(...spread)).toBeLessThan(SYSTEM_SHARDS);
    const hot = createLedger({ systemShards: 1 });
    for (let i = 0; i < 10; i++) await t.portal.db.tx((tx) => hot.transfer(tx, bet(`sh${a}:h${i}`)));
    expect(await shardsUsed(`sh${a}:h`)).toEqual([0]);
    // a replay through either ledger is a replay; the member's balance counts every bet once
    expect(await t.portal.db.tx((tx) => hot.transfer(tx, bet(`sh${a}:d0`)))).toMatchObject({ replayed: true });
    await expect(t.portal.db.tx((tx) => hot.transfer(tx, bet(`sh${a}:h0`, 11)))).rejects.toMatchObject({ code: 'IDEMPOTENCY_MISMATCH' });
    expect((await balanceOf(t.portal.db, a!, 'PHP')).balance).toBe(10_000 - 50 * 10);
    for (const bad of [0, -1, 1.5, 2000, Number.NaN]) expect(() => createLedger({ systemShards: bad })).toThrow(RangeError);
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });

  it('posts member and system legs with one entry each whatever the account ids, and never deadlocks on a shared row', async () => {
    const ids = await newMembers(4);
    const hot = createLedger({ systemShards: 1 });
    for (const id of ids) await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `lo${id}:seed`, kind: 'deposit', amount: 5_000, debit: { system: 'deposit' }, credit: { member: id } }));
    // bets, wins and member-to-member moves at once, all on one house row and the same four members
    const ops = Array.from({ length: 60 }, (_, k) => {
      const m = ids[k % 4]!;
      const o = ids[(k + 1) % 4]!;
      const base = { merchant: 'DEMO', currency: 'PHP', key: `lo${ids[0]}:op${k}`, amount: 1 + (k % 7) };
      if (k % 3 === 0) return { ...base, kind: 'bet', debit: { member: m }, credit: { system: 'game' as const } };
      if (k % 3 === 1) return { ...base, kind: 'win', debit: { system: 'game' as const }, credit: { member: m } };
      return { ...base, kind: 'transfer', debit: { member: m }, credit: { member: o } };
    });
    const results = await Promise.all(ops.map((o) => t.portal.db.tx((tx) => hot.transfer(tx, o))));
    expect(results.every((r) => !r.replayed)).toBe(true);
    const entries = await t.portal.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_transfers x ON x.id = e.transfer_id WHERE x.idempotency_key LIKE $1`, [`lo${ids[0]}:op%`]);
    expect(entries.rows[0]!.n).toBe(120);
    const want = ids.map((id) => 5_000 + ops.reduce((s, o) => s + ('member' in o.credit && o.credit.member === id ? o.amount : 0) - ('member' in o.debit && o.debit.member === id ? o.amount : 0), 0));
    for (const [n, id] of ids.entries()) expect((await balanceOf(t.portal.db, id, 'PHP')).balance).toBe(want[n]);
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });
});
