import type { TAgentContract, TContractToEnd } from '@portal/contracts/api/agent-contracts';
import {
  contractsEndedByRateChange, planAcceptance, validateOffer, ZContractTerms,
  type ContractEdge, type ContractEndReason, type ContractKind, type ContractStatus, type ContractToEnd, type TContractTerms,
} from '@portal/contracts/domain/agent-contracts';
import { isAgentType } from '@portal/contracts/domain/member';
import { userAudience, type CONTRACT_KINDS as EVENT_KINDS, type CONTRACT_STATUSES as EVENT_STATUSES } from '@portal/contracts/events/events';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { emitEvents, type NewEvent } from '../../bus/outbox.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { descendantOf, requireInSubtree } from './team-tree.ts';
import { iso } from '../../db/iso.ts';

/**
 * Agent contracts persisted (migration 024_agent_contracts.sql), offered, answered and terminated
 * (issue 11, spec section 4), on the pure rules of contracts/src/domain/agent-contracts.ts.
 *
 * Every change runs in one transaction that locks the contract rows it reads and writes, writes an
 * audit row per contract changed, and emits `contract.offered` / `contract.updated` to both parties'
 * user audiences through the outbox, so the events exist exactly when the change committed.
 *
 * Authorization: the caller must be an agent type (NON_AGENT); a contract id that is not the caller's
 * own (as upline or downline), or does not exist, answers NOT_IN_TREE, like a member id outside the
 * caller's team, so nothing tells a sibling's contract from a missing one.
 */

export type ContractRow = {
  id: number; merchant_code: string; kind: ContractKind; upline_id: number | null; downline_id: number; terms: TContractTerms;
  rate: number; active_members: number; bet_amount: number; status: ContractStatus;
  offered_at: Date | string; answered_at: Date | string | null; ended_at: Date | string | null; ended_by: number | null; end_reason: ContractEndReason | null;
  upline_account: string | null; downline_account: string;
};

const SELECT = `SELECT c.*, u.account AS upline_account, d.account AS downline_account
  FROM agent_contracts c LEFT JOIN members u ON u.id = c.upline_id JOIN members d ON d.id = c.downline_id`;


export function toContract(r: ContractRow): TAgentContract {
  return {
    id: r.id, kind: r.kind, uplineId: r.upline_id, downlineId: r.downline_id, uplineAccount: r.upline_account, downlineAccount: r.downline_account,
    terms: ZContractTerms.parse(typeof r.terms === 'string' ? JSON.parse(r.terms) : r.terms), status: r.status,
    offeredAt: iso(r.offered_at), answeredAt: iso(r.answered_at), endedAt: iso(r.ended_at), endReason: r.end_reason, endedBy: r.ended_by,
  };
}

/** The event vocabulary (contracts/src/events) names kinds and the live status its own way. */
const EVENT_KIND: Record<ContractKind, (typeof EVENT_KINDS)[number]> = {
  dividend: 'dividend', dailyWages: 'daily_salary', hourlySalary: 'hour_salary', realtimeSalary: 'realtime_salary',
};
const EVENT_STATUS: Record<ContractStatus, (typeof EVENT_STATUSES)[number]> = {
  offered: 'offered', active: 'accepted', rejected: 'rejected', withdrawn: 'withdrawn', terminated: 'terminated', ended: 'ended',
};

/** contract.offered / contract.updated for both parties (the house, upline_id NULL, has no audience). */
export function eventsFor(r: ContractRow): NewEvent[] {
  const type = r.status === 'offered' ? 'contract.offered' : 'contract.updated';
  const payload = {
    contractId: String(r.id), kind: EVENT_KIND[r.kind], status: EVENT_STATUS[r.status],
    uplineId: r.upline_id ?? 0, uplineAccount: r.upline_account ?? '', downlineId: r.downline_id, rateBps: r.rate,
    ...(r.end_reason ? { endReason: r.end_reason } : {}),
  };
  const audiences = [r.downline_id, ...(r.upline_id !== null ? [r.upline_id] : [])];
  return audiences.map((m) => ({ audience: userAudience(m), type, payload }));
}

