import { createHash } from 'node:crypto';
import { prepared, type Queryable, type Tx } from '../../db/db.ts';
import { wakeRelays } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { onLedgerTransferCommitted } from '../../obs/metrics.ts';
import { iso } from '../../db/iso.ts';

/**
 * The double-entry ledger. Every balance change is a transfer between two accounts with a unique
 * idempotency key: a retry with the same key and terms returns the first result, with other terms
 * it is refused. Member accounts never go below zero (balance minus holds); system accounts may.
 * A hold is a pending transfer that reserves funds and is posted or voided exactly once.
 * Every committed change to a member balance is announced by `balance.changed` in the same
 * transaction (outbox), so nothing committed goes unannounced and nothing else is announced.
 * The writes are server-side functions (migration 013_ledger_functions.sql), one round trip per
 * transfer, so row locks are held for the work and not across network round trips.
 */

export const SYSTEM_KINDS = ['house', 'deposit', 'withdrawal', 'adjustment', 'game', 'bonus', 'envelope'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];
/** System accounts are spread over this many rows so a hot counterpart does not serialise every transfer (the default; see createLedger). */
export const SYSTEM_SHARDS = 256;

/**
 * The system account row a transfer with this idempotency key uses, as ledger_transfer picks it
 * (migration 017: the first two bytes of sha256(key) mod the shards), for callers that group transfers
 * by the rows they will lock.
 */
export function shardOfKey(key: string, shards: number = SYSTEM_SHARDS): number {
  const d = createHash('sha256').update(key, 'utf8').digest();
  return (d[0]! * 256 + d[1]!) % shards;
}

export type AccountRef = { member: number } | { system: SystemKind };

export type TransferInput = {
  merchant: string;
  currency: string;
  key: string;
  kind: string;
  debit: AccountRef;
  credit: AccountRef;
  amount: number;
  memo?: Record<string, unknown>;
  /** A hold: reserve the amount on the debit account; post or void it later. */
  pending?: boolean;
};

export type TransferResult = {
  transferId: number;
  status: 'posted' | 'pending' | 'voided';
  amount: number;
  /** True when this key was applied before: nothing changed now. */
  replayed: boolean;
  createdAt: string;
};


export class InsufficientFunds extends AppError {
  constructor() {
    super(ErrorCode.INSUFFICIENT_FUNDS);
  }
}

/** SQLSTATE raised by ledger_apply (migration 013) when a guard refuses a change. */
export const INSUFFICIENT_FUNDS_SQLSTATE = 'LD001';

// The ledger's calls: prepared once per PostgreSQL connection (they run thousands of times a second).
const MEMBER_ACCOUNT_SQL = prepared('SELECT ledger_member_account($1, $2, $3) AS id');
const SYSTEM_ACCOUNT_SQL = prepared('SELECT ledger_system_account($1, $2, $3, $4) AS id');
const TRANSFER_SQL = prepared('SELECT * FROM ledger_transfer($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)');
const RESOLVE_HOLD_SQL = prepared('SELECT * FROM ledger_resolve_hold($1, $2, $3, $4)');

/** Runs one ledger function call; a refused guard becomes InsufficientFunds. */
async function call<T>(q: Queryable, sql: string, params: unknown[]): Promise<T> {
  try {
    return (await q.query<T>(sql, params)).rows[0]!;
  } catch (err) {
    if ((err as { code?: string }).code === INSUFFICIENT_FUNDS_SQLSTATE) throw new InsufficientFunds();
    throw err;
  }
}

export async function memberAccount(q: Queryable, merchant: string, memberId: number, currency: string): Promise<number> {
  return (await call<{ id: number }>(q, MEMBER_ACCOUNT_SQL, [merchant, memberId, currency])).id;
}

export async function systemAccount(q: Queryable, merchant: string, kind: SystemKind, currency: string, shard: number): Promise<number> {
  return (await call<{ id: number }>(q, SYSTEM_ACCOUNT_SQL, [merchant, kind, currency, shard])).id;
}

