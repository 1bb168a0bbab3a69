import { userAudience, type MESSAGE_KINDS } from '@portal/contracts/events/events';
import type { Queryable, Tx } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';

export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * A player message (deposit credited, withdrawal approved, ...) and its `message.received` event
 * with the new unread count, in the caller's transaction. The title is a translation key
 * (`message_<kind>`) filled by `params`: the server sends no English. Call it after the use case's
 * ledger transfers (lock order: accounts before audience rows).
 */
export async function postMessage(tx: Tx, merchant: string, memberId: number, kind: MessageKind, params: Record<string, string | number>) {
  const title = `message_${kind}`;
  const r = await tx.query<{ id: number }>(
    'INSERT INTO messages (merchant_code, member_id, kind, title, params) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [merchant, memberId, kind, title, JSON.stringify(params)],
  );
  const unreadCount = await unreadCountOf(tx, memberId);
  await emitEvent(tx, merchant, userAudience(memberId), 'message.received', { messageId: String(r.rows[0]!.id), kind, title, unreadCount });
  return r.rows[0]!.id;
}

export async function unreadCountOf(q: Queryable, memberId: number): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE member_id = $1 AND read_at IS NULL', [memberId]);
  return r.rows[0]?.n ?? 0;
}
