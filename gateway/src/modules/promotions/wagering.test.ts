import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wagerContribution } from '@portal/contracts/domain/promotions';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { testMembers } from '../../testing/test-members.ts';
import { signedInOperator } from '../../testing/vendor-suite.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import type { Operator } from '../ops/operators.ts';
import type { BetFact } from '../engagement/bet-stream.ts';
import { bonusBalance } from './promotions-ledger.ts';

/**
 * Wagering and conversion against a simple model, through the real consumer and ledger: random bets
 * (game types with random weights), wins and rollbacks, cut into random batches. The bonus's progress
 * equals the model's; it converts exactly once, when the model says; the books stay balanced.
 */
let t: TestPortal;
let op: Operator;
const newMember = testMembers(() => t.url, { prefix: 'wg' });
let streamId = 1e9;
/** A bet-stream fact of the member, with the next stream id. */
const betFact = (memberId: number, vendor: string, kind: BetFact['fact'], tx: string, amount: number, gameType: string | null): BetFact => ({
  streamId: ++streamId, fact: kind, merchantCode: 'DEMO', memberId, vendor, transactionId: tx, roundId: tx,
  gameCode: null, gameType, amount, placedAt: new Date(), capturedAt: new Date(),
});

beforeAll(async () => {
  t = await startTestPortal();
  const token = await signedInOperator(t, 'wgadmin', 'Wager12345678', ['administrator']);
  op = (await t.portal.cashier.operators.resolve(token))!;
}, 300_000);
afterAll(async () => {
  await t?.stop();
}, 120_000);

const TYPES = ['FISH', 'LIVE', 'RNG', null] as const;
type Op = { kind: 'bet'; type: (typeof TYPES)[number]; amount: number } | { kind: 'win'; amount: number } | { kind: 'rollback'; of: number } | { kind: 'spend'; amount: number };

const arbCase = fc.record({
  bonus: fc.integer({ min: 1, max: 50_000 }),
  x: fc.integer({ min: 1, max: 4 }),
  weights: fc.record({ FISH: fc.integer({ min: 0, max: 100 }), LIVE: fc.integer({ min: 0, max: 100 }), RNG: fc.integer({ min: 0, max: 100 }) }),
  ops: fc.array(fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('bet' as const), type: fc.constantFrom(...TYPES), amount: fc.integer({ min: 1, max: 40_000 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('win' as const), amount: fc.integer({ min: 1, max: 40_000 }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('rollback' as const), of: fc.nat() }) },
    // The player spends from the wallet (a withdrawal, say): a later clawback may find less than the bonus.
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('spend' as const), amount: fc.integer({ min: 1, max: 60_000 }) }) },
  ), { minLength: 1, maxLength: 30 }),
  cuts: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
});

const walletOf = async (memberId: number) =>
  Number((await t.portal.db.query<{ balance: string }>('SELECT balance FROM ledger_accounts WHERE member_id = $1', [memberId])).rows[0]?.balance ?? 0);

