import { CHAT_LIMITS, type ChatStatus, type TChat, type TChatDesk, type TChatMessage, type TOpsChat, type TOpsChatMessage } from '@portal/contracts/api/chat';
import { OPS_PERMISSIONS } from '@portal/contracts/api/ops';
import { opsAudience, userAudience, type EventPayload } from '@portal/contracts/events/events';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { emitEvents } from '../../bus/outbox.ts';
import { audit, type Operator } from '../ops/operators.ts';
import { iso } from '../../db/iso.ts';

type ChatRow = {
  id: number | string; merchant_code: string; member_id: number | string; status: ChatStatus; operator_id: number | string | null;
  last_message_at: Date | string | null; unread_member: number; unread_ops: number;
};
type OpsChatRow = ChatRow & {
  account: string; operator: string | null; last_body: string | null; last_sender: 'member' | 'operator' | null; total?: number;
};
type MessageRow = { id: number | string; sender: 'member' | 'operator'; body: string; created_at: Date | string; operator?: string | null };

/** The desk's hours: every merchant's desk is staffed around the clock in this build. */
const DESK_HOURS = '24/7';
const PREVIEW_CHARS = 120;

const toChat = (r: ChatRow): TChat => ({ chatId: String(r.id), status: r.status, unread: r.unread_member, lastMessageAt: iso(r.last_message_at) });
const toMessage = (r: MessageRow): TChatMessage => ({ id: String(r.id), sender: r.sender, body: r.body, at: iso(r.created_at)! });
const toOpsMessage = (r: MessageRow): TOpsChatMessage => ({ ...toMessage(r), operator: r.operator ?? null });
const toOpsChat = (r: OpsChatRow): TOpsChat => ({
  id: String(r.id), memberId: Number(r.member_id), account: r.account, status: r.status, operator: r.operator,
  unreadOps: r.unread_ops, unreadMember: r.unread_member, lastMessageAt: iso(r.last_message_at),
  lastBody: r.last_body === null ? null : [...r.last_body].slice(0, PREVIEW_CHARS).join(''), lastSender: r.last_sender,
});

const OPS_SELECT = `SELECT c.*, m.account, o.username AS operator, lm.body AS last_body, lm.sender AS last_sender
  FROM chats c JOIN members m ON m.id = c.member_id LEFT JOIN operators o ON o.id = c.operator_id
  LEFT JOIN LATERAL (SELECT body, sender FROM chat_messages WHERE chat_id = c.id ORDER BY id DESC LIMIT 1) lm ON true`;

type ChatChangeReason = EventPayload<'chat.changed'>['reason'];

/**
 * The events of one change, in the caller's transaction (announced if and only if it commits): the
 * member's own (`chat.posted` with the message, or `chat.updated`) and the operators' `chat.changed`.
 */
async function announce(tx: Tx, row: ChatRow, reason: ChatChangeReason, opts: { message?: TChatMessage; toMember: boolean }) {
  const memberId = Number(row.member_id);
  const state = toChat(row);
  const events: Parameters<typeof emitEvents>[2][number][] = [];
  if (opts.message) events.push({ audience: userAudience(memberId), type: 'chat.posted', payload: { ...state, message: opts.message } });
  else if (opts.toMember) events.push({ audience: userAudience(memberId), type: 'chat.updated', payload: state });
  events.push({
    audience: opsAudience(row.merchant_code), type: 'chat.changed',
    payload: { chatId: state.chatId, memberId, status: row.status, unreadOps: row.unread_ops, unreadMember: row.unread_member, lastMessageAt: state.lastMessageAt, reason },
  });
  await emitEvents(tx, row.merchant_code, events);
}

async function messagesBefore(q: Queryable, chatId: number | string, beforeId: number | null, limit: number) {
  const r = await q.query<MessageRow>(
    `SELECT cm.id, cm.sender, cm.body, cm.created_at, o.username AS operator FROM chat_messages cm LEFT JOIN operators o ON o.id = cm.operator_id
      WHERE cm.chat_id = $1 AND ($2::bigint IS NULL OR cm.id < $2) ORDER BY cm.id DESC LIMIT $3`,
    [chatId, beforeId, limit + 1]);
  const hasMore = r.rows.length > limit;
  return { rows: r.rows.slice(0, limit).reverse(), hasMore };
}

