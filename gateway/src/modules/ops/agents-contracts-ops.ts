import type { TAgentContract, TContractToEnd } from '@portal/contracts/api/agent-contracts';
import type { TOpsTreeRow, TOpsTreeValue } from '@portal/contracts/api/ops-agents';
import { contractsEndedByRateChange, type ContractKind, type ContractStatus, type TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { AGENT_TYPES } from '@portal/contracts/domain/constants';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { emitEvents } from '../../bus/outbox.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import {
  CONTRACT_SELECT, contractAudit, edgesBelow, endContracts, eventsFor, grantHouseContractIn, presentEnds, rowOf, toContract, withdrawStaleOffers, type ContractRow,
} from '../agents/contracts-service.ts';
import { descendantOf } from '../agents/team-tree.ts';
import { audit, type Operator } from './operators.ts';

/**
 * The operator's side of agents (issue 11): the merchant's whole agent tree, every contract, the
 * house's contracts with top agents, and terminating any live contract. Unlike the agent calls
 * (bounded to the caller's subtree), an operator sees the whole merchant, and only it: every query
 * is bounded by merchant_code. Each change writes the contract's agent_contract_audit rows (actor
 * 'operator') and an audit_log row naming the operator in one transaction, and emits the contract
 * events to the parties through the outbox in that same transaction.
 */

type MemberRow = { id: number; account: string; nickname: string | null; type: number; status: 'active' | 'disabled'; parent_id: number | null; tree_path: string | null; team_size: number; direct_count: number; total?: number };

const MEMBER_COLUMNS = `m.id, m.account, m.nickname, m.type, m.status, m.parent_id, m.tree_path,
  (SELECT count(*) FROM members d WHERE ${descendantOf('d', 'm.tree_path')})::int AS team_size,
  (SELECT count(*) FROM members d WHERE d.parent_id = m.id)::int AS direct_count`;

const pathIds = (treePath: string | null, self: number): number[] => (treePath ? treePath.split('.').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : [self]);

function agentTypesOf(merchant: Merchant): number[] {
  return [...new Set<number>([...(AGENT_TYPES as readonly number[]), ...merchant.agentTypes])];
}

/** Tree rows with their live contracts (one query for all rows). */
async function toRows(q: Queryable, merchant: Merchant, rows: MemberRow[]): Promise<TOpsTreeRow[]> {
  const ids = rows.map((r) => r.id);
  const live = ids.length
    ? (await q.query<{ id: number; downline_id: number; kind: ContractKind; rate: number; upline_id: number | null }>(
      `SELECT id, downline_id, kind, rate, upline_id FROM agent_contracts WHERE merchant_code = $1 AND downline_id = ANY($2::bigint[]) AND status = 'active' ORDER BY kind, id`,
      [merchant.code, ids])).rows
    : [];
  const agentTypes = agentTypesOf(merchant);
  return rows.map((r) => ({
    id: r.id, account: r.account, nickname: r.nickname, type: r.type, isAgent: agentTypes.includes(r.type), status: r.status, parentId: r.parent_id,
    depth: pathIds(r.tree_path, r.id).length - 1, teamSize: r.team_size, directCount: r.direct_count,
    contracts: live.filter((c) => c.downline_id === r.id).map((c) => ({ id: c.id, kind: c.kind, rate: c.rate, house: c.upline_id === null })),
  }));
}

/** The breadcrumbs of many tree paths, one query: top of the tree first, the member itself last. */
async function breadcrumbs(q: Queryable, merchant: Merchant, paths: number[][]) {
  const all = [...new Set(paths.flat())];
  const r = all.length ? await q.query<{ id: number; account: string }>('SELECT id, account FROM members WHERE merchant_code = $1 AND id = ANY($2::bigint[])', [merchant.code, all]) : { rows: [] };
  const account = new Map(r.rows.map((x) => [x.id, x.account]));
  return paths.map((p) => p.filter((id) => account.has(id)).map((id) => ({ id, account: account.get(id)! })));
}

export type OpsTreeQuery = { pageNo: number; pageSize: number; rootId?: number | undefined; search?: string | undefined };

