/**
 * Settlement of one period of one contract kind for a team tree (issue 11): who pays whom, how
 * much, and the statement that explains each amount. Pure and deterministic: the scheduled jobs
 * call it with figures read from PostgreSQL, the client's what-if simulator with past figures and a
 * proposed rate.
 *
 * The model (differential payout down the tree):
 * - A member's team is the member and every descendant. Its base for the period is the team's
 *   valid bets (salaries) or the team's net loss, that is minus the players' profit and loss
 *   (dividend).
 * - The house (the merchant) pays each top agent its rate on its whole team base. Every agent pays
 *   each direct downline that holds a contract the downline's rate on the downline's own team base,
 *   so the agent keeps its rate on its base minus what its downlines' contracts took.
 * - A rate is capped at the payer's own effective rate, so along any chain the rates never grow
 *   and the sum kept along a chain on a base never exceeds the top agent's rate on that base. A
 *   contract that breaks the tree rules (its payer has no contract, it is not with a direct
 *   downline, a house contract under a contracted agent) pays nothing and is reported as an anomaly.
 * - Rounding: every amount is floor(base x rate / 10000) in integer minor units, computed exactly
 *   (BigInt). Flooring each payout on its own never creates money: the house pays at most its exact
 *   share, and for non-negative bases what an agent pays its downlines never exceeds what it gets.
 * - A period whose base plus carry-in is negative or zero pays nothing. When the merchant turns
 *   carry-over on, the negative remainder is carried into the contract's next period (carryOut)
 *   and shown in the statement.
 * - Conditions (active members, bet amount) are measured on the payee's team; unmet, the contract
 *   pays nothing this period (its base still nets against the carry).
 * - Dividends only: sub-teams can have opposite signs. An agent whose team nets a small loss can
 *   owe a downline whose own team lost a lot; the agent then keeps a negative amount (the
 *   statement's `kept` and the result's `shortfalls`), which the persistence layer must fund or refuse.
 */
import { RATE_DENOMINATOR, type ContractKind, type TContractTerms, settlementPeriodType } from './agent-contracts.ts';
import type { Period } from './agent-periods.ts';

/** One member of the tree with its own (not its team's) figures for the period, in minor units. */
export type MemberFigures = {
  id: number;
  /** Its direct upline, or null for a root (a parent absent from the list also makes a root). */
  parentId: number | null;
  /** Valid bets placed by this member in the period (>= 0). */
  validBets: number;
  /** The member's own profit and loss as a player in the period: positive when the member won. */
  profitLoss: number;
};

/** An active contract of the settled kind, one per downline. */
export type SettlementContract = {
  id: number;
  /** The payer: the downline's direct upline, or null for the house. */
  uplineId: number | null;
  downlineId: number;
  terms: TContractTerms;
  /** The carry-over left by this contract's previous period (<= 0); used only when carry-over is on. */
  carryIn?: number | undefined;
};

export type SettlementOptions = {
  /** The merchant carries a negative period into the next one. */
  carryOver: boolean;
  /** A team member counts as active with at least this many minor units of valid bets in the period (default 1). */
  activeMinValidBets?: number | undefined;
};

export type SettlementInput = {
  kind: ContractKind;
  period: Period;
  members: readonly MemberFigures[];
  contracts: readonly SettlementContract[];
  options: SettlementOptions;
};

export type TeamFigures = {
  validBets: number;
  profitLoss: number;
  /** Minus the players' profit and loss: what the house won from the team. */
  netLoss: number;
  activeMembers: number;
};

/** One row of a statement's breakdown: the payee itself, or one direct downline's team and what its contract took. */
export type StatementLine = TeamFigures & {
  memberId: number;
  /** True for the payee's own bets (not a downline team). */
  isSelf: boolean;
  contractId: number | null;
  /** The downline's effective rate; null when it holds no contract. */
  rate: number | null;
  /** What the downline's contract took from the payee this period. */
  took: number;
};

