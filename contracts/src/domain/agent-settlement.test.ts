import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RATE_DENOMINATOR, type ContractKind, type TContractTerms } from './agent-contracts.ts';
import { periodOf } from './agent-periods.ts';
import { SettlementInputError, applyRate, settlePeriod, type MemberFigures, type SettlementContract, type SettlementInput } from './agent-settlement.ts';

const WEEK = periodOf(new Date('2026-03-16T04:00:00Z'), 'weekly', 480);
const DAY = periodOf(new Date('2026-03-16T04:00:00Z'), 'daily', 480);
const div = (rate: number): TContractTerms => ({ kind: 'dividend', rate, activeMembers: 0, betAmount: 0, profitLossPeriod: 'weekly' });
const wages = (rate: number, activeMembers = 0, betAmount = 0): TContractTerms => ({ kind: 'dailyWages', rate, activeMembers, betAmount, validBetPeriod: 'daily' });
const m = (id: number, parentId: number | null, validBets = 0, profitLoss = 0): MemberFigures => ({ id, parentId, validBets, profitLoss });

describe('settlePeriod: a dividend worked by hand', () => {
  // T(1) 40% from the house; A(2) 30% from T; B(3) 20% from A; C(7) an agent under A with no contract.
  // Players: P1(4) under T lost 100.00, P2(5) under A lost 50.00, P3(6) under B lost 200.00, C won 30.00.
  const members = [m(1, null), m(2, 1), m(3, 2), m(4, 1, 50_000, -10_000), m(5, 2, 30_000, -5_000), m(6, 3, 100_000, -20_000), m(7, 2, 10_000, 3_000)];
  const contracts: SettlementContract[] = [
    { id: 11, uplineId: null, downlineId: 1, terms: div(4000) },
    { id: 12, uplineId: 1, downlineId: 2, terms: div(3000) },
    { id: 13, uplineId: 2, downlineId: 3, terms: div(2000) },
  ];
  const result = settlePeriod({ kind: 'dividend', period: WEEK, members, contracts, options: { carryOver: true } });
  const byId = new Map(result.statements.map((s) => [s.contractId, s]));

  it('pays down the tree: each upline pays its downline the downline rate on the downline team', () => {
    // Team net losses: B 20,000; A 5,000 + 20,000 - 3,000 = 22,000; T 22,000 + 10,000 = 32,000.
    expect(result.statements.map((s) => [s.contractId, s.payerId, s.payeeId, s.base, s.amount, s.downlinesTook, s.kept])).toEqual([
      [11, null, 1, 32_000, 12_800, 6_600, 6_200],
      [12, 1, 2, 22_000, 6_600, 4_000, 2_600],
      [13, 2, 3, 20_000, 4_000, 0, 4_000],
    ]);
    expect(result.housePays).toBe(12_800);
    expect(result.shortfalls).toEqual([]);
  });

  it('explains each amount: team, per-downline lines, what each downline contract took, arithmetic', () => {
    const a = byId.get(12)!;
    expect(a.team).toEqual({ validBets: 140_000, profitLoss: -22_000, netLoss: 22_000, activeMembers: 3 });
    expect(a.lines.map((l) => [l.memberId, l.isSelf, l.netLoss, l.contractId, l.rate, l.took])).toEqual([
      [2, true, 0, null, null, 0], [3, false, 20_000, 13, 2000, 4_000], [5, false, 5_000, null, null, 0], [7, false, -3_000, null, null, 0],
    ]);
    expect(a.arithmetic).toEqual({ adjustedBase: '22000 + 0 = 22000', amount: 'floor(max(0, 22000) × 3000 / 10000) = 6600', kept: '6600 - 4000 = 2600' });
    expect(a.period).toEqual({ type: 'weekly', key: 'W2026-03-16', start: '2026-03-15T16:00:00.000Z', end: '2026-03-22T16:00:00.000Z' });
    expect(a.idempotencyKey).toBe('agent:dividend:12:W2026-03-16');
    expect(a.anomaly).toBeNull();
  });
});