type Outcome = { o_outcome: string; o_transfer: number | null; o_status: TransferResult['status'] | null; o_amount: number | null; o_created_at: Date | string | null; o_events: number };

const toResult = (r: Outcome, replayed: boolean): TransferResult =>
  ({ transferId: r.o_transfer!, status: r.o_status!, amount: r.o_amount!, replayed, createdAt: iso(r.o_created_at!) });

/**
 * One transfer, inside the caller's transaction: ledger_transfer (migration 013) in one round trip.
 * The transfer row goes in first: its unique key makes a concurrent duplicate wait for this
 * transaction and then see it as a replay. Both legs are posted in a fixed lock order (member
 * accounts before system accounts, then by id; the shared system row last) and every changed member
 * account announces balance.changed in the same transaction. A refused guard throws
 * InsufficientFunds and leaves the transaction to be rolled back (or its savepoint).
 */
export async function transfer(tx: Tx, i: TransferInput): Promise<TransferResult> {
  return transferOn(tx, i, SYSTEM_SHARDS);
}

/**
 * A ledger whose system legs spread over `systemShards` rows (1 = one hot row per system account,
 * as the benchmark's hot-house run uses). Shard rows are the same accounts whatever the count:
 * shard 0 is shared, so ledgers with different counts can run on one database side by side.
 */
export function createLedger(opts: { systemShards: number }) {
  const n = opts.systemShards;
  if (!Number.isSafeInteger(n) || n < 1 || n > 1024) throw new RangeError(`systemShards must be a whole number from 1 to 1024, got ${n}`);
  return {
    systemShards: n,
    transfer: (tx: Tx, i: TransferInput) => transferOn(tx, i, n),
    resolveHold,
  };
}

const side = (r: AccountRef) => ('member' in r ? [r.member, null] : [null, r.system]);

async function transferOn(tx: Tx, i: TransferInput, shards: number): Promise<TransferResult> {
  if (!Number.isSafeInteger(i.amount) || i.amount <= 0) throw new AppError(ErrorCode.VALIDATION, 'Amount must be a positive whole number of minor units');
  const r = await call<Outcome>(tx, TRANSFER_SQL, [
    i.merchant, i.currency, i.key, i.kind, ...side(i.debit), ...side(i.credit), shards, i.amount, Boolean(i.pending), JSON.stringify(i.memo ?? {}),
  ]);
  if (r.o_outcome === 'same_account') throw new AppError(ErrorCode.VALIDATION, 'Debit and credit accounts must differ');
  if (r.o_outcome === 'mismatch') throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
  if (r.o_events > 0) tx.afterCommit(wakeRelays);
  if (r.o_outcome !== 'replay') tx.afterCommit(onLedgerTransferCommitted);
  return toResult(r, r.o_outcome === 'replay');
}

/** Resolve a hold exactly once (ledger_resolve_hold): post moves the reserved funds, void releases them. Repeating the same resolution is a replay. */
export async function resolveHold(tx: Tx, merchant: string, currency: string, holdId: number, outcome: 'post' | 'void'): Promise<TransferResult> {
  const r = await call<Outcome>(tx, RESOLVE_HOLD_SQL, [merchant, currency, holdId, outcome]);
  if (r.o_outcome === 'not_found') throw new AppError(ErrorCode.NOT_FOUND);
  if (r.o_outcome === 'conflict') throw new AppError(ErrorCode.CONFLICT, `Hold already ${r.o_status}`);
  if (r.o_events > 0) tx.afterCommit(wakeRelays);
  if (r.o_outcome !== 'replay') tx.afterCommit(onLedgerTransferCommitted);
  return toResult(r, r.o_outcome === 'replay');
}

