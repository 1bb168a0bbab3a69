import { createHash } from 'node:crypto';
import { userAudience } from '@portal/contracts/events/events';
import type { Queryable, Tx } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';

/**
 * The double-entry ledger. Every balance change is a transfer between two accounts with a unique
 * idempotency key: a retry with the same key and terms returns the first result, with other terms
 * it is refused. Member accounts never go below zero (balance minus holds); system accounts may.
 * A hold is a pending transfer that reserves funds and is posted or voided exactly once.
 * Every committed change to a member balance is announced by `balance.changed` in the same
 * transaction (outbox), so nothing committed goes unannounced and nothing else is announced.
 */

export const SYSTEM_KINDS = ['house', 'deposit', 'withdrawal', 'adjustment', 'game', 'bonus'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];
/** System accounts are spread over this many rows so a hot counterpart does not serialise every transfer (the default; see createLedger). */
export const SYSTEM_SHARDS = 256;

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

export type AccountState = { accountId: number; memberId: number | null; balance: number; held: number };
export type TransferResult = {
  transferId: number;
  status: 'posted' | 'pending' | 'voided';
  amount: number;
  /** True when this key was applied before: nothing changed now. */
  replayed: boolean;
  createdAt: string;
};

type TransferRow = {
  id: number; request_hash: string; kind: string; debit_account_id: number; credit_account_id: number; amount: number;
  status: 'posted' | 'pending' | 'voided'; created_at: Date | string; merchant_code: string; memo: Record<string, unknown>;
};

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export class InsufficientFunds extends AppError {
  constructor() {
    super(ErrorCode.INSUFFICIENT_FUNDS);
  }
}

function requestHash(i: TransferInput): string {
  const side = (r: AccountRef) => ('member' in r ? `m${r.member}` : `s${r.system}`);
  return createHash('sha256')
    .update([i.kind, side(i.debit), side(i.credit), i.amount, i.currency, i.pending ? 'hold' : 'post'].join('|'))
    .digest('base64url');
}

function shardOf(key: string, shards: number): number {
  const h = createHash('sha1').update(key).digest();
  return h.readUInt16BE(0) % shards;
}

export async function memberAccount(q: Queryable, merchant: string, memberId: number, currency: string): Promise<number> {
  const found = await q.query<{ id: number }>('SELECT id FROM ledger_accounts WHERE member_id = $1 AND currency = $2', [memberId, currency]);
  if (found.rows[0]) return found.rows[0].id;
  await q.query(
    `INSERT INTO ledger_accounts (merchant_code, kind, member_id, currency) VALUES ($1, 'member', $2, $3)
     ON CONFLICT (member_id, currency) WHERE member_id IS NOT NULL DO NOTHING`,
    [merchant, memberId, currency],
  );
  const r = await q.query<{ id: number }>('SELECT id FROM ledger_accounts WHERE member_id = $1 AND currency = $2', [memberId, currency]);
  return r.rows[0]!.id;
}

export async function systemAccount(q: Queryable, merchant: string, kind: SystemKind, currency: string, shard: number): Promise<number> {
  const sel = 'SELECT id FROM ledger_accounts WHERE merchant_code = $1 AND kind = $2 AND currency = $3 AND shard = $4 AND member_id IS NULL';
  const found = await q.query<{ id: number }>(sel, [merchant, kind, currency, shard]);
  if (found.rows[0]) return found.rows[0].id;
  await q.query(
    `INSERT INTO ledger_accounts (merchant_code, kind, currency, shard, allow_negative) VALUES ($1, $2, $3, $4, true)
     ON CONFLICT (merchant_code, kind, currency, shard) WHERE member_id IS NULL DO NOTHING`,
    [merchant, kind, currency, shard],
  );
  return (await q.query<{ id: number }>(sel, [merchant, kind, currency, shard])).rows[0]!.id;
}

async function resolveRef(q: Queryable, i: TransferInput, ref: AccountRef, shards: number): Promise<number> {
  return 'member' in ref ? memberAccount(q, i.merchant, ref.member, i.currency) : systemAccount(q, i.merchant, ref.system, i.currency, shardOf(i.key, shards));
}

