import type { Db } from '../../db/db.ts';
import { transfer } from '../wallet/ledger.ts';
import { PAID_WITHDRAWAL_STATUSES, type TTeamOverview } from './team-stats.ts';

/**
 * A random small world for the team-overview tests: a tree of members (some of agent type 2), hourly bet
 * rollup rows, deposits and withdrawals in every state, spread over a few days. `reference` computes the
 * overview of any member in plain JavaScript from what was generated, for comparison with the SQL.
 */
export type World = {
  members: { id: number; parent: number | null; type: number; createdAt: Date }[];
  hours: { member: number; hour: Date; bets: number; valid: number; payout: number }[];
  deposits: { member: number; amount: number; status: string; at: Date }[];
  withdrawals: { member: number; amount: number; status: string; paidAt: Date | null }[];
};

const HOUR = 3600_000;

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let acct = 0;
/** Generates and inserts a world for merchant `merchant` (which must exist) starting at `base` (a UTC hour). */
export async function seedWorld(db: Db, merchant: string, seed: number, base: Date, n = 30, spanHours = 72): Promise<World> {
  const r = rng(seed);
  const w: World = { members: [], hours: [], deposits: [], withdrawals: [] };
  for (let i = 0; i < n; i++) {
    const parent = i === 0 || r() < 0.05 ? null : w.members[Math.floor(r() * w.members.length)]!.id;
    const type = r() < 0.3 ? 2 : 0;
    const createdAt = new Date(base.getTime() + Math.floor(r() * spanHours * 60) * 60_000);
    const account = `w${seed}x${++acct}`;
    const res = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, account_lower, type, parent_id, created_at) VALUES ($1, $2, lower($2), $3, $4, $5) RETURNING id`,
      [merchant, account, type, parent, createdAt],
    );
    w.members.push({ id: res.rows[0]!.id, parent, type, createdAt });
  }
  for (const m of w.members) {
    const used = new Set<number>();
    const k = Math.floor(r() * 6);
    for (let j = 0; j < k; j++) {
      const h = Math.floor(r() * spanHours);
      if (used.has(h)) continue;
      used.add(h);
      // A rolled-back-to-nothing hour (0 bets) happens too: the member is not active for it.
      const bets = r() < 0.15 ? 0 : 1 + Math.floor(r() * 5);
      const valid = bets * 100 * (1 + Math.floor(r() * 50));
      const payout = r() < 0.5 ? Math.floor(r() * 2 * (valid + 500)) : 0;
      w.hours.push({ member: m.id, hour: new Date(base.getTime() + h * HOUR), bets, valid, payout });
    }
  }
  if (w.hours.length) {
    await db.query(
      `INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout)
       SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::bigint[], $5::bigint[])`,
      [w.hours.map((h) => h.member), w.hours.map((h) => h.hour), w.hours.map((h) => h.bets), w.hours.map((h) => h.valid), w.hours.map((h) => h.payout)],
    );
  }
  const dstatuses = ['pending', 'paid', 'paid', 'failed', 'rejected'];
  const wstatuses = ['requested', 'approved', 'rejected', 'held', ...PAID_WITHDRAWAL_STATUSES];
  let t = 0;
  const ledgerTransfer = async (member: number) => {
    const x = await db.tx((tx) => transfer(tx, { merchant, currency: 'PHP', key: `world:${seed}:${++t}`, kind: 'deposit', amount: 1, debit: { system: 'deposit' }, credit: { member } }));
    return x.transferId;
  };
  for (const m of w.members) {
    if (r() < 0.5) continue;
    const status = dstatuses[Math.floor(r() * dstatuses.length)]!;
    const at = new Date(base.getTime() + Math.floor(r() * spanHours * 60) * 60_000);
    const amount = 100 * (1 + Math.floor(r() * 1000));
    const tid = status === 'paid' ? await ledgerTransfer(m.id) : null;
    await db.query(
      `INSERT INTO deposits (merchant_code, member_id, channel_code, provider, provider_order_id, reference, request_id, amount, currency, status, transfer_id, created_at, updated_at)
       VALUES ($1, $2, 'C', 'sim', $3, $3, $3, $4, 'PHP', $5, $6, $7, $7)`,
      [merchant, m.id, `d${seed}-${m.id}`, amount, status, tid, at],
    );
    w.deposits.push({ member: m.id, amount, status, at });
  }
  for (const m of w.members) {
    if (r() < 0.6) continue;
    const status = wstatuses[Math.floor(r() * wstatuses.length)]!;
    const paid = (PAID_WITHDRAWAL_STATUSES as readonly string[]).includes(status);
    const paidAt = paid ? new Date(base.getTime() + Math.floor(r() * spanHours * 60) * 60_000) : null;
    const amount = 100 * (1 + Math.floor(r() * 1000));
    const bank = await db.query<{ id: number }>(
      `INSERT INTO member_bank_accounts (merchant_code, member_id, bank_name, account_name, account_number) VALUES ($1, $2, 'B', 'N', $3) RETURNING id`,
      [merchant, m.id, `n${seed}-${m.id}`],
    );
    const confirmed = paid && status !== 'paid';
    await db.query(
      `INSERT INTO withdrawals (merchant_code, member_id, request_id, bank_account_id, bank_name, account_name, account_number, amount, currency, status, hold_id,
         received_amount, paid_at, auto_receive_at, confirmed_at)
       VALUES ($1, $2, $3, $4, 'B', 'N', $3, $5, 'PHP', $6, $7, $8, $9, $10, $11)`,
      [merchant, m.id, `w${seed}-${m.id}`, bank.rows[0]!.id, amount, status, await ledgerTransfer(m.id),
        status === 'not_received' ? 0 : status === 'partially_received' ? 1 : confirmed ? amount : null,
        paidAt, paidAt ? new Date(paidAt.getTime() + HOUR) : null, confirmed ? new Date(paidAt!.getTime() + 2 * HOUR) : null],
    );
    w.withdrawals.push({ member: m.id, amount, status, paidAt });
  }
  return w;
}

export function reference(w: World, agentId: number, from: Date, to: Date, agentTypes: number[] = [1, 2, 41, 42]): TTeamOverview {
  const children = new Map<number, number[]>();
  for (const m of w.members) if (m.parent !== null) (children.get(m.parent) ?? children.set(m.parent, []).get(m.parent)!).push(m.id);
  const team = new Set<number>();
  const stack = [...(children.get(agentId) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    team.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  const inR = (d: Date | null) => d !== null && d >= from && d < to;
  const byId = new Map(w.members.map((m) => [m.id, m]));
  const perMember = new Map<number, number>();
  let betCount = 0, validBets = 0, payout = 0;
  for (const h of w.hours) {
    // The world has rollup rows only, no raw vendor rows: a partial hour at a range bound reads nothing.
    if (!team.has(h.member) || h.hour < from || h.hour.getTime() + HOUR > to.getTime()) continue;
    betCount += h.bets; validBets += h.valid; payout += h.payout;
    perMember.set(h.member, (perMember.get(h.member) ?? 0) + h.valid);
  }
  return {
    teamSize: team.size,
    directCount: (children.get(agentId) ?? []).length,
    agentCount: [...team].filter((id) => agentTypes.includes(byId.get(id)!.type)).length,
    newMembers: [...team].filter((id) => inR(byId.get(id)!.createdAt)).length,
    activeMembers: [...perMember.values()].filter((v) => v > 0).length,
    deposits: w.deposits.filter((d) => team.has(d.member) && d.status === 'paid' && inR(d.at)).reduce((s, d) => s + d.amount, 0),
    withdrawals: w.withdrawals.filter((x) => team.has(x.member) && inR(x.paidAt)).reduce((s, x) => s + x.amount, 0),
    validBets, betCount, payout, profitLoss: payout - validBets,
  };
}