export const SETTLEMENT_ANOMALIES = ['UPLINE_HAS_NO_CONTRACT', 'RATE_ABOVE_UPLINE', 'NOT_DIRECT_DOWNLINE', 'HOUSE_CONTRACT_UNDER_CONTRACTED_AGENT'] as const;
export type SettlementAnomaly = (typeof SETTLEMENT_ANOMALIES)[number];

/** The explainable breakdown of one payout (issue 11 "Explainable payouts"). Arithmetic strings hold numbers and operators only; the client labels them. */
export type PayoutStatement = {
  contractId: number;
  kind: ContractKind;
  period: { type: Period['type']; key: string; start: string; end: string };
  /** null: the house pays. */
  payerId: number | null;
  payeeId: number;
  /** The contracted rate and the rate actually applied (lower when capped by the payer's rate). */
  rate: number;
  effectiveRate: number;
  rateDenominator: number;
  team: TeamFigures;
  conditions: {
    activeMembers: { required: number; actual: number };
    betAmount: { required: number; actual: number };
    isMet: boolean;
  };
  /** The team figure the rate applies to: net loss (dividend) or valid bets (salaries). */
  base: number;
  carryOverEnabled: boolean;
  carryIn: number;
  /** base + carryIn. */
  adjustedBase: number;
  /** Carried into this contract's next period (<= 0). */
  carryOut: number;
  amount: number;
  /** The payee's own bets and each direct downline's team, with what each downline's contract took. */
  lines: StatementLine[];
  downlinesTook: number;
  /** amount - downlinesTook: what the payee keeps (negative only for a dividend with sub-teams of opposite signs). */
  kept: number;
  arithmetic: { adjustedBase: string; amount: string; kept: string };
  anomaly: SettlementAnomaly | null;
  /** The ledger idempotency key of this payout. */
  idempotencyKey: string;
};

export type SettlementResult = {
  kind: ContractKind;
  period: Period;
  /** One per contract, top-down (an upline's statement before its downlines'), then by contract id: pay in this order. */
  statements: PayoutStatement[];
  /** What the house pays in total (the top agents' amounts). */
  housePays: number;
  /** Agents that pay their downlines more than they receive (dividends only), with the difference. */
  shortfalls: { memberId: number; amount: number }[];
};

export class SettlementInputError extends Error {
  override readonly name = 'SettlementInputError';
}

/** The ledger idempotency key of a contract's payout for one period: one payout per contract per period, across nodes and reruns. */
export function payoutIdempotencyKey(kind: ContractKind, contractId: number, periodKey: string): string {
  return `agent:${kind}:${contractId}:${periodKey}`;
}

/** floor(base x rate / RATE_DENOMINATOR) exactly, for base >= 0. */
export function applyRate(base: number, rate: number): number {
  if (base <= 0 || rate <= 0) return 0;
  return Number((BigInt(base) * BigInt(rate)) / BigInt(RATE_DENOMINATOR));
}

function safeAdd(a: number, b: number): number {
  const s = a + b;
  if (!Number.isSafeInteger(s)) throw new SettlementInputError('team figures exceed the safe integer range');
  return s;
}

function checkInteger(value: number, what: string, min = Number.MIN_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min) throw new SettlementInputError(`${what} must be an integer${min === 0 ? ' >= 0' : ''}`);
}

const signed = (n: number) => (n < 0 ? `- ${-n}` : `+ ${n}`);

