import { WITHDRAWAL_HOLD_PENDING, WITHDRAWAL_HOLD_POSTED } from '@portal/contracts/api/cashier';
import type { Queryable } from '../../db/db.ts';
import type { Violation } from '../wallet/ledger.ts';

/**
 * Cashier invariants over the whole database, beside checkLedger(): each withdrawal's hold matches
 * its status (pending while requested/approved/held, posted once paid or confirmed, voided when
 * rejected) and amount; confirmations carry consistent received amounts and proofs; each paid
 * deposit has exactly its posted credit and no other deposit has one.
 */
export async function checkCashier(q: Queryable): Promise<Violation[]> {
  const out: Violation[] = [];
  const holds = await q.query<{ id: number; status: string; hold_status: string; amount: number; hold_amount: number; member_ok: boolean }>(
    `SELECT w.id, w.status, t.status AS hold_status, w.amount, t.amount AS hold_amount,
            (a.member_id = w.member_id) AS member_ok
     FROM withdrawals w JOIN ledger_transfers t ON t.id = w.hold_id JOIN ledger_accounts a ON a.id = t.debit_account_id`,
  );
  for (const w of holds.rows) {
    const want = WITHDRAWAL_HOLD_PENDING.includes(w.status as never) ? 'pending' : WITHDRAWAL_HOLD_POSTED.includes(w.status as never) ? 'posted' : w.status === 'rejected' ? 'voided' : 'unknown';
    if (w.hold_status !== want) out.push({ rule: 'withdrawal hold matches status', detail: `withdrawal ${w.id}: ${w.status} with hold ${w.hold_status}` });
    if (w.amount !== w.hold_amount || !w.member_ok) out.push({ rule: 'withdrawal hold is its own', detail: `withdrawal ${w.id}: amount ${w.amount}, hold ${w.hold_amount}` });
  }
  const confirmations = await q.query<{ id: number; status: string; amount: number; received_amount: number | null; proofs: number }>(
    `SELECT w.id, w.status, w.amount, w.received_amount, (SELECT count(*)::int FROM withdrawal_proofs p WHERE p.withdrawal_id = w.id) AS proofs
     FROM withdrawals w WHERE w.status IN ('received', 'auto_received', 'partially_received', 'not_received')
        OR w.received_amount IS NOT NULL`,
  );
  for (const w of confirmations.rows) {
    const ok =
      (w.status === 'received' || w.status === 'auto_received') ? w.received_amount === w.amount
      : w.status === 'partially_received' ? w.received_amount !== null && w.received_amount > 0 && w.received_amount < w.amount && w.proofs > 0
      : w.status === 'not_received' ? w.received_amount === 0 && w.proofs > 0
      : false;
    if (!ok) out.push({ rule: 'withdrawal confirmation', detail: `withdrawal ${w.id}: ${w.status}, received ${w.received_amount} of ${w.amount}, ${w.proofs} proofs` });
  }
  const deposits = await q.query<{ id: number; status: string; detail: string }>(
    `SELECT d.id, d.status, coalesce(t.status, 'none') || ' ' || coalesce(t.amount::text, '-') AS detail FROM deposits d
     LEFT JOIN ledger_transfers t ON t.id = d.transfer_id
     WHERE (d.status = 'paid' AND (t.id IS NULL OR t.status <> 'posted' OR t.amount <> d.amount OR t.kind <> 'deposit'))
        OR (d.status <> 'paid' AND d.transfer_id IS NOT NULL)`,
  );
  for (const d of deposits.rows) out.push({ rule: 'deposit credit matches status', detail: `deposit ${d.id}: ${d.status}, transfer ${d.detail}` });
  const credits = await q.query<{ key: string; n: number }>(
    `SELECT t.idempotency_key AS key, count(d.id)::int AS n FROM ledger_transfers t LEFT JOIN deposits d ON d.transfer_id = t.id
     WHERE t.kind = 'deposit' AND t.idempotency_key LIKE 'deposit:%' GROUP BY t.id HAVING count(d.id) <> 1`,
  );
  for (const c of credits.rows) out.push({ rule: 'one credit per deposit', detail: `${c.key}: ${c.n} deposits` });
  return out;
}
