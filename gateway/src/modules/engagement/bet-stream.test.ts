import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { seedVendor, vendorClient } from '../../testing/vendor-suite.ts';
import { transfer } from '../wallet/ledger.ts';
import type { BetFact } from './bet-stream.ts';
import { userAudience, type TEventEnvelope } from '@portal/contracts/events/events';
import { emitEvent, onLocalCommit } from '../../bus/outbox.ts';
import { countingDb } from '../../testing/counting-db.ts';

/** The bet stream over real vendor calls: every fact once, in order, with the consumer's effects in the same transaction. */
let t: TestPortal;
const VENDOR = 'BSV';
const secret = randomBytes(32).toString('hex');
const { vendorCall, vendorToken } = vendorClient(() => t.url, VENDOR, secret);
let seq = 0;
const id = (p: string) => `${p}-${Date.now()}-${++seq}`;
const seen: BetFact[] = [];
let failOn: string | null = null;

beforeAll(async () => {
  t = await startTestPortal();
  const db = t.portal.db;
  await seedVendor(db, VENDOR, secret, [{ type: 'FISH', node: 'BSV-G1', code: 'G1', name: 'Stream Fish', vendorName: 'Stream Vendor' }]);
  await db.query('CREATE TABLE test_bet_stream_seen (stream_id bigint PRIMARY KEY, fact text NOT NULL)');
  t.portal.betStream.register({
    name: 'test',
    async handle(tx, facts) {
      for (const f of facts) {
        await tx.query('INSERT INTO test_bet_stream_seen (stream_id, fact) VALUES ($1, $2)', [f.streamId, f.fact]);
        if (failOn && f.transactionId === failOn) throw new Error('consumer refuses this fact');
      }
      seen.push(...facts);
    },
  });
  // A consumer that announces what it did, as the wagering consumer does (bonus.progress).
  t.portal.betStream.register({
    name: 'test.announce',
    async handle(tx, facts) {
      for (const f of facts.filter((x) => x.fact === 'bet' && x.transactionId.startsWith('announce-'))) {
        await emitEvent(tx, f.merchantCode, userAudience(f.memberId), 'balance.changed', {
          memberId: f.memberId, currency: 'PHP', balance: 0, available: 0, delta: 0, reason: 'test', transferId: f.transactionId,
        });
      }
    },
  });
});
afterAll(async () => {
  await t.stop();
});

async function player() {
  const s = (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: `bs${Date.now() % 1e7}${++seq}` } })).json!.value!;
  await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: id('seed'), kind: 'deposit', amount: 100_000, debit: { system: 'deposit' }, credit: { member: s.memberId } }));
  const token = await vendorToken(s.token, 'BSV-G1');
  return { memberId: s.memberId, playerId: String(s.memberId), token };
}

