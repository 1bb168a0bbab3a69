import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantAudience, userAudience, type TEventEnvelope } from '@portal/contracts/events/events';
import { createMemoryBus, type EventBus } from './bus.ts';
import { emitEvent, emitEvents, onLocalCommit, type NewEvent } from './outbox.ts';
import { pruneOutbox, startRelay } from './relay.ts';
import { startTestPortal, waitFor, type TestPortal } from '../testing/test-portal.ts';
import { withRequestId } from '../obs/request-id.ts';
import { txOwner } from '../db/db.ts';
import { countingDb } from '../testing/counting-db.ts';

let t: TestPortal;
/** Everything the bus carried, in the order it carried it. */
const published: TEventEnvelope[] = [];
beforeAll(async () => {
  t = await startTestPortal();
  t.portal.bus.subscribe((events) => published.push(...events));
});
afterAll(async () => {
  await t.stop();
});

const balancePayload = (memberId: number, n: number) => ({
  memberId, currency: 'PHP', balance: n, available: n, delta: 1, reason: 'test', transferId: `ob-${memberId}-${n}`,
});
const balance = (memberId: number, n: number): NewEvent => ({ audience: userAudience(memberId), type: 'balance.changed', payload: balancePayload(memberId, n) });
const winner = (n: number): NewEvent => ({
  audience: merchantAudience('DEMO'),
  type: 'winner.posted',
  payload: { id: `w-${n}`, iconUrl: null, winAmount: n, gameName: 'Golden Empire', customerName: `Wi***${n}`, at: new Date().toISOString() },
});

async function seqOf(audience: string): Promise<number> {
  const r = await t.portal.db.query<{ seq: number }>('SELECT seq FROM audience_seq WHERE audience = $1', [audience]);
  return r.rows[0]?.seq ?? 0;
}

/** Outbox rows of the given audiences: pos order must be seq order within each audience, seqs 1..n without gaps. */
async function checkRows(audiences: string[], from: Map<string, number>) {
  const r = await t.portal.db.query<{ audience: string; seq: number }>(
    'SELECT audience, seq FROM outbox WHERE audience = ANY($1::text[]) ORDER BY pos',
    [audiences],
  );
  const by = new Map<string, number[]>();
  for (const row of r.rows) by.set(row.audience, [...(by.get(row.audience) ?? []), row.seq]);
  for (const a of audiences) {
    const seqs = (by.get(a) ?? []).filter((s) => s > (from.get(a) ?? 0));
    const last = await seqOf(a);
    expect(seqs, a).toEqual(Array.from({ length: last - (from.get(a) ?? 0) }, (_, i) => (from.get(a) ?? 0) + i + 1));
  }
}

/** What the bus carried of these audiences: each seq once, one above the previous, per audience. */
function checkPublished(audiences: string[], from: Map<string, number>, until: Map<string, number>) {
  for (const a of audiences) {
    const seqs = published.filter((e) => e.audience === a && e.seq > (from.get(a) ?? 0)).map((e) => e.seq);
    const n = (until.get(a) ?? 0) - (from.get(a) ?? 0);
    expect(seqs, a).toEqual(Array.from({ length: n }, (_, i) => (from.get(a) ?? 0) + i + 1));
  }
}

