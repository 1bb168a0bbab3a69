import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ZContract, ZContractTerms, conditionsWithin, contractsEndedByRateChange, planAcceptance, settlementPeriodType, validateOffer,
  type ContractEdge, type ContractLimits, type OfferFacts, type TContractTerms,
} from './agent-contracts.ts';

const dividend = (rate: number, extra: Partial<TContractTerms> = {}): TContractTerms =>
  ({ kind: 'dividend', rate, activeMembers: 0, betAmount: 0, profitLossPeriod: 'weekly', ...extra }) as TContractTerms;
const wages = (rate: number, activeMembers = 0, betAmount = 0): TContractTerms => ({ kind: 'dailyWages', rate, activeMembers, betAmount, validBetPeriod: 'daily' });

describe('contract schemas', () => {
  it('accept the four kinds with their period and refuse bad terms', () => {
    expect(ZContractTerms.safeParse(dividend(3000)).success).toBe(true);
    expect(ZContractTerms.safeParse({ kind: 'realtimeSalary', rate: 10, activeMembers: 0, betAmount: 0, validBetPeriod: 'fiveMinutes' }).success).toBe(true);
    expect(ZContractTerms.safeParse({ kind: 'hourlySalary', rate: 10, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' }).success).toBe(false);
    expect(ZContractTerms.safeParse(dividend(0)).success).toBe(false);
    expect(ZContractTerms.safeParse(dividend(12.5)).success).toBe(false);
    expect(ZContractTerms.safeParse({ ...dividend(100), profitLossPeriod: 'yearly' }).success).toBe(false);
    expect(ZContractTerms.safeParse({ ...wages(100), betAmount: -1 }).success).toBe(false);
    expect(settlementPeriodType(wages(1))).toBe('daily');
    expect(settlementPeriodType(dividend(1, { profitLossPeriod: 'semiMonthly' } as Partial<TContractTerms>))).toBe('semiMonthly');
  });
  it('parses a stored contract', () => {
    const row = { id: 7, uplineId: null, downlineId: 3, terms: wages(50), status: 'active', offeredAt: '2026-03-01T00:00:00Z', answeredAt: '2026-03-01T00:05:00Z', endedAt: null, endReason: null };
    expect(ZContract.parse(row).terms.rate).toBe(50);
    expect(ZContract.safeParse({ ...row, status: 'paused' }).success).toBe(false);
  });
});

describe('validateOffer', () => {
  const facts: OfferFacts = { uplineId: 10, downlineId: 11, downlineParentId: 10, uplineTerms: dividend(3000) };
  it.each<[string, Partial<OfferFacts>, unknown, string | null]>([
    ['a direct downline at or under the own rate', {}, dividend(3000), null],
    ['malformed terms', {}, { kind: 'dividend', rate: '30%' }, 'VALIDATION'],
    ['a grandchild', { downlineParentId: 12 }, dividend(1000), 'CONTRACT_NOT_DIRECT_DOWNLINE'],
    ['oneself', { downlineId: 10, downlineParentId: 10 }, dividend(1000), 'CONTRACT_NOT_DIRECT_DOWNLINE'],
    ['a member of another team', { downlineParentId: null }, dividend(1000), 'CONTRACT_NOT_DIRECT_DOWNLINE'],
    ['a salary above 5 %', { uplineTerms: wages(500) }, wages(501), 'CONTRACT_RATE_OUT_OF_RANGE'],
    ['a rate outside the merchant bounds', { merchantBounds: { min: 500, max: 2500 } }, dividend(2600), 'CONTRACT_RATE_OUT_OF_RANGE'],
    ['a rate above the upline own rate', {}, dividend(3001), 'CONTRACT_RATE_ABOVE_UPLINE'],
    ['an upline with no contract of the kind', { uplineTerms: null }, dividend(100), 'CONTRACT_NO_UPLINE_CONTRACT'],
    ['an upline holding only another kind', { uplineTerms: wages(100) }, dividend(100), 'CONTRACT_NO_UPLINE_CONTRACT'],
    ['another dividend period', {}, dividend(100, { profitLossPeriod: 'monthly' } as Partial<TContractTerms>), 'CONTRACT_PERIOD_MISMATCH'],
    ['looser conditions than the upline', { uplineTerms: wages(100, 5, 1000) }, wages(50, 4, 1000), 'CONTRACT_CONDITIONS_BELOW_UPLINE'],
    ['stricter conditions than the upline', { uplineTerms: wages(100, 5, 1000) }, wages(50, 6, 2000), null],
    ['the merchant offering a top agent', { uplineId: null, downlineParentId: null, uplineTerms: null }, dividend(4000), null],
    ['the merchant offering a member under an upline', { uplineId: null, downlineParentId: 10, uplineTerms: null }, dividend(4000), 'CONTRACT_NOT_DIRECT_DOWNLINE'],
  ])('%s', (_name, change, terms, code) => {
    const result = validateOffer({ ...facts, ...change }, terms);
    expect(result.ok ? null : result.code).toBe(code);
  });
});

describe('the lower-rate rule', () => {
  // 1 -> 2 (30%), 2 -> 3 (25%), 3 -> 4 (10%), 2 -> 5 (20%), 5 -> 6 (20%), 1 -> 7 (35%)
  const limits = (rate: number): ContractLimits => ({ rate, activeMembers: 0, betAmount: 0 });
  const edges: ContractEdge[] = [
    { id: 1, uplineId: null, downlineId: 1, ...limits(4000) },
    { id: 2, uplineId: 1, downlineId: 2, ...limits(3000) },
    { id: 3, uplineId: 2, downlineId: 3, ...limits(2500) },
    { id: 4, uplineId: 3, downlineId: 4, ...limits(1000) },
    { id: 5, uplineId: 2, downlineId: 5, ...limits(2000) },
    { id: 6, uplineId: 5, downlineId: 6, ...limits(2000) },
    { id: 7, uplineId: 1, downlineId: 7, ...limits(3500) },
  ];
  it('ends the downline contracts above the new rate and everything below them', () => {
    const ended = contractsEndedByRateChange(edges, 2, limits(2200));
    expect(ended.map((e) => [e.contractId, e.reason])).toEqual([[3, 'rateAboveNewUplineRate'], [4, 'uplineContractEnded']]);
  });
  it('ends nothing when the new rate is still at or above every downline rate', () => {
    expect(contractsEndedByRateChange(edges, 2, limits(2500))).toEqual([]);
  });
  it('ends the whole contracted subtree when the agent own contract ends', () => {
    expect(contractsEndedByRateChange(edges, 2, null).map((e) => e.contractId)).toEqual([3, 5, 4, 6]);
  });
  it('ends a downline contract whose conditions are looser than the new ones', () => {
    const strict = edges.map((e) => (e.id === 5 ? { ...e, activeMembers: 2 } : e));
    expect(contractsEndedByRateChange(strict, 2, { rate: 3000, activeMembers: 3, betAmount: 0 }).map((e) => e.contractId)).toEqual([3, 5, 4, 6]);
  });
  it('asks for consent to exactly that list before accepting', () => {
    const refused = planAcceptance(edges, { downlineId: 2, ...limits(2200) }, [3]);
    expect(refused).toMatchObject({ ok: false, code: 'CONTRACT_CONSENT_REQUIRED' });
    expect(refused.ok ? [] : refused.mustEnd.map((e) => e.contractId)).toEqual([3, 4]);
    const accepted = planAcceptance(edges, { downlineId: 2, ...limits(2200) }, [3, 4]);
    expect(accepted.ok && accepted.end.map((e) => e.contractId)).toEqual([3, 4]);
    expect(planAcceptance(edges, { downlineId: 2, ...limits(3000) }, [])).toEqual({ ok: true, end: [] });
  });

  // Random valid worlds: a forest of contracted members, rates never rising and conditions never loosening down a chain.
  const world = fc.integer({ min: 1, max: 40 }).chain((n) =>
    fc.tuple(
      fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), { minLength: n, maxLength: n }),
      fc.integer({ min: 1, max: n }),
      fc.option(fc.record({ rate: fc.integer({ min: 1, max: 10_000 }), activeMembers: fc.integer({ min: 0, max: 8 }), betAmount: fc.integer({ min: 0, max: 8 }) }), { nil: null }),
    ));
  it('leaves a consistent tree, ending only contracts that no longer fit (property)', () => {
    fc.assert(fc.property(world, ([specs, agentId, next]) => {
      const edges: ContractEdge[] = [];
      const byMember = new Map<number, ContractEdge>();
      specs.forEach(([parentPick, ratePick, moreActive, moreBet], i) => {
        const id = i + 1;
        const parent = i === 0 || parentPick < 0.2 ? null : byMember.get(1 + Math.min(i - 1, Math.floor(parentPick * i)))!;
        const cap = parent ? parent.rate : 10_000;
        const edge: ContractEdge = {
          id: 100 + id, uplineId: parent ? parent.downlineId : null, downlineId: id,
          rate: Math.max(1, Math.floor(ratePick * cap)),
          activeMembers: (parent?.activeMembers ?? 0) + moreActive, betAmount: (parent?.betAmount ?? 0) + moreBet,
        };
        edges.push(edge);
        byMember.set(id, edge);
      });
      const ended = contractsEndedByRateChange(edges, agentId, next);
      const endedIds = new Set(ended.map((e) => e.contractId));
      const after = new Map<number, ContractLimits>();
      for (const e of edges) if (!endedIds.has(e.id)) after.set(e.downlineId, e.downlineId === agentId ? (next ?? e) : e);
      if (next === null) after.delete(agentId);
      for (const e of edges) {
        if (endedIds.has(e.id) || e.uplineId === null || e.downlineId === agentId) continue;
        const payer = after.get(e.uplineId);
        expect(payer, `contract ${e.id} kept under a payer without a contract`).toBeDefined();
        expect(e.rate).toBeLessThanOrEqual(payer!.rate);
        expect(conditionsWithin(e, payer!)).toBe(true);
      }
      // Nothing ended without a reason: its payer's contract ended, or it no longer fits the payer's new terms.
      for (const e of ended) {
        const edge = edges.find((x) => x.id === e.contractId)!;
        const payer = edge.uplineId === null ? undefined : after.get(edge.uplineId);
        expect(payer === undefined || edge.rate > payer.rate || !conditionsWithin(edge, payer)).toBe(true);
      }
      expect(new Set(ended.map((e) => e.contractId)).size).toBe(ended.length);
    }), { numRuns: 1000 });
  });
});