async function audit(tx: Tx, contractId: number, actorMemberId: number | null, from: ContractStatus | null, to: ContractStatus, reason: string | null, detail: Record<string, unknown> = {}) {
  await tx.query(
    `INSERT INTO agent_contract_audit (contract_id, actor_member_id, actor, from_status, to_status, reason, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [contractId, actorMemberId, actorMemberId === null ? 'operator' : 'member', from, to, reason, JSON.stringify(detail)],
  );
}

export async function rowOf(q: Queryable, id: number): Promise<ContractRow> {
  return (await q.query<ContractRow>(`${SELECT} WHERE c.id = $1`, [id])).rows[0]!;
}

/** Lock a contract of this merchant; NOT_IN_TREE unless the caller is one of `parties`. */
async function lockOwn(tx: Tx, merchant: Merchant, id: number, actorId: number, parties: 'upline' | 'downline' | 'either'): Promise<{ id: number; upline_id: number | null; downline_id: number; kind: ContractKind; status: ContractStatus; rate: number; active_members: number; bet_amount: number; terms: TContractTerms }> {
  const r = await tx.query<{ id: number; upline_id: number | null; downline_id: number; kind: ContractKind; status: ContractStatus; rate: number; active_members: number; bet_amount: number; terms: TContractTerms }>(
    'SELECT id, upline_id, downline_id, kind, status, rate, active_members, bet_amount, terms FROM agent_contracts WHERE id = $1 AND merchant_code = $2 FOR UPDATE',
    [id, merchant.code],
  );
  const c = r.rows[0];
  if (!c || (c.upline_id !== actorId && c.downline_id !== actorId)) throw new AppError(ErrorCode.NOT_IN_TREE);
  // A party acting on the other side's behalf (the upline accepting its own offer, the downline withdrawing it).
  if (parties === 'upline' && c.upline_id !== actorId) throw new AppError(ErrorCode.FORBIDDEN, 'Only the upline who offered this contract can do that');
  if (parties === 'downline' && c.downline_id !== actorId) throw new AppError(ErrorCode.FORBIDDEN, 'Only the downline this contract was offered to can do that');
  return c;
}

/** The member's own active contract of a kind (from its upline or the house), locked against a concurrent end. */
async function activeTermsOf(tx: Tx, memberId: number, kind: ContractKind): Promise<TContractTerms | null> {
  const r = await tx.query<{ terms: TContractTerms }>(`SELECT terms FROM agent_contracts WHERE downline_id = $1 AND kind = $2 AND status = 'active' FOR SHARE`, [memberId, kind]);
  return r.rows[0] ? ZContractTerms.parse(r.rows[0].terms) : null;
}

/** Active contracts of a kind given inside the member's team (by the member or below it), locked: the lower-rate rule's input. */
export async function edgesBelow(tx: Tx, memberId: number, kind: ContractKind): Promise<ContractEdge[]> {
  const r = await tx.query<{ id: number; upline_id: number | null; downline_id: number; rate: number; active_members: number; bet_amount: number }>(
    `SELECT c.id, c.upline_id, c.downline_id, c.rate, c.active_members, c.bet_amount
       FROM members a JOIN members d ON ${descendantOf('d', 'a.tree_path')} JOIN agent_contracts c ON c.downline_id = d.id
      WHERE a.id = $1 AND c.kind = $2 AND c.status = 'active'
      ORDER BY c.id FOR UPDATE OF c`,
    [memberId, kind],
  );
  return r.rows.map((x) => ({ id: x.id, uplineId: x.upline_id, downlineId: x.downline_id, rate: x.rate, activeMembers: x.active_members, betAmount: x.bet_amount }));
}

export async function presentEnds(q: Queryable, ends: ContractToEnd[]): Promise<TContractToEnd[]> {
  if (!ends.length) return [];
  const r = await q.query<{ id: number; account: string }>('SELECT id, account FROM members WHERE id = ANY($1::bigint[])', [ends.map((e) => e.downlineId)]);
  const account = new Map(r.rows.map((x) => [x.id, x.account]));
  return ends.map((e) => ({ contractId: e.contractId, downlineId: e.downlineId, downlineAccount: account.get(e.downlineId) ?? '', rate: e.rate, reason: e.reason }));
}

/** End active contracts (status `ended`), each with its audit row; returns the rows after the change. */
export async function endContracts(tx: Tx, ends: readonly { contractId: number; reason: ContractEndReason }[], actorId: number | null, cause: Record<string, unknown>): Promise<ContractRow[]> {
  const out: ContractRow[] = [];
  for (const e of ends) {
    const r = await tx.query(
      `UPDATE agent_contracts SET status = 'ended', ended_at = now(), ended_by = $2, end_reason = $3 WHERE id = $1 AND status = 'active' RETURNING id`,
      [e.contractId, actorId, e.reason],
    );
    if (!r.rows.length) throw new AppError(ErrorCode.INVALID_STATE, 'A contract changed meanwhile, please retry');
    await audit(tx, e.contractId, actorId, 'active', 'ended', e.reason, cause);
    out.push(await rowOf(tx, e.contractId));
  }
  return out;
}

/**
 * Open offers that no longer fit under their offering agent's own contract, withdrawn: after a change of
 * `rows` (contracts ended, terminated, replaced or newly active), each of their downlines' open offers of
 * that kind is checked again as an offer is (validateOffer against the agent's active terms, if any left)
 * and withdrawn when it fails, with its audit row; returns the withdrawn rows (for their events). An
 * agent whose contract ended kept offering terms it no longer had: the downline was shown an offer it
 * could never accept, refused as if the downline had no contract to share.
 */
export async function withdrawStaleOffers(tx: Tx, rows: readonly ContractRow[]): Promise<ContractRow[]> {
  const agents = new Map<string, { agentId: number; kind: ContractKind }>();
  for (const r of rows) agents.set(`${r.downline_id}:${r.kind}`, { agentId: r.downline_id, kind: r.kind });
  const out: ContractRow[] = [];
  for (const { agentId, kind } of agents.values()) {
    const offers = await tx.query<{ id: number; downline_id: number; terms: TContractTerms; parent_id: number | null }>(
      `SELECT c.id, c.downline_id, c.terms, d.parent_id FROM agent_contracts c JOIN members d ON d.id = c.downline_id
        WHERE c.upline_id = $1 AND c.kind = $2 AND c.status = 'offered' ORDER BY c.id FOR UPDATE OF c`,
      [agentId, kind],
    );
    if (!offers.rows.length) continue;
    const uplineTerms = await activeTermsOf(tx, agentId, kind);
    for (const o of offers.rows) {
      const terms: unknown = typeof o.terms === 'string' ? JSON.parse(o.terms) : o.terms;
      const still = validateOffer({ uplineId: agentId, downlineId: o.downline_id, downlineParentId: o.parent_id, uplineTerms }, terms);
      if (still.ok) continue;
      await tx.query(`UPDATE agent_contracts SET status = 'withdrawn', ended_at = now(), ended_by = NULL, end_reason = 'uplineContractEnded' WHERE id = $1`, [o.id]);
      await audit(tx, o.id, null, 'offered', 'withdrawn', 'uplineContractEnded', { refused: still.code });
      out.push(await rowOf(tx, o.id));
    }
  }
  return out;
}

export type ContractListQuery = { pageNo: number; pageSize: number; role?: 'given' | 'received' | undefined; status?: ContractStatus | undefined; kind?: ContractKind | undefined };

export function createAgentContracts(deps: { db: Db }) {
  const { db } = deps;

  function requireAgent(merchant: Merchant, memberType: number) {
    if (!isAgentType(memberType, merchant.agentTypes)) throw new AppError(ErrorCode.NON_AGENT, 'Only agents have contracts');
  }

  /** An upline offers a direct downline (an agent) terms of one kind, within its own active contract of that kind. */
  async function offer(merchant: Merchant, uplineId: number, body: { downlineId: number; terms: TContractTerms }): Promise<TAgentContract> {
    return db.tx(async (tx) => {
      await requireInSubtree(tx, uplineId, body.downlineId);
      const d = (await tx.query<{ parent_id: number | null; type: number; status: string }>('SELECT parent_id, type, status FROM members WHERE id = $1', [body.downlineId])).rows[0]!;
      const kind = body.terms.kind;
      const checked = validateOffer({ uplineId, downlineId: body.downlineId, downlineParentId: d.parent_id, uplineTerms: await activeTermsOf(tx, uplineId, kind) }, body.terms);
      if (!checked.ok) throw new AppError(checked.code);
      if (!isAgentType(d.type, merchant.agentTypes)) throw new AppError(ErrorCode.CONTRACT_DOWNLINE_NOT_AGENT);
      if (d.status !== 'active') throw new AppError(ErrorCode.INVALID_STATE, 'This member is disabled');
      const t = checked.terms;
      const ins = await tx.query<{ id: number }>(
        `INSERT INTO agent_contracts (merchant_code, kind, upline_id, downline_id, terms, rate, active_members, bet_amount, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'offered') RETURNING id`,
        [merchant.code, kind, uplineId, body.downlineId, JSON.stringify(t), t.rate, t.activeMembers, t.betAmount],
      ).catch((err: { code?: string }) => {
        if (err.code === '23505') throw new AppError(ErrorCode.INVALID_STATE, 'An offer of this kind is already open for this downline: withdraw it first');
        throw err;
      });
      const id = ins.rows[0]!.id;
      await audit(tx, id, uplineId, null, 'offered', null, { terms: t });
      const row = await rowOf(tx, id);
      await emitEvents(tx, merchant.code, eventsFor(row));
      return toContract(row);
    });
  }

  /** The upline takes back an offer not answered yet. */
  async function withdraw(merchant: Merchant, actorId: number, id: number): Promise<TAgentContract> {
    return db.tx(async (tx) => {
      const c = await lockOwn(tx, merchant, id, actorId, 'upline');
      if (c.status !== 'offered') throw new AppError(ErrorCode.INVALID_STATE, 'Only an open offer can be withdrawn');
      await tx.query(`UPDATE agent_contracts SET status = 'withdrawn', ended_at = now(), ended_by = $2 WHERE id = $1`, [id, actorId]);
      await audit(tx, id, actorId, 'offered', 'withdrawn', null);
      const row = await rowOf(tx, id);
      await emitEvents(tx, merchant.code, eventsFor(row));
      return toContract(row);
    });
  }

  /** The offered downline declines. */
  async function reject(merchant: Merchant, actorId: number, id: number): Promise<TAgentContract> {
    return db.tx(async (tx) => {
      const c = await lockOwn(tx, merchant, id, actorId, 'downline');
      if (c.status !== 'offered') throw new AppError(ErrorCode.INVALID_STATE, 'This offer was already answered or withdrawn');
      await tx.query(`UPDATE agent_contracts SET status = 'rejected', answered_at = now(), ended_at = now(), ended_by = $2 WHERE id = $1`, [id, actorId]);
      await audit(tx, id, actorId, 'offered', 'rejected', null);
      const row = await rowOf(tx, id);
      await emitEvents(tx, merchant.code, eventsFor(row));
      return toContract(row);
    });
  }

  /**
   * The checks an acceptance runs under its locks: still an open offer, the offering upline still the
   * downline's parent with an active contract the terms fit under (it may have changed since the
   * offer), and the lower-rate rule's list of the downline's own contracts that would end.
   */
  async function prepareAcceptance(tx: Tx, merchant: Merchant, actorId: number, id: number) {
    const c = await lockOwn(tx, merchant, id, actorId, 'downline');
    if (c.status !== 'offered') throw new AppError(ErrorCode.INVALID_STATE, 'This offer was already answered or withdrawn');
    const parent = (await tx.query<{ parent_id: number | null }>('SELECT parent_id FROM members WHERE id = $1', [actorId])).rows[0]!.parent_id;
    const still = validateOffer({ uplineId: c.upline_id, downlineId: actorId, downlineParentId: parent, uplineTerms: c.upline_id === null ? null : await activeTermsOf(tx, c.upline_id, c.kind) }, c.terms);
    if (!still.ok) throw new AppError(still.code);
    const edges = await edgesBelow(tx, actorId, c.kind);
    return { c, edges };
  }

  async function acceptancePlan(merchant: Merchant, actorId: number, id: number): Promise<{ end: TContractToEnd[] }> {
    return db.tx(async (tx) => {
      const { c, edges } = await prepareAcceptance(tx, merchant, actorId, id);
      const end = contractsEndedByRateChange(edges, actorId, { rate: c.rate, activeMembers: c.active_members, betAmount: c.bet_amount });
      return { end: await presentEnds(tx, end) };
    });
  }

  /**
   * The offered downline accepts. Its current contract of the kind (if any) is replaced; contracts it
   * gave that no longer fit under the new terms, and everything below them, end in the same transaction,
   * but only if `endContractIds` covers that whole list (CONTRACT_CONSENT_REQUIRED otherwise, nothing changed).
   */
  async function accept(merchant: Merchant, actorId: number, id: number, endContractIds: readonly number[]): Promise<{ contract: TAgentContract; ended: TContractToEnd[] }> {
    return db.tx(async (tx) => {
      const { c, edges } = await prepareAcceptance(tx, merchant, actorId, id);
      const plan = planAcceptance(edges, { downlineId: actorId, rate: c.rate, activeMembers: c.active_members, betAmount: c.bet_amount }, endContractIds);
      if (!plan.ok) {
        throw new AppError(ErrorCode.CONTRACT_CONSENT_REQUIRED, undefined, undefined, { mustEnd: await presentEnds(tx, plan.mustEnd) });
      }
      const replaced = await tx.query<{ id: number }>(
        `UPDATE agent_contracts SET status = 'ended', ended_at = now(), ended_by = $1, end_reason = 'replacedByNewContract'
          WHERE downline_id = $1 AND kind = $2 AND status = 'active' RETURNING id`,
        [actorId, c.kind],
      );
      const changed: ContractRow[] = [];
      for (const r of replaced.rows) {
        await audit(tx, r.id, actorId, 'active', 'ended', 'replacedByNewContract', { by: id });
        changed.push(await rowOf(tx, r.id));
      }
      changed.push(...await endContracts(tx, plan.end, actorId, { acceptedContractId: id }));
      await tx.query(`UPDATE agent_contracts SET status = 'active', answered_at = now() WHERE id = $1`, [id]);
      await audit(tx, id, actorId, 'offered', 'active', null, { ended: plan.end.map((e) => e.contractId) });
      const row = await rowOf(tx, id);
      changed.push(...await withdrawStaleOffers(tx, [row, ...changed]));
      await emitEvents(tx, merchant.code, [...eventsFor(row), ...changed.flatMap(eventsFor)]);
      return { contract: toContract(row), ended: await presentEnds(tx, plan.end) };
    });
  }

  /** Either party ends a live contract; what the downline gave below ends with it (it has no rate left to share). */
  async function terminate(merchant: Merchant, actorId: number, id: number): Promise<{ contract: TAgentContract; ended: TContractToEnd[] }> {
    return db.tx(async (tx) => {
      const c = await lockOwn(tx, merchant, id, actorId, 'either');
      if (c.status !== 'active') throw new AppError(ErrorCode.INVALID_STATE, 'Only a live contract can be terminated');
      const reason: ContractEndReason = c.upline_id === actorId ? 'terminatedByUpline' : 'terminatedByDownline';
      await tx.query(`UPDATE agent_contracts SET status = 'terminated', ended_at = now(), ended_by = $2, end_reason = $3 WHERE id = $1`, [id, actorId, reason]);
      await audit(tx, id, actorId, 'active', 'terminated', reason);
      const ends = contractsEndedByRateChange(await edgesBelow(tx, c.downline_id, c.kind), c.downline_id, null);
      const changed = await endContracts(tx, ends, actorId, { terminatedContractId: id });
      const row = await rowOf(tx, id);
      changed.push(...await withdrawStaleOffers(tx, [row, ...changed]));
      await emitEvents(tx, merchant.code, [...eventsFor(row), ...changed.flatMap(eventsFor)]);
      return { contract: toContract(row), ended: await presentEnds(tx, ends) };
    });
  }

  /** The caller's contracts, as upline (given), as downline (received), or both; newest first. */
  async function list(merchant: Merchant, actorId: number, q: ContractListQuery) {
    const where = `c.merchant_code = $1 AND (CASE $3::text WHEN 'given' THEN c.upline_id = $2 WHEN 'received' THEN c.downline_id = $2 ELSE (c.upline_id = $2 OR c.downline_id = $2) END)
      AND ($4::text IS NULL OR c.status = $4) AND ($5::text IS NULL OR c.kind = $5)`;
    const args = [merchant.code, actorId, q.role ?? null, q.status ?? null, q.kind ?? null];
    const r = await db.query<ContractRow>(`${SELECT} WHERE ${where} ORDER BY c.id DESC LIMIT $6 OFFSET $7`, [...args, q.pageSize, (q.pageNo - 1) * q.pageSize]);
    const n = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_contracts c WHERE ${where}`, args);
    return { list: r.rows.map(toContract), pageNo: q.pageNo, pageSize: q.pageSize, total: n.rows[0]!.n };
  }

  /**
   * The house's contract with a top agent (a member without an upline): created active, never offered,
   * by an operator (POST /ops/api/agents/house-contracts, gateway/src/modules/ops/agents-contracts-ops.ts)
   * or the dev helper POST /wps/dev/agent-contracts/house. Replaces the
   * agent's current house contract of the kind; what the agent gave that no longer fits ends with it.
   */
  async function grantHouseContract(merchant: Merchant, downlineId: number, proposed: unknown): Promise<TAgentContract> {
    return db.tx(async (tx) => (await grantHouseContractIn(tx, merchant, downlineId, proposed)).contract);
  }

  return { requireAgent, offer, withdraw, reject, acceptancePlan, accept, terminate, list, grantHouseContract };
}