describe('settlePeriod: carry-over of a negative period', () => {
  const run = (profitLoss: number, carryIn: number, carryOver: boolean) =>
    settlePeriod({ kind: 'dividend', period: WEEK, members: [m(1, null), m(2, 1, 90_000, profitLoss)], contracts: [{ id: 5, uplineId: null, downlineId: 1, terms: div(2000), carryIn }], options: { carryOver } }).statements[0]!;

  it('pays nothing and carries the negative base forward when the merchant carries over', () => {
    const s = run(5_000, -1_000, true); // the players won 50.00: net loss -5,000
    expect([s.base, s.carryIn, s.adjustedBase, s.amount, s.carryOut]).toEqual([-5_000, -1_000, -6_000, 0, -6_000]);
    expect(s.arithmetic.adjustedBase).toBe('-5000 - 1000 = -6000');
  });
  it('nets the carry against the next positive period', () => {
    const s = run(-10_000, -6_000, true);
    expect([s.adjustedBase, s.amount, s.carryOut]).toEqual([4_000, 800, 0]);
  });
  it('ignores and never produces a carry when the merchant does not carry over', () => {
    const s = run(5_000, -1_000, false);
    expect([s.carryOverEnabled, s.carryIn, s.amount, s.carryOut]).toEqual([false, 0, 0, 0]);
  });
});

describe('settlePeriod: salary conditions, caps and anomalies', () => {
  const members = [m(1, null), m(2, 1, 40_000), m(3, 1, 60_000), m(4, 3, 50_000)];
  it('pays nothing when the team misses the active-member or bet-amount condition, and says which', () => {
    const settle = (terms: TContractTerms) => settlePeriod({ kind: 'dailyWages', period: DAY, members, contracts: [{ id: 1, uplineId: null, downlineId: 1, terms }], options: { carryOver: false } }).statements[0]!;
    expect(settle(wages(100, 3, 150_000)).amount).toBe(1_500); // 150,000 x 1 % with 3 active members
    const short = settle(wages(100, 4, 150_000));
    expect([short.amount, short.conditions.isMet, short.conditions.activeMembers]).toEqual([0, false, { required: 4, actual: 3 }]);
    expect(settle(wages(100, 0, 150_001)).amount).toBe(0);
  });
  it('caps a downline rate above its payer at the payer rate and flags it', () => {
    const r = settlePeriod({ kind: 'dailyWages', period: DAY, members, contracts: [
      { id: 1, uplineId: null, downlineId: 1, terms: wages(100) }, { id: 2, uplineId: 1, downlineId: 3, terms: wages(150) },
    ], options: { carryOver: false } });
    const s = r.statements.find((x) => x.contractId === 2)!;
    expect([s.rate, s.effectiveRate, s.amount, s.anomaly]).toEqual([150, 100, 1_100, 'RATE_ABOVE_UPLINE']);
    expect(r.statements[0]!.kept).toBe(400); // 1,500 - 1,100
  });
  it('pays nothing on a contract that breaks the tree rules', () => {
    const r = settlePeriod({ kind: 'dailyWages', period: DAY, members, contracts: [
      { id: 2, uplineId: 1, downlineId: 3, terms: wages(50) }, // the payer has no contract
      { id: 3, uplineId: 1, downlineId: 4, terms: wages(50) }, // 4's upline is 3, not 1
      { id: 4, uplineId: null, downlineId: 2, terms: wages(50) }, // fine: the house and a member with no contracted ancestor
    ], options: { carryOver: false } });
    expect(r.statements.map((s) => [s.contractId, s.amount, s.anomaly])).toEqual([[2, 0, 'UPLINE_HAS_NO_CONTRACT'], [4, 200, null], [3, 0, 'NOT_DIRECT_DOWNLINE']]);
    const nested = settlePeriod({ kind: 'dailyWages', period: DAY, members, contracts: [
      { id: 1, uplineId: null, downlineId: 1, terms: wages(100) }, { id: 2, uplineId: null, downlineId: 3, terms: wages(100) },
    ], options: { carryOver: false } });
    expect(nested.statements.map((s) => [s.contractId, s.amount, s.anomaly])).toEqual([[1, 1_500, null], [2, 0, 'HOUSE_CONTRACT_UNDER_CONTRACTED_AGENT']]);
  });
  it('reports an agent that owes a downline more than it is paid (dividend sub-teams of opposite signs)', () => {
    const r = settlePeriod({ kind: 'dividend', period: WEEK, members: [m(1, null), m(2, 1), m(3, 2, 1, -10_000), m(4, 1, 1, 8_000)], contracts: [
      { id: 1, uplineId: null, downlineId: 1, terms: div(3000) }, { id: 2, uplineId: 1, downlineId: 2, terms: div(2000) },
    ], options: { carryOver: false } });
    expect(r.statements.map((s) => [s.amount, s.kept])).toEqual([[600, -1_400], [2_000, 2_000]]);
    expect(r.shortfalls).toEqual([{ memberId: 1, amount: 1_400 }]);
  });
});