export async function balanceOf(q: Queryable, memberId: number, currency: string) {
  const r = await q.query<{ balance: number; held: number }>('SELECT balance, held FROM ledger_accounts WHERE member_id = $1 AND currency = $2', [memberId, currency]);
  const row = r.rows[0] ?? { balance: 0, held: 0 };
  return { balance: row.balance, held: row.held, available: row.balance - row.held };
}

export type Violation = { rule: string; detail: string };

/**
 * The ledger's invariants, checked over the whole database: debits equal credits, each stored
 * balance equals the sum of its entries and each hold total the sum of its pending transfers, no
 * member below zero, posted transfers have exactly two entries and pending or voided ones none,
 * every entry and transfer points at an existing transfer and accounts.
 * (Idempotency keys are unique by constraint; a hold resolves once by the status guard.)
 */
export async function checkLedger(q: Queryable): Promise<Violation[]> {
  const out: Violation[] = [];
  const total = await q.query<{ s: number | null }>('SELECT COALESCE(sum(amount), 0)::bigint AS s FROM ledger_entries');
  if (Number(total.rows[0]!.s) !== 0) out.push({ rule: 'debits equal credits', detail: `entries sum to ${total.rows[0]!.s}` });
  const perTransfer = await q.query<{ id: number; n: number; s: number }>(
    `SELECT t.id, count(e.id)::int AS n, COALESCE(sum(e.amount), 0)::bigint AS s FROM ledger_transfers t
     LEFT JOIN ledger_entries e ON e.transfer_id = t.id GROUP BY t.id, t.status
     HAVING (t.status = 'posted' AND (count(e.id) <> 2 OR COALESCE(sum(e.amount), 0) <> 0)) OR (t.status <> 'posted' AND count(e.id) <> 0)`,
  );
  for (const r of perTransfer.rows) out.push({ rule: 'transfer legs', detail: `transfer ${r.id}: ${r.n} entries summing to ${r.s}` });
  const drift = await q.query<{ id: number; balance: number; sum: number }>(
    `SELECT a.id, a.balance, COALESCE(e.s, 0)::bigint AS sum FROM ledger_accounts a
     LEFT JOIN (SELECT account_id, sum(amount) AS s FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
     WHERE a.balance <> COALESCE(e.s, 0)`,
  );
  for (const r of drift.rows) out.push({ rule: 'balance equals entries', detail: `account ${r.id}: stored ${r.balance}, entries ${r.sum}` });
  const heldDrift = await q.query<{ id: number; held: number; sum: number }>(
    `SELECT a.id, a.held, COALESCE(p.s, 0)::bigint AS sum FROM ledger_accounts a
     LEFT JOIN (SELECT debit_account_id, sum(amount) AS s FROM ledger_transfers WHERE status = 'pending' GROUP BY debit_account_id) p
       ON p.debit_account_id = a.id
     WHERE a.held <> COALESCE(p.s, 0)`,
  );
  for (const r of heldDrift.rows) out.push({ rule: 'holds equal pending transfers', detail: `account ${r.id}: held ${r.held}, pending ${r.sum}` });
  const negative = await q.query<{ id: number; balance: number; held: number }>(
    `SELECT id, balance, held FROM ledger_accounts WHERE kind = 'member' AND balance - held < 0`,
  );
  for (const r of negative.rows) out.push({ rule: 'no member below zero', detail: `account ${r.id}: balance ${r.balance}, held ${r.held}` });
  // The ledger's rows carry no foreign keys (migration 017): every reference must still resolve.
  const orphans = await q.query<{ what: string; id: number }>(
    `SELECT 'entry' AS what, e.id FROM ledger_entries e
       WHERE NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = e.transfer_id) OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = e.account_id)
     UNION ALL
     SELECT 'transfer', t.id FROM ledger_transfers t
       WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.debit_account_id) OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.credit_account_id)`,
  );
  for (const r of orphans.rows) out.push({ rule: 'references resolve', detail: `${r.what} ${r.id} points at a missing account or transfer` });
  return out;
}