describe('bet stream', () => {
  it('hands every bet, paid win and rollback to the consumers once, in order, with the game type', async () => {
    const p = await player();
    const bet1 = id('b'), bet2 = id('b'), win1 = id('w'), zeroWin = id('w'), rb = id('rb');
    await vendorCall('bet', { transactionId: bet1, playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 1_000, token: p.token });
    await vendorCall('win', { transactionId: win1, playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 2_500 });
    await vendorCall('bet', { transactionId: bet2, playerId: p.playerId, roundId: 'r2', gameCode: 'G1', amount: 700, token: p.token });
    await vendorCall('win', { transactionId: zeroWin, playerId: p.playerId, roundId: 'r2', gameCode: 'G1', amount: 0 });
    await vendorCall('rollback', { transactionId: rb, playerId: p.playerId, roundId: 'r2', refTransactionId: bet2 });
    await t.portal.betStream.drainNow();
    const mine = seen.filter((f) => f.memberId === p.memberId);
    expect(mine.map((f) => [f.fact, f.transactionId, f.amount])).toEqual([
      ['bet', bet1, 1_000], ['win', win1, 2_500], ['bet', bet2, 700], ['bet_rolled_back', bet2, 700],
    ]);
    expect(mine.every((f) => f.gameType === 'FISH' && f.gameCode === 'G1' && f.vendor === VENDOR && f.merchantCode === 'DEMO')).toBe(true);
    expect(mine.map((f) => f.streamId)).toEqual([...mine.map((f) => f.streamId)].sort((a, b) => a - b));
    // Nothing left, nothing twice.
    expect((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bet_stream_pending')).rows[0]!.n).toBe(0);
    const rows = await t.portal.db.query<{ n: number; d: number }>('SELECT count(*)::int AS n, count(DISTINCT stream_id)::int AS d FROM test_bet_stream_seen');
    expect(rows.rows[0]!.n).toBe(seen.length);
    expect(rows.rows[0]!.d).toBe(seen.length);
  });

  it('parks only the fact a consumer fails on, rolls back its effects, and goes on with the others', async () => {
    const p = await player();
    const good1 = id('b'), bad = id('b'), good2 = id('b');
    failOn = bad;
    try {
      await vendorCall('bet', { transactionId: good1, playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 100, token: p.token });
      await vendorCall('bet', { transactionId: bad, playerId: p.playerId, roundId: 'r2', gameCode: 'G1', amount: 200, token: p.token });
      await vendorCall('bet', { transactionId: good2, playerId: p.playerId, roundId: 'r3', gameCode: 'G1', amount: 300, token: p.token });
      await t.portal.betStream.drainNow();
    } finally {
      failOn = null;
    }
    const mine = seen.filter((f) => f.memberId === p.memberId).map((f) => f.transactionId);
    expect(mine).toEqual([good1, good2]);
    const parked = await t.portal.db.query<{ transaction_id: string; error: string }>('SELECT transaction_id, error FROM bet_stream_parked');
    expect(parked.rows).toEqual([{ transaction_id: bad, error: 'Error: consumer refuses this fact' }]);
    // The failed attempts' inserts were rolled back with their batch: each consumed fact once, the parked one never.
    const rows = await t.portal.db.query<{ n: number; d: number }>('SELECT count(*)::int AS n, count(DISTINCT stream_id)::int AS d FROM test_bet_stream_seen');
    expect(rows.rows[0]).toEqual({ n: seen.length, d: seen.length });
  });

  it("a consumer's events are this node's own commits (onLocalCommit of the portal's db), also from the drain's own PostgreSQL connection", async () => {
    const heard: TEventEnvelope[] = [];
    const stop = onLocalCommit(t.portal.db, (events) => heard.push(...events));
    try {
      const p = await player();
      const bet = id('announce');
      await vendorCall('bet', { transactionId: bet, playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 100, token: p.token });
      await t.portal.betStream.drainNow();
      expect(heard.filter((e) => e.type === 'balance.changed' && (e.payload as { transferId: string }).transferId === bet)).toHaveLength(1);
    } finally {
      stop();
    }
  });
});

describe('bet stream work list', () => {
  it('vacuums bet_stream_pending itself after enough facts (no reliance on autovacuum)', async () => {
    const { createBetStream } = await import('./bet-stream.ts');
    const quiet = { warn() {}, error() {} };
    // A second drain over the same table with a low threshold; the portal's own drain is idle between tests.
    const stream = createBetStream({ db: t.portal.db, log: quiet, vacuumAfterRows: 3, vacuumEveryMs: 0 });
    const count = async () => {
      await t.portal.db.query('SELECT pg_stat_clear_snapshot()');
      return Number((await t.portal.db.query<{ n: string }>(`SELECT pg_stat_get_vacuum_count('bet_stream_pending'::regclass) AS n`)).rows[0]!.n);
    };
    const before = await count();
    const p = await player();
    await t.portal.betStream.stop();
    try {
      await vendorCall('bet', { transactionId: id('v'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: p.token });
      await vendorCall('bet', { transactionId: id('v'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: p.token });
      expect(await stream.drainNow()).toBe(2);
      expect(stream.vacuums()).toBe(0); // 2 facts: below the threshold
      await vendorCall('bet', { transactionId: id('v'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: p.token });
      expect(await stream.drainNow()).toBe(1);
      expect(stream.vacuums()).toBe(1);
      expect(await count()).toBeGreaterThan(before);
    } finally {
      await stream.stop();
    }
  });

  it('an idle drain asks whether anything is pending (one statement) instead of running a pass every poll; a wake still drains', async () => {
    const { createBetStream } = await import('./bet-stream.ts');
    const quiet = { warn() {}, error() {} };
    // The portal's db, with the drain's transactions and the poll's questions counted.
    const counted = countingDb(t.portal.db, 'EXISTS (SELECT 1 FROM bet_stream_pending)');
    await t.portal.betStream.stop();
    const handled: string[] = [];
    const stream = createBetStream({ db: counted.db, log: quiet, pollMs: 20 });
    stream.register({ name: 'idle-test', handle: async (_tx, facts) => { handled.push(...facts.map((f) => f.transactionId)); } });
    stream.start();
    try {
      await new Promise((r) => setTimeout(r, 600));
      // The start's pass only; the polls (about 30) asked and found nothing. Before: a pass each.
      expect(counted.txs()).toBeLessThanOrEqual(2);
      expect(counted.queries()).toBeGreaterThan(5);
      const p = await player();
      const tx = id('idle');
      await vendorCall('bet', { transactionId: tx, playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: p.token });
      for (let i = 0; !handled.includes(tx); i++) {
        if (i > 200) throw new Error('the woken drain did not take the fact');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await stream.stop();
    }
  });
});