/**
 * grantHouseContract inside the caller's transaction (the operator route adds its audit_log row to it):
 * also returns the contracts it replaced or ended (as they are after the change).
 */
export async function grantHouseContractIn(tx: Tx, merchant: Merchant, downlineId: number, proposed: unknown): Promise<{ contract: TAgentContract; changed: TAgentContract[] }> {
  // The member row locked: two grants for the same agent at once run one after the other (the second replaces the first).
  const d = (await tx.query<{ parent_id: number | null; type: number }>('SELECT parent_id, type FROM members WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [downlineId, merchant.code])).rows[0];
  if (!d) throw new AppError(ErrorCode.USER_NOT_FOUND);
  // The house contracts with top agents only (no upline); one below gets its terms from its upline.
  if (d.parent_id !== null) throw new AppError(ErrorCode.CONTRACT_NOT_TOP_AGENT);
  const checked = validateOffer({ uplineId: null, downlineId, downlineParentId: d.parent_id, uplineTerms: null }, proposed);
  if (!checked.ok) throw new AppError(checked.code);
  if (!isAgentType(d.type, merchant.agentTypes)) throw new AppError(ErrorCode.CONTRACT_DOWNLINE_NOT_AGENT);
  const t = checked.terms;
  const changed: ContractRow[] = [];
  const replaced = await tx.query<{ id: number }>(
    `UPDATE agent_contracts SET status = 'ended', ended_at = now(), end_reason = 'replacedByNewContract' WHERE downline_id = $1 AND kind = $2 AND status = 'active' RETURNING id`,
    [downlineId, t.kind],
  );
  for (const r of replaced.rows) {
    await audit(tx, r.id, null, 'active', 'ended', 'replacedByNewContract');
    changed.push(await rowOf(tx, r.id));
  }
  const ends = contractsEndedByRateChange(await edgesBelow(tx, downlineId, t.kind), downlineId, t);
  changed.push(...await endContracts(tx, ends, null, { houseContractFor: downlineId }));
  const ins = await tx.query<{ id: number }>(
    `INSERT INTO agent_contracts (merchant_code, kind, upline_id, downline_id, terms, rate, active_members, bet_amount, status, answered_at)
     VALUES ($1, $2, NULL, $3, $4, $5, $6, $7, 'active', now()) RETURNING id`,
    [merchant.code, t.kind, downlineId, JSON.stringify(t), t.rate, t.activeMembers, t.betAmount],
  );
  const id = ins.rows[0]!.id;
  await audit(tx, id, null, null, 'active', 'houseContract', { terms: t });
  const row = await rowOf(tx, id);
  changed.push(...await withdrawStaleOffers(tx, [row, ...changed]));
  await emitEvents(tx, merchant.code, [...eventsFor(row), ...changed.flatMap(eventsFor)]);
  return { contract: toContract(row), changed: changed.map(toContract) };
}

export type AgentContracts = ReturnType<typeof createAgentContracts>;

export { audit as contractAudit, SELECT as CONTRACT_SELECT };
/** The same mapping under the name the settlement and report modules import. */
export const toAgentContract = toContract;