/** Settle one period of one contract kind for a tree. Throws SettlementInputError on inconsistent input (duplicate ids, a cycle, a contract of another kind or period). */
export function settlePeriod(input: SettlementInput): SettlementResult {
  const { kind, period, members, contracts, options } = input;
  const activeMin = options.activeMinValidBets ?? 1;
  checkInteger(activeMin, 'activeMinValidBets', 0);

  // Index the tree.
  const index = new Map<number, number>();
  members.forEach((m, i) => {
    checkInteger(m.id, 'member id');
    checkInteger(m.validBets, 'validBets', 0);
    checkInteger(m.profitLoss, 'profitLoss');
    if (index.has(m.id)) throw new SettlementInputError(`member ${m.id} appears twice`);
    index.set(m.id, i);
  });
  const n = members.length;
  const parent = new Int32Array(n).fill(-1);
  const children: number[][] = Array.from({ length: n }, () => []);
  const roots: number[] = [];
  members.forEach((m, i) => {
    const p = m.parentId === null ? undefined : index.get(m.parentId);
    if (p === undefined) roots.push(i);
    else {
      parent[i] = p;
      children[p]!.push(i);
    }
  });
  // Pre-order from the roots; a member never reached sits on a cycle.
  const order: number[] = [];
  const depth = new Int32Array(n);
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const i = stack.pop()!;
    order.push(i);
    const kids = children[i]!;
    for (let k = kids.length - 1; k >= 0; k--) {
      depth[kids[k]!] = depth[i]! + 1;
      stack.push(kids[k]!);
    }
  }
  if (order.length !== n) throw new SettlementInputError('the tree has a cycle');

  // Team figures, children before parents.
  const teamBets = new Array<number>(n);
  const teamPl = new Array<number>(n);
  const teamActive = new Array<number>(n);
  for (let k = n - 1; k >= 0; k--) {
    const i = order[k]!;
    const m = members[i]!;
    let bets = m.validBets;
    let pl = m.profitLoss;
    let active = m.validBets >= activeMin && m.validBets > 0 ? 1 : 0;
    for (const c of children[i]!) {
      bets = safeAdd(bets, teamBets[c]!);
      pl = safeAdd(pl, teamPl[c]!);
      active += teamActive[c]!;
    }
    teamBets[i] = bets;
    teamPl[i] = pl;
    teamActive[i] = active;
  }
  const figures = (i: number): TeamFigures => ({ validBets: teamBets[i]!, profitLoss: teamPl[i]!, netLoss: -teamPl[i]! || 0, activeMembers: teamActive[i]! });

  // Contracts, one per downline, of this kind and period.
  const contractOf = new Map<number, SettlementContract>(); // member index -> its contract
  for (const c of contracts) {
    checkInteger(c.id, 'contract id');
    if (c.terms.kind !== kind) throw new SettlementInputError(`contract ${c.id} is not a ${kind} contract`);
    if (settlementPeriodType(c.terms) !== period.type) throw new SettlementInputError(`contract ${c.id} is not settled ${period.type}`);
    const i = index.get(c.downlineId);
    if (i === undefined) throw new SettlementInputError(`contract ${c.id}: downline ${c.downlineId} is not in the tree`);
    if (contractOf.has(i)) throw new SettlementInputError(`member ${c.downlineId} holds two ${kind} contracts`);
    if (c.carryIn !== undefined) checkInteger(c.carryIn, 'carryIn');
    if ((c.carryIn ?? 0) > 0) throw new SettlementInputError(`contract ${c.id}: carryIn must be <= 0`);
    contractOf.set(i, c);
  }

  // Effective rates top-down (pre-order visits every upline before its downlines).
  const effRate = new Map<number, number>();
  const anomalyOf = new Map<number, SettlementAnomaly>();
  const hasContractedAncestor = new Uint8Array(n);
  for (const i of order) {
    const p = parent[i]!;
    if (p >= 0 && (contractOf.has(p) || hasContractedAncestor[p])) hasContractedAncestor[i] = 1;
    const c = contractOf.get(i);
    if (!c) continue;
    let rate = c.terms.rate;
    let anomaly: SettlementAnomaly | null = null;
    if (c.uplineId === null) {
      if (hasContractedAncestor[i]) anomaly = 'HOUSE_CONTRACT_UNDER_CONTRACTED_AGENT';
    } else if (p < 0 || members[p]!.id !== c.uplineId) {
      anomaly = 'NOT_DIRECT_DOWNLINE';
    } else if (!contractOf.has(p)) {
      anomaly = 'UPLINE_HAS_NO_CONTRACT';
    } else if (rate > effRate.get(p)!) {
      anomaly = 'RATE_ABOVE_UPLINE';
      rate = effRate.get(p)!;
    }
    if (anomaly && anomaly !== 'RATE_ABOVE_UPLINE') rate = 0;
    effRate.set(i, rate);
    if (anomaly) anomalyOf.set(i, anomaly);
  }

  // Amounts per contract.
  const periodView = { type: period.type, key: period.key, start: period.start.toISOString(), end: period.end.toISOString() };
  const amountOf = new Map<number, number>();
  const partial = new Map<number, Omit<PayoutStatement, 'lines' | 'downlinesTook' | 'kept' | 'arithmetic'> & { amountExpr: string; adjustedExpr: string }>();
  for (const i of order) {
    const c = contractOf.get(i);
    if (!c) continue;
    const team = figures(i);
    const base = kind === 'dividend' ? team.netLoss : team.validBets;
    const carryIn = options.carryOver ? c.carryIn ?? 0 : 0;
    const adjustedBase = safeAdd(base, carryIn);
    const isMet = team.activeMembers >= c.terms.activeMembers && team.validBets >= c.terms.betAmount;
    const rate = effRate.get(i)!;
    const amount = isMet ? applyRate(adjustedBase, rate) : 0;
    const carryOut = options.carryOver ? Math.min(0, adjustedBase) : 0;
    amountOf.set(i, amount);
    partial.set(i, {
      contractId: c.id,
      kind,
      period: { ...periodView },
      payerId: c.uplineId,
      payeeId: c.downlineId,
      rate: c.terms.rate,
      effectiveRate: rate,
      rateDenominator: RATE_DENOMINATOR,
      team,
      conditions: {
        activeMembers: { required: c.terms.activeMembers, actual: team.activeMembers },
        betAmount: { required: c.terms.betAmount, actual: team.validBets },
        isMet,
      },
      base,
      carryOverEnabled: options.carryOver,
      carryIn,
      adjustedBase,
      carryOut: carryOut || 0,
      amount,
      anomaly: anomalyOf.get(i) ?? null,
      idempotencyKey: payoutIdempotencyKey(kind, c.id, period.key),
      adjustedExpr: `${base} ${signed(carryIn)} = ${adjustedBase}`,
      amountExpr: isMet ? `floor(max(0, ${adjustedBase}) × ${rate} / ${RATE_DENOMINATOR}) = ${amount}` : `0`,
    });
  }

  // Statements with the breakdown per direct downline, top-down then by contract id.
  const statements: PayoutStatement[] = [];
  const shortfalls: { memberId: number; amount: number }[] = [];
  const contracted = order.filter((i) => contractOf.has(i)).sort((a, b) => depth[a]! - depth[b]! || contractOf.get(a)!.id - contractOf.get(b)!.id);
  let housePays = 0;
  for (const i of contracted) {
    const { adjustedExpr, amountExpr, ...head } = partial.get(i)!;
    const self = members[i]!;
    const lines: StatementLine[] = [
      { memberId: self.id, isSelf: true, validBets: self.validBets, profitLoss: self.profitLoss, netLoss: -self.profitLoss || 0, activeMembers: self.validBets >= activeMin && self.validBets > 0 ? 1 : 0, contractId: null, rate: null, took: 0 },
    ];
    let took = 0;
    const kids = [...children[i]!].sort((a, b) => members[a]!.id - members[b]!.id);
    for (const k of kids) {
      const kc = contractOf.get(k);
      const paidByThis = kc !== undefined && kc.uplineId === self.id;
      const t = paidByThis ? amountOf.get(k)! : 0;
      took = safeAdd(took, t);
      lines.push({ memberId: members[k]!.id, isSelf: false, ...figures(k), contractId: paidByThis ? kc.id : null, rate: paidByThis ? effRate.get(k)! : null, took: t });
    }
    const kept = head.amount - took;
    const tookTerms = lines.filter((l) => l.took > 0).map((l) => ` - ${l.took}`).join('');
    statements.push({ ...head, lines, downlinesTook: took, kept, arithmetic: { adjustedBase: adjustedExpr, amount: amountExpr, kept: `${head.amount}${tookTerms} = ${kept}` } });
    if (kept < 0) shortfalls.push({ memberId: self.id, amount: -kept });
    if (head.payerId === null) housePays = safeAdd(housePays, head.amount);
  }
  return { kind, period, statements, housePays, shortfalls };
}