describe('settlePeriod: inconsistent input is refused, not paid', () => {
  const base: SettlementInput = { kind: 'dailyWages', period: DAY, members: [m(1, null), m(2, 1, 10)], contracts: [{ id: 1, uplineId: null, downlineId: 1, terms: wages(10) }], options: { carryOver: false } };
  it.each<[string, Partial<SettlementInput>]>([
    ['a duplicate member', { members: [m(1, null), m(1, null)] }],
    ['a cycle', { members: [m(1, 2), m(2, 1)] }],
    ['negative valid bets', { members: [m(1, null, -1)] }],
    ['a fractional amount', { members: [m(1, null, 1.5)] }],
    ['a contract of another kind', { contracts: [{ id: 1, uplineId: null, downlineId: 1, terms: div(10) }] }],
    ['a contract of another period', { period: WEEK }],
    ['two contracts for one downline', { contracts: [{ id: 1, uplineId: null, downlineId: 1, terms: wages(10) }, { id: 2, uplineId: null, downlineId: 1, terms: wages(10) }] }],
    ['a downline outside the tree', { contracts: [{ id: 1, uplineId: null, downlineId: 9, terms: wages(10) }] }],
    ['a positive carry-in', { contracts: [{ id: 1, uplineId: null, downlineId: 1, terms: wages(10), carryIn: 5 }] }],
  ])('%s', (_name, change) => {
    expect(() => settlePeriod({ ...base, ...change })).toThrow(SettlementInputError);
  });
  it('computes rate products exactly beyond 2^53', () => {
    expect(applyRate(Number.MAX_SAFE_INTEGER, 9_999)).toBe(Number((BigInt(Number.MAX_SAFE_INTEGER) * 9_999n) / 10_000n));
  });
});

// ---------------------------------------------------------------------------------------------
// Properties against a reference model written independently: brute force over each member's
// chain of uplines, no shared helpers with the implementation.

type World = { kind: ContractKind; members: MemberFigures[]; contracts: SettlementContract[]; carryOver: boolean };

/** Valid worlds: contracts only on roots or under a contracted parent, rates never rising and conditions never loosening down a chain. */
const validWorld = (opts: { nonNegativeBase: boolean; conditions: boolean }) =>
  fc.record({
    kind: fc.constantFrom<ContractKind>('dividend', 'dailyWages'),
    carryOver: fc.boolean(),
    nodes: fc.array(fc.record({
      parent: fc.double({ min: 0, max: 1, noNaN: true }),
      root: fc.integer({ min: 0, max: 9 }),
      contract: fc.integer({ min: 0, max: 3 }),
      rate: fc.double({ min: 0, max: 1, noNaN: true }),
      bets: fc.integer({ min: 0, max: 5_000_000_000 }),
      pl: fc.integer({ min: -5_000_000_000, max: 5_000_000_000 }),
      carryIn: fc.integer({ min: -1_000_000, max: 0 }),
      active: fc.integer({ min: 0, max: 3 }),
      bet: fc.integer({ min: 0, max: 2_000_000_000 }),
    }), { minLength: 1, maxLength: 40 }),
  }).map(({ kind, carryOver, nodes }): World => {
    const members: MemberFigures[] = [];
    const contracts: SettlementContract[] = [];
    const termsOf = new Map<number, TContractTerms>();
    nodes.forEach((node, i) => {
      const id = i + 1;
      const parentId = i === 0 || node.root === 0 ? null : 1 + Math.min(i - 1, Math.floor(node.parent * i));
      const profitLoss = opts.nonNegativeBase ? -Math.abs(node.pl) : node.pl;
      members.push({ id, parentId, validBets: node.bets, profitLoss });
      const upline = parentId === null ? undefined : termsOf.get(parentId);
      const canHold = parentId === null || upline !== undefined;
      if (!canHold || node.contract === 0) return;
      const cap = upline?.rate ?? (kind === 'dividend' ? RATE_DENOMINATOR : 500);
      const base = { rate: Math.max(1, Math.floor(node.rate * cap)), activeMembers: opts.conditions ? (upline?.activeMembers ?? 0) + node.active : 0, betAmount: opts.conditions ? (upline?.betAmount ?? 0) + node.bet : 0 };
      const terms: TContractTerms = kind === 'dividend' ? { kind, ...base, profitLossPeriod: 'weekly' } : { kind: 'dailyWages', ...base, validBetPeriod: 'daily' };
      termsOf.set(id, terms);
      contracts.push({ id: 1000 + id, uplineId: parentId, downlineId: id, terms, carryIn: opts.nonNegativeBase ? 0 : node.carryIn });
    });
    return { kind, members, contracts, carryOver };
  });