/** Live chat between a merchant's players and its operators (api/chat.ts). */
export function createChat(db: Db) {
  /** The member's chat row, made on first use (one per member). */
  async function chatOf(q: Queryable, merchant: string, memberId: number, lock: boolean): Promise<ChatRow> {
    await q.query('INSERT INTO chats (merchant_code, member_id) VALUES ($1, $2) ON CONFLICT (member_id) DO NOTHING', [merchant, memberId]);
    const r = await q.query<ChatRow>(`SELECT * FROM chats WHERE member_id = $1 AND merchant_code = $2${lock ? ' FOR UPDATE' : ''}`, [memberId, merchant]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    return r.rows[0];
  }

  async function isOnline(merchant: string): Promise<boolean> {
    const r = await db.query<{ online: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
         WHERE o.merchant_code = $1 AND o.status = 'active' AND o.roles && $2::text[] AND s.revoked_at IS NULL
           AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(secs => $3)) AS online`,
      [merchant, [...OPS_PERMISSIONS['chat.answer']], CHAT_LIMITS.onlineWindowMs / 1000]);
    return r.rows[0]?.online === true;
  }

  async function desk(merchant: string, memberId: number): Promise<TChatDesk> {
    const [online, unread] = await Promise.all([
      isOnline(merchant),
      db.query<{ unread_member: number }>('SELECT unread_member FROM chats WHERE member_id = $1 AND merchant_code = $2', [memberId, merchant]),
    ]);
    return { deskId: 'support', online, hours: DESK_HOURS, unread: unread.rows[0]?.unread_member ?? 0 };
  }

  /** An operator's chat of its merchant, locked; another merchant's is NOT_FOUND. */
  async function opsChat(tx: Tx, op: Operator, id: number): Promise<ChatRow> {
    const r = await tx.query<ChatRow>('SELECT * FROM chats WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, op.merchantCode]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    return r.rows[0];
  }
  async function opsView(q: Queryable, id: number | string): Promise<TOpsChat> {
    return toOpsChat((await q.query<OpsChatRow>(`${OPS_SELECT} WHERE c.id = $1`, [id])).rows[0]!);
  }

  return {
    desks: async (merchant: string, memberId: number) => ({ list: [await desk(merchant, memberId)] }),

    async launch(merchant: string, memberId: number) {
      const row = await chatOf(db, merchant, memberId, false);
      const [page, d] = await Promise.all([messagesBefore(db, row.id, null, CHAT_LIMITS.pageSize), desk(merchant, memberId)]);
      return { chat: toChat(row), desk: d, messages: page.rows.map(toMessage), hasMore: page.hasMore };
    },

    /**
     * The player's message: at most 10 in 10 s (the chat row is locked, so concurrent sends count
     * each other); a closed chat opens again. Row, counters and events in one transaction.
     */
    async send(merchant: string, memberId: number, body: string) {
      return db.tx(async (tx) => {
        const cur = await chatOf(tx, merchant, memberId, true);
        const recent = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM chat_messages WHERE chat_id = $1 AND sender = 'member' AND created_at > now() - make_interval(secs => $2)`,
          [cur.id, CHAT_LIMITS.rateWindowMs / 1000]);
        if ((recent.rows[0]?.n ?? 0) >= CHAT_LIMITS.ratePerWindow) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'Too many messages, wait a few seconds');
        const m = await tx.query<MessageRow>(
          `INSERT INTO chat_messages (chat_id, sender, body) VALUES ($1, 'member', $2) RETURNING id, sender, body, created_at`, [cur.id, body]);
        const row = (await tx.query<ChatRow>(
          `UPDATE chats SET status = 'open', closed_at = NULL, unread_ops = unread_ops + 1, last_message_at = $2 WHERE id = $1 RETURNING *`,
          [cur.id, m.rows[0]!.created_at])).rows[0]!;
        const message = toMessage(m.rows[0]!);
        await announce(tx, row, 'member_message', { message, toMember: true });
        return { chat: toChat(row), message };
      });
    },

    async history(merchant: string, memberId: number, beforeId: number | null, limit: number) {
      const chat = await db.query<{ id: string }>('SELECT id FROM chats WHERE member_id = $1 AND merchant_code = $2', [memberId, merchant]);
      if (!chat.rows[0]) return { list: [], hasMore: false };
      const page = await messagesBefore(db, chat.rows[0].id, beforeId, limit);
      return { list: page.rows.map(toMessage), hasMore: page.hasMore };
    },

    /** The player read customer service's messages: announced only when something was unread. */
    async read(merchant: string, memberId: number): Promise<TChat> {
      return db.tx(async (tx) => {
        const cur = await chatOf(tx, merchant, memberId, true);
        if (cur.unread_member === 0) return toChat(cur);
        const row = (await tx.query<ChatRow>('UPDATE chats SET unread_member = 0 WHERE id = $1 RETURNING *', [cur.id])).rows[0]!;
        await announce(tx, row, 'member_read', { toMember: true });
        return toChat(row);
      });
    },

    // ---- operators ----

    async opsList(merchant: string, q: { pageNo: number; pageSize: number; status?: ChatStatus | undefined }) {
      const r = await db.query<OpsChatRow>(
        `${OPS_SELECT.replace('SELECT c.*', 'SELECT c.*, count(*) OVER ()::int AS total')}
          WHERE c.merchant_code = $1 AND c.last_message_at IS NOT NULL AND ($2::text IS NULL OR c.status = $2)
          ORDER BY (c.status = 'open') DESC, (c.unread_ops > 0) DESC, c.last_message_at DESC, c.id DESC LIMIT $3 OFFSET $4`,
        [merchant, q.status ?? null, q.pageSize, (q.pageNo - 1) * q.pageSize]);
      const total = r.rows[0]?.total ?? (q.pageNo > 1
        ? (await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM chats WHERE merchant_code = $1 AND last_message_at IS NOT NULL AND ($2::text IS NULL OR status = $2)',
          [merchant, q.status ?? null])).rows[0]!.n
        : 0);
      return { list: r.rows.map(toOpsChat), pageNo: q.pageNo, pageSize: q.pageSize, total };
    },

    async opsThread(merchant: string, id: number, beforeId: number | null) {
      const chat = await db.query<OpsChatRow>(`${OPS_SELECT} WHERE c.id = $1 AND c.merchant_code = $2`, [id, merchant]);
      if (!chat.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
      const page = await messagesBefore(db, id, beforeId, CHAT_LIMITS.pageSize);
      return { chat: toOpsChat(chat.rows[0]), list: page.rows.map(toOpsMessage), hasMore: page.hasMore };
    },

    /** An operator's reply: the first to answer takes the chat; a closed chat is INVALID_STATE. */
    async reply(op: Operator, id: number, body: string) {
      return db.tx(async (tx) => {
        const cur = await opsChat(tx, op, id);
        if (cur.status !== 'open') throw new AppError(ErrorCode.INVALID_STATE, 'This chat is closed');
        const m = await tx.query<MessageRow>(
          `INSERT INTO chat_messages (chat_id, sender, operator_id, body) VALUES ($1, 'operator', $2, $3) RETURNING id, sender, body, created_at`,
          [id, op.id, body]);
        const row = (await tx.query<ChatRow>(
          `UPDATE chats SET operator_id = COALESCE(operator_id, $2), unread_member = unread_member + 1, unread_ops = 0, last_message_at = $3
            WHERE id = $1 RETURNING *`, [id, op.id, m.rows[0]!.created_at])).rows[0]!;
        const message = toMessage(m.rows[0]!);
        await announce(tx, row, 'operator_message', { message, toMember: true });
        return { chat: await opsView(tx, id), message: { ...message, operator: op.username } };
      });
    },

    async opsRead(op: Operator, id: number): Promise<TOpsChat> {
      return db.tx(async (tx) => {
        const cur = await opsChat(tx, op, id);
        if (cur.unread_ops > 0) {
          const row = (await tx.query<ChatRow>('UPDATE chats SET unread_ops = 0 WHERE id = $1 RETURNING *', [id])).rows[0]!;
          await announce(tx, row, 'operator_read', { toMember: false });
        }
        return opsView(tx, id);
      });
    },

    /** Closed (audited); the player is told, and writing again opens it. */
    async close(op: Operator, id: number): Promise<TOpsChat> {
      return db.tx(async (tx) => {
        const cur = await opsChat(tx, op, id);
        if (cur.status !== 'open') throw new AppError(ErrorCode.INVALID_STATE, 'This chat is already closed');
        const row = (await tx.query<ChatRow>(`UPDATE chats SET status = 'closed', closed_at = now(), unread_ops = 0 WHERE id = $1 RETURNING *`, [id])).rows[0]!;
        await audit(tx, op, 'chat.close', { type: 'chat', id }, { status: 'open' }, { status: 'closed' });
        await announce(tx, row, 'closed', { toMember: true });
        return opsView(tx, id);
      });
    },
  };
}
export type Chat = ReturnType<typeof createChat>;