/** Both accounts of a transfer in one round trip when they exist; a missing one is created as before. */
async function resolveBoth(q: Queryable, i: TransferInput, shards: number): Promise<[number, number]> {
  const params: unknown[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = (ref: AccountRef) =>
    'member' in ref
      ? `member_id = ${p(ref.member)}::bigint AND currency = ${p(i.currency)}::text`
      : `merchant_code = ${p(i.merchant)}::text AND kind = ${p(ref.system)}::text AND currency = ${p(i.currency)}::text AND shard = ${p(shardOf(i.key, shards))}::int AND member_id IS NULL`;
  const r = await q.query<{ side: number; id: number }>(
    `SELECT 0 AS side, id FROM ledger_accounts WHERE ${where(i.debit)} UNION ALL SELECT 1 AS side, id FROM ledger_accounts WHERE ${where(i.credit)}`,
    params,
  );
  const found = (side: number) => r.rows.find((row) => row.side === side)?.id;
  return [found(0) ?? (await resolveRef(q, i, i.debit, shards)), found(1) ?? (await resolveRef(q, i, i.credit, shards))];
}

type AccountRow = { id: number; member_id: number | null; balance: number; held: number };
const toState = (row: AccountRow): AccountState => ({ accountId: row.id, memberId: row.member_id, balance: row.balance, held: row.held });
const GUARDED_UPDATE = `UPDATE ledger_accounts SET balance = balance + $2, held = held + $3
     WHERE id = $1 AND (allow_negative OR balance + $2 - (held + $3) >= 0) AND held + $3 >= 0
     RETURNING id, member_id, balance, held`;

/** Apply a signed change to one account under its guard; returns its new state or throws InsufficientFunds. */
async function move(tx: Tx, accountId: number, balanceDelta: number, heldDelta: number): Promise<AccountState> {
  const r = await tx.query<AccountRow>(GUARDED_UPDATE, [accountId, balanceDelta, heldDelta]);
  const row = r.rows[0];
  if (!row) throw new InsufficientFunds();
  return toState(row);
}

/** move() and the leg's entry in one statement (one round trip; no entry when the guard refuses). */
async function moveWithEntry(tx: Tx, transferId: number, accountId: number, balanceDelta: number, heldDelta: number): Promise<AccountState> {
  const r = await tx.query<AccountRow>(
    `WITH a AS (${GUARDED_UPDATE}),
     e AS (INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after) SELECT $4, id, $2, balance FROM a)
     SELECT id, member_id, balance, held FROM a`,
    [accountId, balanceDelta, heldDelta, transferId],
  );
  const row = r.rows[0];
  if (!row) throw new InsufficientFunds();
  return toState(row);
}

async function announce(tx: Tx, merchant: string, currency: string, state: AccountState, delta: number, reason: string, transferId: number) {
  if (state.memberId === null) return;
  await emitEvent(tx, merchant, userAudience(state.memberId), 'balance.changed', {
    memberId: state.memberId, currency, balance: state.balance, available: state.balance - state.held, delta, reason, transferId: String(transferId),
  });
}

/**
 * Post both legs, each with its entry, in a fixed lock order so concurrent transfers cannot
 * deadlock: member accounts before system accounts, then by account id. A system account is the
 * shared (hot) row, so it is locked last: held only for its own statement and the commit, not
 * while the member's leg is checked and written.
 */
async function postLegs(tx: Tx, t: { id: number; debit: number; credit: number; debitSystem: boolean; creditSystem: boolean; amount: number; fromHold: boolean }) {
  const legs = [
    { account: t.debit, system: t.debitSystem, balance: -t.amount, held: t.fromHold ? -t.amount : 0 },
    { account: t.credit, system: t.creditSystem, balance: t.amount, held: 0 },
  ].sort((a, b) => Number(a.system) - Number(b.system) || a.account - b.account);
  const states = new Map<number, AccountState>();
  for (const leg of legs) states.set(leg.account, await moveWithEntry(tx, t.id, leg.account, leg.balance, leg.held));
  return { debit: states.get(t.debit)!, credit: states.get(t.credit)! };
}

/**
 * One transfer, inside the caller's transaction. The transfer row goes in first: its unique key
 * makes a concurrent duplicate wait for this transaction and then see it as a replay.
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

async function transferOn(tx: Tx, i: TransferInput, shards: number): Promise<TransferResult> {
  if (!Number.isSafeInteger(i.amount) || i.amount <= 0) throw new AppError(ErrorCode.VALIDATION, 'Amount must be a positive whole number of minor units');
  const hash = requestHash(i);
  const [debit, credit] = await resolveBoth(tx, i, shards);
  if (debit === credit) throw new AppError(ErrorCode.VALIDATION, 'Debit and credit accounts must differ');
  const ins = await tx.query<{ id: number; created_at: Date | string }>(
    `INSERT INTO ledger_transfers (merchant_code, idempotency_key, request_hash, kind, debit_account_id, credit_account_id, amount, status, memo)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (merchant_code, idempotency_key) DO NOTHING RETURNING id, created_at`,
    [i.merchant, i.key, hash, i.kind, debit, credit, i.amount, i.pending ? 'pending' : 'posted', JSON.stringify(i.memo ?? {})],
  );
  if (!ins.rows[0]) {
    const prior = await tx.query<TransferRow>('SELECT * FROM ledger_transfers WHERE merchant_code = $1 AND idempotency_key = $2', [i.merchant, i.key]);
    const p = prior.rows[0]!;
    if (p.request_hash !== hash) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
    return { transferId: p.id, status: p.status, amount: p.amount, replayed: true, createdAt: iso(p.created_at) };
  }
  const id = ins.rows[0].id;
  if (i.pending) {
    const held = await move(tx, debit, 0, i.amount);
    await announce(tx, i.merchant, i.currency, held, 0, `${i.kind}.hold`, id);
  } else {
    const { debit: d, credit: c } = await postLegs(tx, { id, debit, credit, debitSystem: 'system' in i.debit, creditSystem: 'system' in i.credit, amount: i.amount, fromHold: false });
    await announce(tx, i.merchant, i.currency, d, -i.amount, i.kind, id);
    await announce(tx, i.merchant, i.currency, c, i.amount, i.kind, id);
  }
  return { transferId: id, status: i.pending ? 'pending' : 'posted', amount: i.amount, replayed: false, createdAt: iso(ins.rows[0].created_at) };
}

/** Resolve a hold exactly once: post moves the reserved funds, void releases them. Repeating the same resolution is a replay. */
export async function resolveHold(tx: Tx, merchant: string, currency: string, holdId: number, outcome: 'post' | 'void'): Promise<TransferResult> {
  const want = outcome === 'post' ? 'posted' : 'voided';
  const r = await tx.query<TransferRow & { debit_system: boolean; credit_system: boolean }>(
    `UPDATE ledger_transfers SET status = $3, resolved_at = now() WHERE id = $1 AND merchant_code = $2 AND status = 'pending'
     RETURNING *, (SELECT member_id IS NULL FROM ledger_accounts WHERE id = debit_account_id) AS debit_system,
               (SELECT member_id IS NULL FROM ledger_accounts WHERE id = credit_account_id) AS credit_system`,
    [holdId, merchant, want],
  );
  const t = r.rows[0];
  if (!t) {
    const cur = await tx.query<TransferRow>('SELECT * FROM ledger_transfers WHERE id = $1 AND merchant_code = $2', [holdId, merchant]);
    const c = cur.rows[0];
    if (!c) throw new AppError(ErrorCode.NOT_FOUND);
    if (c.status === want) return { transferId: c.id, status: c.status, amount: c.amount, replayed: true, createdAt: iso(c.created_at) };
    throw new AppError(ErrorCode.CONFLICT, `Hold already ${c.status}`);
  }
  if (outcome === 'post') {
    const { debit, credit } = await postLegs(tx, {
      id: t.id, debit: t.debit_account_id, credit: t.credit_account_id, debitSystem: t.debit_system, creditSystem: t.credit_system, amount: t.amount, fromHold: true,
    });
    await announce(tx, merchant, currency, debit, -t.amount, t.kind, t.id);
    await announce(tx, merchant, currency, credit, t.amount, t.kind, t.id);
  } else {
    const released = await move(tx, t.debit_account_id, 0, -t.amount);
    await announce(tx, merchant, currency, released, 0, `${t.kind}.void`, t.id);
  }
  return { transferId: t.id, status: want, amount: t.amount, replayed: false, createdAt: iso(t.created_at) };
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
 * member below zero, posted transfers have exactly two entries and pending or voided ones none.
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
  return out;
}