export async function opsAgentTree(db: Db, merchant: Merchant, q: OpsTreeQuery): Promise<TOpsTreeValue> {
  const limit = [q.pageSize, (q.pageNo - 1) * q.pageSize];
  const agentTypes = agentTypesOf(merchant);
  let root: TOpsTreeRow | null = null;
  let path: { id: number; account: string }[] = [];
  let rows: MemberRow[];
  if (q.search !== undefined) {
    // Anywhere in the merchant: the text inside the account, case-insensitive (strpos: no LIKE wildcards to escape).
    rows = (await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS}, count(*) OVER ()::int AS total FROM members m
        WHERE m.merchant_code = $1 AND strpos(m.account_lower, lower($2)) > 0
        ORDER BY (m.account_lower = lower($2)) DESC, (m.type = ANY($3::int[])) DESC, m.account_lower LIMIT $4 OFFSET $5`,
      [merchant.code, q.search, agentTypes, ...limit])).rows;
  } else if (q.rootId !== undefined) {
    const r = (await db.query<MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.merchant_code = $1 AND m.id = $2`, [merchant.code, q.rootId])).rows[0];
    if (!r) throw new AppError(ErrorCode.USER_NOT_FOUND);
    root = (await toRows(db, merchant, [r]))[0]!;
    path = (await breadcrumbs(db, merchant, [pathIds(r.tree_path, r.id)]))[0]!;
    rows = (await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS}, count(*) OVER ()::int AS total FROM members m
        WHERE m.merchant_code = $1 AND m.parent_id = $2 ORDER BY (m.type = ANY($3::int[])) DESC, m.id LIMIT $4 OFFSET $5`,
      [merchant.code, q.rootId, agentTypes, ...limit])).rows;
  } else {
    rows = (await db.query<MemberRow>(
      `SELECT ${MEMBER_COLUMNS}, count(*) OVER ()::int AS total FROM members m
        WHERE m.merchant_code = $1 AND m.parent_id IS NULL ORDER BY (m.type = ANY($2::int[])) DESC, m.id LIMIT $3 OFFSET $4`,
      [merchant.code, agentTypes, ...limit])).rows;
  }
  const list = await toRows(db, merchant, rows);
  const paths = await breadcrumbs(db, merchant, rows.map((r) => pathIds(r.tree_path, r.id)));
  return {
    list: list.map((r, i) => ({ ...r, path: paths[i]! })),
    pageNo: q.pageNo, pageSize: q.pageSize, total: rows[0]?.total ?? 0, root, path,
  };
}

export type OpsContractsQuery = { pageNo: number; pageSize: number; kind?: ContractKind | undefined; status?: ContractStatus | undefined; account?: string | undefined; house?: 'true' | 'false' | undefined };

/** Every contract of the merchant, newest first; `account` is either party's account. */
export async function opsContracts(db: Db, merchant: Merchant, q: OpsContractsQuery) {
  const where = `c.merchant_code = $1 AND ($2::text IS NULL OR c.kind = $2) AND ($3::text IS NULL OR c.status = $3)
    AND ($4::text IS NULL OR u.account_lower = lower($4) OR d.account_lower = lower($4))
    AND ($5::boolean IS NULL OR (c.upline_id IS NULL) = $5)`;
  const args = [merchant.code, q.kind ?? null, q.status ?? null, q.account ?? null, q.house === undefined ? null : q.house === 'true'];
  const r = await db.query<ContractRow & { total: number }>(
    `${CONTRACT_SELECT.replace('SELECT c.*', 'SELECT c.*, count(*) OVER ()::int AS total')} WHERE ${where} ORDER BY c.id DESC LIMIT $6 OFFSET $7`,
    [...args, q.pageSize, (q.pageNo - 1) * q.pageSize],
  );
  return { list: r.rows.map(toContract), pageNo: q.pageNo, pageSize: q.pageSize, total: r.rows[0]?.total ?? 0 };
}

/** What an audit_log row keeps of a contract. */
const cState = (c: TAgentContract) => ({ status: c.status, kind: c.kind, rate: c.terms.rate, uplineId: c.uplineId, downlineId: c.downlineId, endReason: c.endReason });

/** The house's contract with a top agent, granted by an operator (replaces its house contract of the kind). */
export async function opsGrantHouseContract(db: Db, merchant: Merchant, op: Operator, memberId: number, terms: TContractTerms): Promise<TAgentContract> {
  return db.tx(async (tx) => {
    const { contract, changed } = await grantHouseContractIn(tx, merchant, memberId, terms);
    await audit(tx, op, 'agent.house_contract.grant', { type: 'agent_contract', id: contract.id },
      changed.length ? { changed: changed.map((c) => ({ id: c.id, ...cState(c) })) } : undefined,
      { ...cState(contract), memberId, terms: contract.terms });
    return contract;
  });
}

/**
 * An operator ends a live contract (either a house contract or one between two agents). It becomes
 * `terminated` with no member as `endedBy` and end reason 'terminatedByOperator'; what the downline gave below it ends, as when a party terminates.
 */
export async function opsTerminateContract(db: Db, merchant: Merchant, op: Operator, id: number, reason: string): Promise<{ contract: TAgentContract; ended: TContractToEnd[] }> {
  return db.tx(async (tx) => {
    const c = (await tx.query<{ id: number; downline_id: number; kind: ContractKind; status: ContractStatus }>(
      'SELECT id, downline_id, kind, status FROM agent_contracts WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant.code])).rows[0];
    if (!c) throw new AppError(ErrorCode.NOT_FOUND, 'No such contract');
    if (c.status !== 'active') throw new AppError(ErrorCode.INVALID_STATE, 'Only a live contract can be terminated');
    const before = toContract(await rowOf(tx, id));
    await tx.query(`UPDATE agent_contracts SET status = 'terminated', ended_at = now(), ended_by = NULL, end_reason = 'terminatedByOperator' WHERE id = $1`, [id]);
    await contractAudit(tx, id, null, 'active', 'terminated', 'terminatedByOperator', { operator: op.username, operatorId: op.id, note: reason });
    const ends = contractsEndedByRateChange(await edgesBelow(tx, c.downline_id, c.kind), c.downline_id, null);
    const changed: ContractRow[] = await endContracts(tx, ends, null, { terminatedContractId: id, operator: op.username });
    const row = await rowOf(tx, id);
    changed.push(...await withdrawStaleOffers(tx, [row, ...changed]));
    await emitEvents(tx, merchant.code, [...eventsFor(row), ...changed.flatMap(eventsFor)]);
    const contract = toContract(row);
    await audit(tx, op, 'agent.contract.terminate', { type: 'agent_contract', id }, cState(before),
      { ...cState(contract), reason, ended: ends.map((e) => e.contractId) });
    return { contract, ended: await presentEnds(tx, ends) };
  });
}

/** The type a top agent gets (the demo seed's agent01 is one). */
const TOP_AGENT_TYPE = 1;

/**
 * An operator makes a member without an upline a top agent, so the house can then grant it contracts
 * (a production merchant starts with players only: agents set their own downlines as agents, but the
 * first ones come from here). Already an agent: nothing changes. A member with an upline is its
 * upline's to set (409), as are disabled or non-player accounts. Audited as `agent.promote`.
 */
export async function opsMakeTopAgent(db: Db, merchant: Merchant, op: Operator, memberId: number, reason: string) {
  return db.tx((tx) => promoteTopAgent(tx, merchant, op, memberId, reason));
}

/** Make a member without an upline a top agent, in the caller's transaction (audited as agent.promote). */
export async function promoteTopAgent(tx: Tx, merchant: Merchant, op: Operator, memberId: number, reason: string) {
  {
    const m = (await tx.query<{ id: number; account: string; type: number; status: string; parent_id: number | null }>(
      'SELECT id, account, type, status, parent_id FROM members WHERE merchant_code = $1 AND id = $2 FOR UPDATE', [merchant.code, memberId])).rows[0];
    if (!m) throw new AppError(ErrorCode.USER_NOT_FOUND);
    const id = Number(m.id);
    // A member with an upline is its upline's to set, agent or not (an agent under another answered 200 as if made top).
    if (m.parent_id !== null) throw new AppError(ErrorCode.INVALID_STATE, 'This member has an upline agent: only its upline can set it as an agent');
    if (agentTypesOf(merchant).includes(m.type)) return { id, account: m.account, type: m.type, isAgent: true as const };
    if (m.status !== 'active') throw new AppError(ErrorCode.INVALID_STATE, 'This member is disabled');
    if (m.type !== 0) throw new AppError(ErrorCode.INVALID_STATE, 'This account type cannot become an agent');
    await tx.query('UPDATE members SET type = $2 WHERE id = $1 AND type = 0', [id, TOP_AGENT_TYPE]);
    await audit(tx, op, 'agent.promote', { type: 'member', id: String(id) }, { type: m.type }, { type: TOP_AGENT_TYPE, account: m.account, reason });
    return { id, account: m.account, type: TOP_AGENT_TYPE, isAgent: true as const };
  }
}