const settleWorld = (w: World) => settlePeriod({ kind: w.kind, period: w.kind === 'dividend' ? WEEK : DAY, members: w.members, contracts: w.contracts, options: { carryOver: w.carryOver } });

/** Reference: naive team sums by walking every member's upline chain, amounts with BigInt, per contract. */
function reference(w: World) {
  const parentOf = new Map(w.members.map((x) => [x.id, x.parentId]));
  const inTeam = (memberId: number, agentId: number) => {
    for (let at: number | null | undefined = memberId; at != null; at = parentOf.get(at)) if (at === agentId) return true;
    return false;
  };
  const amounts = new Map<number, bigint>();
  for (const c of w.contracts) {
    const team = w.members.filter((x) => inTeam(x.id, c.downlineId));
    const bets = team.reduce((s, x) => s + BigInt(x.validBets), 0n);
    const netLoss = team.reduce((s, x) => s - BigInt(x.profitLoss), 0n);
    const active = team.filter((x) => x.validBets > 0).length;
    const base = (w.kind === 'dividend' ? netLoss : bets) + BigInt(w.carryOver ? c.carryIn ?? 0 : 0);
    const met = active >= c.terms.activeMembers && bets >= BigInt(c.terms.betAmount);
    amounts.set(c.id, met && base > 0n ? (base * BigInt(c.terms.rate)) / 10_000n : 0n);
  }
  return amounts;
}

