import { MESSAGE_CATEGORIES, MESSAGE_KINDS, messageCategoryOf, userAudience, type MessageCategory } from '@portal/contracts/events/events';
import type { Queryable, Tx } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';

export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * A player message (deposit credited, withdrawal approved, ...) and its `message.received` event
 * with the new unread count, in the caller's transaction. The title is a translation key
 * (`message_<kind>`) filled by `params`: the server sends no English. Call it after the use case's
 * ledger transfers (lock order: accounts before audience rows).
 */
/** A name written per language (a promotion's or a reward's title) as message params: the client shows the one of its language. */
export function titleParams(title: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (title?.EN) out.title_EN = title.EN;
  if (title?.TY) out.title_TY = title.TY;
  return out;
}

export async function postMessage(tx: Tx, merchant: string, memberId: number, kind: MessageKind, params: Record<string, string | number>) {
  const title = `message_${kind}`;
  const r = await tx.query<{ id: number }>(
    'INSERT INTO messages (merchant_code, member_id, kind, title, params) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [merchant, memberId, kind, title, JSON.stringify(params)],
  );
  const unread = await unreadOf(tx, memberId);
  await emitEvent(tx, merchant, userAudience(memberId), 'message.received', {
    messageId: String(r.rows[0]!.id), kind, title, unreadCount: unread.count, unreadByCategory: unread.byCategory,
  });
  return r.rows[0]!.id;
}

export async function unreadCountOf(q: Queryable, memberId: number): Promise<number> {
  return (await unreadOf(q, memberId)).count;
}

/** SQL: the kinds of one message-centre tab. */
export function kindsOf(category: MessageCategory): MessageKind[] {
  // Every kind (a hand list here left feedback answers and family exclusions out of the System tab).
  return MESSAGE_KINDS.filter((k) => messageCategoryOf(k) === category);
}

/** Unread messages, in all and per message-centre tab (one query on the unread index). */
export async function unreadOf(q: Queryable, memberId: number): Promise<{ count: number; byCategory: Record<MessageCategory, number> }> {
  const r = await q.query<{ kind: MessageKind; n: number }>(
    'SELECT kind, count(*)::int AS n FROM messages WHERE member_id = $1 AND read_at IS NULL GROUP BY kind', [memberId]);
  const byCategory = Object.fromEntries(MESSAGE_CATEGORIES.map((c) => [c, 0])) as Record<MessageCategory, number>;
  let count = 0;
  for (const row of r.rows) {
    byCategory[messageCategoryOf(row.kind)] += row.n;
    count += row.n;
  }
  return { count, byCategory };
}