describe('emitEvents', () => {
  it('writes a batch in one call: envelopes in the order given, consecutive seqs per audience, pos order = seq order', async () => {
    const before = new Map([[userAudience(7001), await seqOf(userAudience(7001))], [userAudience(7002), await seqOf(userAudience(7002))]]);
    const batch = [balance(7001, 1), balance(7002, 1), balance(7001, 2), winner(1), balance(7001, 3), balance(7002, 2)];
    const envs = await t.portal.db.tx((tx) => emitEvents(tx, 'DEMO', batch));
    expect(envs.map((e) => [e.audience, e.type])).toEqual(batch.map((e) => [e.audience, e.type]));
    expect(envs.map((e) => e.payload)).toEqual(batch.map((e) => e.payload));
    const b1 = before.get(userAudience(7001))!;
    const b2 = before.get(userAudience(7002))!;
    expect(envs.filter((e) => e.audience === userAudience(7001)).map((e) => e.seq)).toEqual([b1 + 1, b1 + 2, b1 + 3]);
    expect(envs.filter((e) => e.audience === userAudience(7002)).map((e) => e.seq)).toEqual([b2 + 1, b2 + 2]);
    expect(new Set(envs.map((e) => e.id)).size).toBe(envs.length);
    await checkRows([userAudience(7001), userAudience(7002)], before);
    // The relay carries them in that order.
    await waitFor(() => envs.every((e) => published.some((p) => p.id === e.id)), 'batch published');
    // The relay carries them in that order, as written (same id, seq, time and payload).
    expect(published.filter((p) => envs.some((e) => e.id === p.id))).toEqual(envs);
    // An empty batch writes nothing and needs no round trip.
    expect(await t.portal.db.tx((tx) => emitEvents(tx, 'DEMO', []))).toEqual([]);
  });

  it('refuses a bad audience or payload before writing anything', async () => {
    const before = await seqOf(userAudience(7003));
    const bad = { ...balance(7003, 1), payload: { memberId: 7003 } } as unknown as NewEvent;
    await expect(t.portal.db.tx((tx) => emitEvents(tx, 'DEMO', [balance(7003, 1), bad]))).rejects.toThrow();
    await expect(t.portal.db.tx((tx) => emitEvents(tx, 'DEMO', [{ ...balance(7003, 2), audience: 'room:1' }]))).rejects.toThrow();
    expect(await seqOf(userAudience(7003))).toBe(before);
  });

  it('keeps seqs gapless and in commit order under concurrent batches, single emits and rollbacks, with two relays', async () => {
    const members = [7101, 7102, 7103, 7104, 7105];
    const audiences = [...members.map((m) => userAudience(m)), merchantAudience('DEMO')];
    const from = new Map<string, number>();
    for (const a of audiences) from.set(a, await seqOf(a));
    // A second relay on the same database: the relay lock keeps one publishing at a time, in order.
    const second = startRelay(t.portal.db, t.portal.bus, t.portal.log, 5);
    try {
      let n = 0;
      const jobs = Array.from({ length: 40 }, (_, j) => async () => {
        // Batches name the same audiences in different orders (locks are still taken sorted: no deadlock).
        const ms = j % 2 ? [...members].reverse() : members;
        const events = [...ms.slice(0, 2 + (j % 4)).flatMap((m) => [balance(m, ++n), balance(m, ++n)]), winner(j)];
        await t.portal.db.tx(async (tx) => {
          const envs = await emitEvents(tx, 'DEMO', events);
          // A single emit after the batch, to an audience the batch already holds (no new lock: lock order kept).
          const one = j % 5 === 0 ? await emitEvent(tx, 'DEMO', userAudience(ms[0]!), 'balance.changed', balancePayload(ms[0]!, ++n)) : null;
          if (j % 7 === 3) throw new Error('rolled back');
          return { envs, one };
        }).then(({ envs, one }) => {
          // Seqs are known once committed (on PostgreSQL the outbox rows may go with the COMMIT).
          // Within one batch, one audience's events are consecutive and in the order given.
          for (const a of audiences) {
            const s = envs.filter((e) => e.audience === a).map((e) => e.seq);
            expect(s).toEqual(s.map((_, i) => s[0]! + i));
            expect(s.every((x) => x > 0)).toBe(true);
          }
          if (one) expect(one.seq).toBe(Math.max(...envs.filter((e) => e.audience === one.audience).map((e) => e.seq)) + 1);
        }, (err: Error) => {
          if (err.message !== 'rolled back') throw err;
        });
      });
      await Promise.all(jobs.map((f) => f()));
      const until = new Map<string, number>();
      for (const a of audiences) until.set(a, await seqOf(a));
      for (const a of audiences) expect(until.get(a)!).toBeGreaterThan(from.get(a)!);
      await checkRows(audiences, from);
      await waitFor(
        () => audiences.every((a) => published.filter((e) => e.audience === a && e.seq > from.get(a)!).length >= until.get(a)! - from.get(a)!),
        'all published',
      );
      checkPublished(audiences, from, until);
      // Nothing stays pending. A relay's deletions commit after its publish (on PostgreSQL up to 10 ms
      // later, with the next pass: HeldTx), so the last ones may still be on their way here.
      const left = async () => (await t.portal.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM outbox o JOIN outbox_pending p ON p.pos = o.pos WHERE o.audience = ANY($1::text[])', [audiences])).rows[0]!.n;
      for (let i = 0; (await left()) > 0; i++) {
        if (i > 200) throw new Error(`rows still pending: ${await left()}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await second.stop();
    }
  });
});

describe('db.single (a one-statement transaction)', () => {
  it('commits an event as one statement: relayed, heard by local listeners, with the request id, and a rollback-free failure', async () => {
    const a = userAudience(7101);
    const before = await seqOf(a);
    const heard: TEventEnvelope[] = [];
    const stop = onLocalCommit(t.portal.db, (events) => heard.push(...events));
    try {
      let owner: unknown;
      const e = await withRequestId('single-req-1', () => t.portal.db.single((tx) => {
        owner = txOwner(tx);
        return emitEvent(tx, 'DEMO', a, 'balance.changed', balancePayload(7101, 1));
      }));
      expect(owner).toBe(t.portal.db);
      expect(e.seq).toBe(before + 1);
      expect(heard.map((x) => x.id)).toEqual([e.id]);
      const row = await t.portal.db.query<{ request_id: string | null; seq: number }>('SELECT request_id, seq FROM outbox WHERE id = $1', [e.id]);
      expect(row.rows[0]).toEqual({ request_id: 'single-req-1', seq: before + 1 });
      await waitFor(() => published.find((p) => p.id === e.id), 'single event published');
      expect(published.find((p) => p.id === e.id)).toMatchObject({ seq: before + 1, requestId: 'single-req-1' });
      // An unnamed statement with parameters rides with the request id's set_config before one Sync (no BEGIN).
      const fused = await withRequestId('single-req-3', () => t.portal.db.single((tx) => tx.query<{ seq: number }>(
        "SELECT outbox_emit('DEMO', $1, 'balance.changed', $2::jsonb, gen_random_uuid(), now()) AS seq", [a, JSON.stringify(balancePayload(7101, 9))])));
      expect((await t.portal.db.query<{ request_id: string | null }>('SELECT request_id FROM outbox WHERE audience = $1 AND seq = $2', [a, fused.rows[0]!.seq])).rows[0]!.request_id).toBe('single-req-3');
      // Without a request: no id recorded, and the last one's setting did not stay on the connection.
      const plain = await t.portal.db.single((tx) => emitEvent(tx, 'DEMO', a, 'balance.changed', balancePayload(7101, 2)));
      expect((await t.portal.db.query<{ request_id: string | null }>('SELECT request_id FROM outbox WHERE id = $1', [plain.id])).rows[0]!.request_id).toBeNull();
      // A second statement is refused before it runs; the first one stands (it was its own transaction).
      const n = await seqOf(a);
      await expect(t.portal.db.single(async (tx) => {
        await emitEvent(tx, 'DEMO', a, 'balance.changed', balancePayload(7101, 3));
        await emitEvent(tx, 'DEMO', a, 'balance.changed', balancePayload(7101, 4));
      })).rejects.toThrow(/second statement/);
      expect(await seqOf(a)).toBe(n + 1);
      // A failing statement writes nothing and announces nothing.
      const heardBefore = heard.length;
      const seqBefore = await seqOf(a);
      await expect(withRequestId('single-req-2', () => t.portal.db.single((tx) => tx.query(
        "SELECT outbox_emit('DEMO', $1, 'balance.changed', '{}'::jsonb, gen_random_uuid(), now()), 1 / 0", [a])))).rejects.toThrow(/division by zero/);
      expect(await seqOf(a)).toBe(seqBefore);
      expect(heard.length).toBe(heardBefore);
    } finally {
      stop();
    }
  });
});

describe('outbox relay', () => {
  it('leaves rows unpublished when a publish fails and sends them again, in order (at least once)', async () => {
    const p = await startTestPortal();
    try {
      // This portal's own relay steps aside; ours publishes to a bus that fails on demand.
      await p.portal.relay.stop();
      const inner = createMemoryBus();
      const got: TEventEnvelope[] = [];
      inner.subscribe((events) => got.push(...events));
      let mode: 'fail' | 'deliver-then-fail' | 'ok' = 'fail';
      let failures = 0;
      const bus: EventBus = {
        ...inner,
        async publish(events) {
          if (mode === 'deliver-then-fail') await inner.publish(events);
          if (mode !== 'ok') {
            failures++;
            throw new Error('bus down');
          }
          await inner.publish(events);
        },
      };
      const quiet = { warn() {}, error() {} };
      const relay = startRelay(p.portal.db, bus, quiet, 5);
      try {
        const unpublished = async () =>
          (await p.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_pending')).rows[0]!.n;
        const first = await p.portal.db.tx((tx) => emitEvents(tx, 'DEMO', [balance(8001, 1), balance(8001, 2), winner(3)]));
        await waitFor(() => failures >= 2, 'failed publishes');
        expect(got).toEqual([]);
        expect(await unpublished()).toBeGreaterThanOrEqual(3);
        // Delivered, but the pass fails before its mark commits (a crash between publish and mark).
        mode = 'deliver-then-fail';
        await waitFor(() => got.length >= 3, 'delivered once');
        mode = 'ok';
        for (let i = 0; (await unpublished()) > 0; i++) {
          if (i > 500) throw new Error('rows never marked published');
          await new Promise((r) => setTimeout(r, 10));
        }
        const ids = first.map((e) => e.id);
        const mine = got.filter((e) => ids.includes(e.id));
        // Every event at least once; each delivery of the batch in order; repeats carry the same seq.
        expect(mine.length % 3).toBe(0);
        expect(mine.length).toBeGreaterThanOrEqual(6);
        for (let i = 0; i < mine.length; i += 3) expect(mine.slice(i, i + 3)).toEqual(first);
      } finally {
        await relay.stop();
      }
    } finally {
      await p.stop();
    }
  });

  it('vacuums outbox_pending itself once it has published 1,000 rows and a second has passed (no reliance on autovacuum)', async () => {
    const p = await startTestPortal();
    try {
      await p.portal.relay.stop();
      const relay = startRelay(p.portal.db, p.portal.bus, { warn: () => {}, error: () => {} }, 20);
      const vacuumCount = async () =>
        (await p.portal.db.query<{ n: string }>(`SELECT pg_stat_get_vacuum_count('outbox_pending'::regclass) AS n`)).rows[0]!.n;
      const drained = async () => {
        for (let i = 0; (await p.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_pending')).rows[0]!.n > 0; i++) {
          if (i > 500) throw new Error('outbox_pending never drained');
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      try {
        const before = await vacuumCount();
        const started = performance.now();
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) {
          const sent = await p.portal.db.tx((tx) => emitEvents(tx, 'DEMO', Array.from({ length: 200 }, (_, k) => balance(8200 + k, i))));
          ids.push(...sent.map((e) => e.id));
        }
        await drained();
        await new Promise((r) => setTimeout(r, Math.max(0, 1100 - (performance.now() - started))));
        // The next pass after the second has passed vacuums.
        await p.portal.db.tx((tx) => emitEvent(tx, 'DEMO', userAudience(8299), 'balance.changed', balancePayload(8299, 1)));
        await waitFor(() => relay.vacuums() >= 1, 'vacuumed');
        const vacuumed = relay.vacuums();
        await p.portal.db.query('SELECT pg_stat_clear_snapshot()');
        expect(Number(await vacuumCount())).toBeGreaterThan(Number(before));
        // And not again until another 1,000 rows are published.
        await p.portal.db.tx((tx) => emitEvent(tx, 'DEMO', userAudience(8299), 'balance.changed', balancePayload(8299, 2)));
        await new Promise((r) => setTimeout(r, 1200));
        await p.portal.db.tx((tx) => emitEvent(tx, 'DEMO', userAudience(8299), 'balance.changed', balancePayload(8299, 3)));
        await drained();
        expect(relay.vacuums()).toBe(vacuumed);
      } finally {
        await relay.stop();
      }
    } finally {
      await p.stop();
    }
  });

  it('lists each new row as pending until the relay publishes it; the outbox row itself stays, and pruning never takes a pending row', async () => {
    const pending = async (ids: string[]) =>
      (await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox o JOIN outbox_pending p ON p.pos = o.pos WHERE o.id = ANY($1::uuid[])', [ids])).rows[0]!.n;
    const kept = async (ids: string[]) =>
      (await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[])', [ids])).rows[0]!.n;
    await t.portal.relay.stop();
    const held = await t.portal.db.tx((tx) => emitEvents(tx, 'DEMO', [balance(8101, 1), winner(8101)]));
    const ids = held.map((e) => e.id);
    expect(await pending(ids)).toBe(2);
    await t.portal.db.query(`UPDATE outbox SET at = now() - interval '2 days' WHERE id = ANY($1::uuid[])`, [ids]);
    await pruneOutbox(t.portal.db, 1);
    expect(await kept(ids)).toBe(2); // old, but not yet published

    const relay = startRelay(t.portal.db, t.portal.bus, { warn: () => {}, error: () => {} }, 50);
    try {
      await waitFor(() => ids.every((id) => published.some((e) => e.id === id)), 'published');
      for (let i = 0; (await pending(ids)) > 0; i++) {
        if (i > 500) throw new Error('still pending after publication');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await kept(ids)).toBe(2); // kept for reconnect catch-up until retention ends
      await pruneOutbox(t.portal.db, 1);
      expect(await kept(ids)).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('a quiet relay polls less (up to 32 x its period), and still publishes a row no local commit announced', async () => {
    await t.portal.relay.stop();
    // The portal's db, with the poll's question counted.
    const counted = countingDb(t.portal.db, 'EXISTS (SELECT 1 FROM outbox_pending)');
    const relay = startRelay(counted.db, t.portal.bus, { warn: () => {}, error: () => {} }, 10);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const before = counted.queries();
      await new Promise((r) => setTimeout(r, 1_000));
      // Every 10 ms that second would be 100 questions; backed off to every 320 ms, about 3.
      expect(counted.queries() - before).toBeLessThanOrEqual(8);
      expect(counted.queries() - before).toBeGreaterThan(0);
      // A row written by SQL alone wakes nobody: the slowed poll still finds it.
      const a = userAudience(8201);
      await t.portal.db.query("SELECT outbox_emit('DEMO', $1, 'balance.changed', $2::jsonb, gen_random_uuid(), now())", [a, JSON.stringify(balancePayload(8201, 1))]);
      await waitFor(() => published.some((e) => e.audience === a), 'the unannounced row published');
    } finally {
      await relay.stop();
    }
  });
});