describe('settlement properties', () => {
  it('matches the brute-force reference on every contract; payouts are non-negative integers; conservation: what agents keep is what the house pays', () => {
    fc.assert(fc.property(validWorld({ nonNegativeBase: false, conditions: true }), (w) => {
      const r = settleWorld(w);
      const ref = reference(w);
      expect(r.statements).toHaveLength(w.contracts.length);
      for (const s of r.statements) {
        expect(Number.isSafeInteger(s.amount) && s.amount >= 0).toBe(true);
        expect(BigInt(s.amount)).toBe(ref.get(s.contractId));
        expect(s.anomaly).toBeNull();
        expect(s.carryOut).toBeLessThanOrEqual(0);
      }
      expect(r.statements.reduce((sum, s) => sum + s.kept, 0)).toBe(r.housePays);
    }), { numRuns: 300 });
  });

  it('is deterministic: the same input, in any member or contract order, gives the same statements', () => {
    fc.assert(fc.property(validWorld({ nonNegativeBase: false, conditions: true }), fc.integer(), (w, seed) => {
      const shuffle = <T,>(xs: T[]) => xs.map((x, i) => [((i + 1) * (seed | 1)) % 1009, x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
      expect(settleWorld({ ...w, members: shuffle([...w.members]), contracts: shuffle([...w.contracts]) })).toEqual(settleWorld(w));
    }), { numRuns: 100 });
  });

  it('chain sum rule: on non-negative bases every agent keeps its rate minus the next rate on each member base, within rounding, never more than the top contract', () => {
    fc.assert(fc.property(validWorld({ nonNegativeBase: true, conditions: false }), (w) => {
      const r = settleWorld(w);
      const rateOf = new Map(w.contracts.map((c) => [c.downlineId, c.terms.rate]));
      const parentOf = new Map(w.members.map((x) => [x.id, x.parentId]));
      // Exact shares x 10,000: for each member's own base, walk up its chain; each contracted agent keeps its rate minus the rate of the contracted child below it on that chain.
      const share = new Map<number, bigint>();
      const chainTotal = new Map<number, bigint>(); // per top agent
      for (const x of w.members) {
        const own = BigInt(w.kind === 'dividend' ? -x.profitLoss : x.validBets);
        let below = 0;
        let top: number | undefined;
        for (let at: number | null | undefined = x.id; at != null; at = parentOf.get(at)) {
          const rate = rateOf.get(at);
          if (rate === undefined) { below = 0; continue; } // an uncontracted member: the agent above keeps the whole of its rate
          share.set(at, (share.get(at) ?? 0n) + own * BigInt(rate - below));
          below = rate;
          top = at;
        }
        if (top !== undefined) chainTotal.set(top, (chainTotal.get(top) ?? 0n) + own * BigInt(rateOf.get(top)!));
      }
      for (const s of r.statements) {
        expect(s.kept).toBeGreaterThanOrEqual(0);
        const exact = share.get(s.payeeId) ?? 0n; // x 10,000
        const contractedKids = s.lines.filter((l) => l.contractId !== null).length;
        // floor on the agent's own amount loses < 1; each downline's floor can leave up to < 1 more with the agent.
        expect(BigInt(s.kept) * 10_000n > exact - 10_000n).toBe(true);
        expect(BigInt(s.kept) * 10_000n < exact + BigInt(contractedKids + 1) * 10_000n).toBe(true);
      }
      // What the agents of one top agent's tree keep in total is what the top contract paid, and never more than its exact share.
      for (const s of r.statements.filter((x) => x.payerId === null)) {
        const tree = r.statements.filter((x) => { for (let at: number | null | undefined = x.payeeId; at != null; at = parentOf.get(at)) if (at === s.payeeId) return true; return false; });
        expect(tree.reduce((sum, x) => sum + x.kept, 0)).toBe(s.amount);
        expect(BigInt(s.amount) * 10_000n <= (chainTotal.get(s.payeeId) ?? 0n)).toBe(true);
      }
      expect(r.shortfalls).toEqual([]);
    }), { numRuns: 300 });
  });

  it('on arbitrary (even inconsistent) contracts: no negative or fractional payout, no rate above the payer effective rate, the house never pays more than its contracts on their bases', () => {
    const wild = fc.record({
      n: fc.integer({ min: 1, max: 25 }),
      parents: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 25, maxLength: 25 }),
      figures: fc.array(fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: -1_000_000, max: 1_000_000 })), { minLength: 25, maxLength: 25 }),
      contracts: fc.uniqueArray(fc.record({ downline: fc.integer({ min: 1, max: 25 }), upline: fc.oneof(fc.constant('parent' as const), fc.constant(null), fc.integer({ min: 1, max: 25 })), rate: fc.integer({ min: 1, max: 10_000 }) }), { selector: (c) => c.downline, maxLength: 25 }),
    });
    fc.assert(fc.property(wild, ({ n, parents, figures, contracts }) => {
      const members = Array.from({ length: n }, (_, i) => m(i + 1, i === 0 || parents[i]! < 0.15 ? null : 1 + Math.min(i - 1, Math.floor(parents[i]! * i)), figures[i]![0], figures[i]![1]));
      const cs = contracts.filter((c) => c.downline <= n).map((c, k): SettlementContract => ({ id: k + 1, uplineId: c.upline === 'parent' ? members[c.downline - 1]!.parentId : c.upline, downlineId: c.downline, terms: div(c.rate) }));
      const r = settlePeriod({ kind: 'dividend', period: WEEK, members, contracts: cs, options: { carryOver: false } });
      const eff = new Map(r.statements.map((s) => [s.payeeId, s.effectiveRate]));
      for (const s of r.statements) {
        expect(Number.isSafeInteger(s.amount) && s.amount >= 0).toBe(true);
        if (s.payerId !== null && s.amount > 0) expect(s.effectiveRate).toBeLessThanOrEqual(eff.get(s.payerId)!);
        if (s.anomaly === null && s.payerId !== null) expect(s.effectiveRate).toBe(s.rate);
      }
      const houseExact = r.statements.filter((s) => s.payerId === null).reduce((sum, s) => sum + BigInt(Math.max(0, s.base)) * BigInt(s.rate), 0n);
      expect(BigInt(r.housePays) * 10_000n <= houseExact).toBe(true);
      expect(r.statements.reduce((sum, s) => sum + s.kept, 0)).toBe(r.housePays);
    }), { numRuns: 500 });
  });
});
