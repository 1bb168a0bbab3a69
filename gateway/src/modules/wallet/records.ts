import { RECORDS_DEFAULT_RANGE_DAYS, RECORDS_MAX_RANGE_DAYS, recordKindOf, type TRecord } from '@portal/contracts/api/wallet';
import type { Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';

export const DAY_MS = 86_400_000;

/**
 * The effective [from, to) of a records query. A bare date is a whole day in the merchant's zone
 * (`to` inclusive); the default is the past 7 days; a range wider than 90 days is narrowed to the
 * 90 days before `to`.
 */
export function recordsRange(q: { from?: string | undefined; to?: string | undefined }, offsetMinutes: number, now = new Date()) {
  const parse = (s: string, endOfDay: boolean) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
      const day = Date.parse(`${s}T00:00:00Z`);
      // A day that does not exist (2026-02-30) is refused, not rolled over into the next month.
      if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== s) return new Date(NaN);
      return new Date(day - offsetMinutes * 60_000 + (endOfDay ? DAY_MS : 0));
    }
    return new Date(s.replace(' ', 'T'));
  };
  const to = q.to ? parse(q.to, true) : now;
  let from = q.from ? parse(q.from, false) : new Date(to.getTime() - RECORDS_DEFAULT_RANGE_DAYS * DAY_MS);
  if (Number.isNaN(to.getTime()) || Number.isNaN(from.getTime())) throw new AppError(ErrorCode.VALIDATION, 'Invalid date');
  if (from > to) throw new AppError(ErrorCode.VALIDATION, 'from is after to', [{ path: 'from', message: 'after to' }]);
  if (to.getTime() - from.getTime() > RECORDS_MAX_RANGE_DAYS * DAY_MS) from = new Date(to.getTime() - RECORDS_MAX_RANGE_DAYS * DAY_MS);
  return { from, to };
}

type RecordRow = {
  id: number; kind: string; status: 'posted' | 'pending' | 'voided'; amount: number; entry_amount: number | null; balance_after: number | null;
  is_debit: boolean; time: Date | string; reference: string;
};

/**
 * A ledger transfer's reference as a member's records show it, in SQL over `t` (ledger_transfers), `w`
 * (withdrawals on its hold) and `mt` (member_transfers): the withdrawal, the member transfer, the game's
 * round, the memo's reference, the contract and period, else the transfer's id. The agent's account
 * details show the same.
 */
export const LEDGER_REFERENCE_SQL = `COALESCE('W' || w.id, 'T' || mt.id, t.memo->>'round', t.memo->>'ref',
                       'C' || (t.memo->>'contractId') || ' ' || (t.memo->>'periodKey'), 'L' || t.id)`;

/**
 * The account record: every ledger transfer touching the member's account, newest first, with
 * the signed amount and the balance after it (holds show with no balance change). Its reference is the
 * withdrawal or transfer number, a game's round (as the betting record names it: a bet, its win and a
 * refund of it share one; the vendor's transaction ids meant nothing to a player), an agent's payout's
 * contract and period ('C12 2026-12-06'), else the memo's.
 */
export async function listRecords(q: Queryable, memberId: number, currency: string, range: { from: Date; to: Date }, pageNo: number, pageSize: number) {
  const acc = await q.query<{ id: number }>('SELECT id FROM ledger_accounts WHERE member_id = $1 AND currency = $2', [memberId, currency]);
  const accountId = acc.rows[0]?.id;
  const empty = { list: [] as TRecord[], pageNo, pageSize, total: 0, from: range.from.toISOString(), to: range.to.toISOString() };
  if (!accountId) return empty;
  const r = await q.query<RecordRow>(
    `SELECT * FROM (
       SELECT t.id, t.kind, t.status, t.amount, e.amount AS entry_amount, e.balance_after, t.debit_account_id = $1 AS is_debit,
              COALESCE(e.created_at, t.created_at) AS time,
              ${LEDGER_REFERENCE_SQL} AS reference
       FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id AND e.account_id = $1
       LEFT JOIN withdrawals w ON w.hold_id = t.id
       LEFT JOIN member_transfers mt ON mt.transfer_id = t.id
       WHERE t.debit_account_id = $1 OR t.credit_account_id = $1
     ) x
     WHERE x.time >= $2 AND x.time < $3
     ORDER BY x.time DESC, x.id DESC LIMIT $4 OFFSET $5`,
    [accountId, range.from.toISOString(), range.to.toISOString(), pageSize, (pageNo - 1) * pageSize],
  );
  const total = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id AND e.account_id = $1
     WHERE (t.debit_account_id = $1 OR t.credit_account_id = $1) AND COALESCE(e.created_at, t.created_at) >= $2 AND COALESCE(e.created_at, t.created_at) < $3`,
    [accountId, range.from.toISOString(), range.to.toISOString()],
  );
  return {
    ...empty,
    total: total.rows[0]!.n,
    list: r.rows.map((x): TRecord => ({
      id: String(x.id),
      time: (x.time instanceof Date ? x.time : new Date(x.time)).toISOString(),
      kind: recordKindOf(x.kind),
      amount: x.entry_amount ?? (x.is_debit ? -x.amount : x.amount),
      balanceAfter: x.balance_after,
      status: x.status,
      reference: x.reference,
    })),
  };
}
