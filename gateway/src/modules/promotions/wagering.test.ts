import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wagerContribution } from '@portal/contracts/domain/promotions';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, totpNow } from '../../testing/ops-totp.ts';
import { checkLedger } from '../wallet/ledger.ts';
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
const call = apiOn(() => t.url);
const newMember = testMembers(() => t.url, { prefix: 'wg' });
let streamId = 1e9;

beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.cashier.operators.createOperator('DEMO', 'wgadmin', 'Wager12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  const token = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'wgadmin', password: 'Wager12345678', totp: await totpNow() } })).json!.value!.token;
  op = (await t.portal.cashier.operators.resolve(token))!;
}, 300_000);
afterAll(async () => {
  await t?.stop();
}, 120_000);

const TYPES = ['FISH', 'LIVE', 'RNG', null] as const;
type Op = { kind: 'bet'; type: (typeof TYPES)[number]; amount: number } | { kind: 'win'; amount: number } | { kind: 'rollback'; of: number };

const arbCase = fc.record({
  bonus: fc.integer({ min: 1, max: 50_000 }),
  x: fc.integer({ min: 1, max: 4 }),
  weights: fc.record({ FISH: fc.integer({ min: 0, max: 100 }), LIVE: fc.integer({ min: 0, max: 100 }), RNG: fc.integer({ min: 0, max: 100 }) }),
  ops: fc.array(fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('bet' as const), type: fc.constantFrom(...TYPES), amount: fc.integer({ min: 1, max: 40_000 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('win' as const), amount: fc.integer({ min: 1, max: 40_000 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('rollback' as const), of: fc.nat() }) },
  ), { minLength: 1, maxLength: 30 }),
  cuts: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
});

describe('wagering (property)', () => {
  it('progress, conversion exactly once and balanced books match the model', { timeout: 600_000 }, async () => {
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

      // The model.
      let progress = 0;
      let converted = false;
      const bets: Array<{ tx: string; given: number; rolled: boolean }> = [];
      const facts: BetFact[] = [];
      const fact = (kind: BetFact['fact'], tx: string, amount: number, gameType: string | null): BetFact => ({
        streamId: ++streamId, fact: kind, merchantCode: 'DEMO', memberId: m.memberId, vendor: 'PROP', transactionId: tx, roundId: tx,
        gameCode: null, gameType, amount, placedAt: new Date(), capturedAt: new Date(),
      });
      for (const o of c.ops) {
        if (o.kind === 'bet') {
          const tx = `p${streamId + 1}`;
          const given = converted ? 0 : wagerContribution(o.amount, o.type, c.weights);
          bets.push({ tx, given, rolled: false });
          facts.push(fact('bet', tx, o.amount, o.type));
          if (!converted) {
            progress += given;
            if (given > 0 && progress >= required) converted = true;
          }
        } else if (o.kind === 'win') {
          facts.push(fact('win', `w${streamId + 1}`, o.amount, 'FISH'));
        } else {
          const open = bets.filter((b) => !b.rolled);
          if (!open.length) continue;
          const b = open[o.of % open.length]!;
          b.rolled = true;
          facts.push(fact('bet_rolled_back', b.tx, 1, null));
          if (!converted) progress = Math.max(0, progress - b.given);
        }
      }
      const walletBefore = (await t.portal.db.query<{ balance: string }>('SELECT balance FROM ledger_accounts WHERE member_id = $1', [m.memberId])).rows[0]?.balance ?? 0;
      // The real consumer, batch by batch.
      let i = 0;
      for (let k = 0; i < facts.length; k++) {
        const batch = facts.slice(i, i + c.cuts[k % c.cuts.length]!);
        i += batch.length;
        await t.portal.db.tx((tx) => t.portal.promos.consumer.handle(tx, batch));
      }
      const r = (await t.portal.db.query<{ status: string; wager_progress: string }>('SELECT status, wager_progress FROM promotion_rewards WHERE id = $1', [Number(req.reward.id)])).rows[0]!;
      expect(r.status).toBe(converted ? 'completed' : 'processing');
      if (!converted) expect(Number(r.wager_progress)).toBe(progress);
      const conversions = await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transfers WHERE idempotency_key = $1', [`promo:reward:${req.reward.id}:convert`]);
      expect(conversions.rows[0]!.n).toBe(converted ? 1 : 0);
      const walletAfter = (await t.portal.db.query<{ balance: string }>('SELECT balance FROM ledger_accounts WHERE member_id = $1', [m.memberId])).rows[0]?.balance ?? 0;
      expect(Number(walletAfter) - Number(walletBefore)).toBe(converted ? c.bonus : 0);
      expect(await bonusBalance(t.portal.db, m.memberId, 'PHP')).toBe(converted ? 0 : c.bonus);
      expect(await checkLedger(t.portal.db)).toEqual([]);
    }), { numRuns: 25 });
  });
});