describe('wagering (property)', () => {
  it('progress, conversions, reverted conversions (rollback after conversion), owed and balanced books match the model', { timeout: 600_000 }, async () => {
    await fc.assert(fc.asyncProperty(arbCase, async (c) => {
      const m = await newMember(0);
      const promo = await t.portal.promos.create(op, 'DEMO', {
        category: 'special', kind: 'request', title: { EN: 'P', TY: 'P' }, rules: { EN: 'R', TY: 'R' }, startsAt: new Date(Date.now() - 3600_000).toISOString(), endsAt: null,
        enabled: true, requiresJoin: false, rewardAmount: c.bonus, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: c.x, wageringDepositX: 0,
        weights: c.weights, rebateBps: {}, bonusDays: 7, drawAt: null, winners: null,
      });
      const req = await t.portal.promos.requestReward('DEMO', { memberId: m.memberId, account: m.account }, Number(promo.id), '', 'EN');
      await t.portal.promos.decide(op, 'DEMO', Number(req.reward.id), { approve: true, reason: '' });
      const required = c.bonus * c.x;

      // The model: one bonus; the wallet holds only what conversions paid (the bets are stream facts, not wallet moves).
      let progress = 0;
      let converted = false;
      let wallet = 0;
      let owed = 0;
      let conversions = 0;
      let paidConversions = 0;
      let clawbacks = 0;
      const bets: Array<{ tx: string; given: number; rolled: boolean }> = [];
      // Steps: stream facts, or a wallet spend (which also ends the current batch).
      const steps: Array<{ fact: BetFact } | { spend: number; key: string }> = [];
      const fact = (kind: BetFact['fact'], tx: string, amount: number, gameType: string | null) => betFact(m.memberId, 'PROP', kind, tx, amount, gameType);
      for (const o of c.ops) {
        if (o.kind === 'bet') {
          const tx = `p${streamId + 1}`;
          const given = converted ? 0 : wagerContribution(o.amount, o.type, c.weights);
          bets.push({ tx, given, rolled: false });
          steps.push({ fact: fact('bet', tx, o.amount, o.type) });
          if (!converted) {
            progress += given;
            if (given > 0 && progress >= required) {
              converted = true;
              conversions++;
              if (c.bonus - owed > 0) paidConversions++;
              wallet += c.bonus - owed;
              owed = 0;
            }
          }
        } else if (o.kind === 'win') {
          steps.push({ fact: fact('win', `w${streamId + 1}`, o.amount, 'FISH') });
        } else if (o.kind === 'spend') {
          const amount = Math.min(o.amount, wallet);
          if (amount <= 0) continue;
          wallet -= amount;
          steps.push({ spend: amount, key: `prop:spend:${streamId}:${steps.length}` });
        } else {
          const open = bets.filter((b) => !b.rolled);
          if (!open.length) continue;
          const b = open[o.of % open.length]!;
          b.rolled = true;
          steps.push({ fact: fact('bet_rolled_back', b.tx, 1, null) });
          progress = Math.max(0, progress - b.given);
          if (converted && progress < required) {
            // The conversion is undone: the wallet gives back what it has, up to the bonus; the rest is owed.
            converted = false;
            const take = Math.min(c.bonus, wallet);
            if (take > 0) clawbacks++;
            wallet -= take;
            owed = c.bonus - take;
          }
        }
      }
      const walletBefore = await walletOf(m.memberId);
      // The real consumer, batch by batch (a spend ends a batch and moves real money out of the wallet).
      let k = 0;
      let batch: BetFact[] = [];
      const flush = async () => {
        if (batch.length) await t.portal.db.tx((tx) => t.portal.promos.consumer.handle(tx, batch));
        batch = [];
      };
      for (const s of steps) {
        if ('spend' in s) {
          await flush();
          await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: s.key, kind: 'test.spend', debit: { member: m.memberId }, credit: { system: 'withdrawal' }, amount: s.spend }));
          continue;
        }
        batch.push(s.fact);
        if (batch.length >= c.cuts[k % c.cuts.length]!) {
          k++;
          await flush();
        }
      }
      await flush();
      // A rollback delivered again changes nothing (its wager row is gone; its clawback key is spent).
      const again = steps.flatMap((s) => ('fact' in s && s.fact.fact === 'bet_rolled_back' ? [{ ...s.fact, streamId: ++streamId }] : []));
      if (again.length) await t.portal.db.tx((tx) => t.portal.promos.consumer.handle(tx, again));

      const r = (await t.portal.db.query<{ status: string; wager_progress: string; owed: string; conversions: number }>(
        'SELECT status, wager_progress, owed, conversions FROM promotion_rewards WHERE id = $1', [Number(req.reward.id)])).rows[0]!;
      expect(r.status).toBe(converted ? 'completed' : 'processing');
      expect(Number(r.wager_progress)).toBe(progress);
      expect(Number(r.owed)).toBe(owed);
      expect(r.conversions).toBe(conversions);
      const keys = await t.portal.db.query<{ key: string }>(`SELECT idempotency_key AS key FROM ledger_transfers WHERE idempotency_key LIKE $1`, [`promo:reward:${req.reward.id}:%`]);
      expect(keys.rows.filter((x) => x.key.includes(':convert')).length).toBe(paidConversions);
      expect(keys.rows.filter((x) => x.key.includes(':revert:')).length).toBe(clawbacks);
      if (paidConversions) expect(keys.rows.map((x) => x.key)).toContain(`promo:reward:${req.reward.id}:convert`);
      expect((await walletOf(m.memberId)) - walletBefore).toBe(wallet);
      expect(await bonusBalance(t.portal.db, m.memberId, 'PHP')).toBe(converted ? 0 : c.bonus - owed);
      expect(await checkLedger(t.portal.db)).toEqual([]);
    }), { numRuns: 25 });
  });

  it('a rollback after conversion undoes it once, capped by the wallet, owed netted from the next conversion, announced live', { timeout: 120_000 }, async () => {
    const m = await newMember(0);
    const promo = await t.portal.promos.create(op, 'DEMO', {
      category: 'special', kind: 'request', title: { EN: 'P', TY: 'P' }, rules: { EN: 'R', TY: 'R' }, startsAt: new Date(Date.now() - 3600_000).toISOString(), endsAt: null,
      enabled: true, requiresJoin: false, rewardAmount: 1_000, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: 2, wageringDepositX: 0,
      weights: {}, rebateBps: {}, bonusDays: 7, drawAt: null, winners: null,
    });
    const req = await t.portal.promos.requestReward('DEMO', { memberId: m.memberId, account: m.account }, Number(promo.id), '', 'EN');
    const id = Number(req.reward.id);
    await t.portal.promos.decide(op, 'DEMO', id, { approve: true, reason: '' });
    const f = (kind: BetFact['fact'], tx: string, amount: number) => betFact(m.memberId, 'ONE', kind, tx, amount, 'RNG');
    const handle = (facts: BetFact[]) => t.portal.db.tx((tx) => t.portal.promos.consumer.handle(tx, facts));
    const reward = async () => {
      const r = (await t.portal.db.query<{ status: string; wager_progress: string; owed: string }>('SELECT status, wager_progress, owed FROM promotion_rewards WHERE id = $1', [id])).rows[0]!;
      return { status: r.status, progress: Number(r.wager_progress), owed: Number(r.owed) };
    };
    const tag = `${m.memberId}-${streamId}`;
    await handle([f('bet', `a${tag}`, 1_500), f('bet', `b${tag}`, 600)]);
    expect(await reward()).toMatchObject({ status: 'completed' });
    expect(await walletOf(m.memberId)).toBe(1_000);
    // The player spends 700 of the 1,000; then the first bet is voided: progress 600 < 2,000.
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `one:spend:${tag}`, kind: 'test.spend', debit: { member: m.memberId }, credit: { system: 'withdrawal' }, amount: 700 }));
    const pos = Number((await t.portal.db.query<{ p: string }>('SELECT coalesce(max(pos), 0) AS p FROM outbox')).rows[0]!.p);
    await handle([f('bet_rolled_back', `a${tag}`, 1)]);
    expect(await reward()).toEqual({ status: 'processing', progress: 600, owed: 700 });
    expect(await walletOf(m.memberId)).toBe(0);
    expect(await bonusBalance(t.portal.db, m.memberId, 'PHP')).toBe(300);
    const ev = (await t.portal.db.query<{ type: string; payload: Record<string, unknown> }>(
      'SELECT type, payload FROM outbox WHERE pos > $1 AND audience = $2 ORDER BY pos', [pos, `user:${m.memberId}`])).rows;
    expect(ev.find((e) => e.type === 'balance.changed')?.payload).toMatchObject({ balance: 0 });
    expect(ev.find((e) => e.type === 'bonus.progress')?.payload).toMatchObject({ rewardId: String(id), state: 'processing', wagerRequired: 2_000, wagerProgress: 600 });
    expect(ev.find((e) => e.type === 'promotion.reward')?.payload).toMatchObject({ rewardId: String(id), state: 'processing' });
    // Delivered again: nothing more is taken.
    await handle([f('bet_rolled_back', `a${tag}`, 1)]);
    expect(await reward()).toEqual({ status: 'processing', progress: 600, owed: 700 });
    const reverts = await t.portal.db.query<{ amount: string }>('SELECT amount FROM ledger_transfers WHERE idempotency_key LIKE $1', [`promo:reward:${id}:revert:%`]);
    expect(reverts.rows.map((r) => Number(r.amount))).toEqual([300]);
    // Wagering met again: the second conversion pays 1,000 - 700 owed = 300, under its own key.
    await handle([f('bet', `c${tag}`, 1_400)]);
    expect(await reward()).toMatchObject({ status: 'completed', owed: 0 });
    expect(await walletOf(m.memberId)).toBe(300);
    expect(await bonusBalance(t.portal.db, m.memberId, 'PHP')).toBe(0);
    const second = await t.portal.db.query<{ amount: string }>('SELECT amount FROM ledger_transfers WHERE idempotency_key = $1', [`promo:reward:${id}:convert:2`]);
    expect(second.rows.map((r) => Number(r.amount))).toEqual([300]);
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });
});
