import type { Express } from 'express';
import { walletCalls, type TMessage } from '@portal/contracts/api/wallet';
import { isTrialType } from '@portal/contracts/domain/member';
import type { Db } from '../../db/db.ts';
import { mountCall, type RequestContext } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { balanceOf } from './ledger.ts';
import { kindsOf, unreadOf, type MessageKind } from './messages.ts';
import { listRecords, recordsRange } from './records.ts';
import type { createTransfers } from './transfers.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { userAudience } from '@portal/contracts/events/events';

/** The member behind a call that moves money: trial (demo) accounts have no wallet to move. */
export function realMember(ctx: RequestContext) {
  const s = ctx.session!;
  if (isTrialType(s.memberType, ctx.merchant.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
  return s;
}

type MessageRow = {
  id: number; kind: MessageKind; title: string; params: Record<string, string | number>; texts: TMessage['texts'];
  read_at: Date | string | null; created_at: Date | string; total: number;
};

export function mountWalletRoutes(app: Express, deps: { db: Db; transfers: ReturnType<typeof createTransfers> }, opts: { checkResponses: boolean }) {
  const { db, transfers } = deps;

  mountCall(app, walletCalls.balance, async ({ ctx }) => {
    const b = await balanceOf(db, ctx.session!.memberId, ctx.merchant.currency);
    return { currency: ctx.merchant.currency, currencySymbol: ctx.merchant.brand.currencySymbol, balance: b.balance, available: b.available, held: b.held };
  }, opts);

  mountCall(app, walletCalls.merchantWallet, async () => ({ isSingle: 1 as const }), opts);

  mountCall(app, walletCalls.records, async ({ ctx, query }) => {
    if (!ctx.merchant.modules.TRANSREC3) throw new AppError(ErrorCode.MODULE_DISABLED);
    const range = recordsRange(query, ctx.merchant.brand.gmtOffsetMinutes);
    return listRecords(db, ctx.session!.memberId, ctx.merchant.currency, range, query.pageNo, query.pageSize);
  }, opts);

  mountCall(app, walletCalls.transfer, async ({ ctx, body }) => {
    const s = realMember(ctx);
    return transfers.send(ctx.merchant, { memberId: s.memberId, memberType: s.memberType }, body);
  }, opts);
  mountCall(app, walletCalls.transfers, async ({ ctx, query }) => transfers.list(ctx.session!.memberId, query.pageNo, query.pageSize), opts);

  mountCall(app, walletCalls.unreadCount, async ({ ctx }) => unreadOf(db, ctx.session!.memberId), opts);

  mountCall(app, walletCalls.messages, async ({ ctx, query }) => {
    const memberId = ctx.session!.memberId;
    const kinds = query.category ? kindsOf(query.category) : null;
    const r = await db.query<MessageRow>(
      `SELECT id, kind, title, params, texts, read_at, created_at, count(*) OVER ()::int AS total FROM messages
       WHERE member_id = $1 AND ($4::text[] IS NULL OR kind = ANY($4::text[]))
       ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [memberId, query.pageSize, (query.pageNo - 1) * query.pageSize, kinds],
    );
    const total = r.rows[0]?.total ?? (await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messages WHERE member_id = $1 AND ($2::text[] IS NULL OR kind = ANY($2::text[]))', [memberId, kinds])).rows[0]!.n;
    const unread = await unreadOf(db, memberId);
    return {
      list: r.rows.map((m): TMessage => ({
        id: String(m.id), kind: m.kind, title: m.title, params: m.params ?? {}, read: m.read_at !== null,
        createdAt: (m.created_at instanceof Date ? m.created_at : new Date(m.created_at)).toISOString(),
        texts: m.texts ?? null,
      })),
      pageNo: query.pageNo, pageSize: query.pageSize, total, unreadCount: unread.count, byCategory: unread.byCategory,
    };
  }, opts);

  mountCall(app, walletCalls.markRead, async ({ ctx, body }) => {
    const memberId = ctx.session!.memberId;
    return db.tx(async (tx) => {
      const r = body.all
        ? await tx.query('UPDATE messages SET read_at = now() WHERE member_id = $1 AND read_at IS NULL AND ($2::text[] IS NULL OR kind = ANY($2::text[]))',
          [memberId, body.category ? kindsOf(body.category) : null])
        : await tx.query('UPDATE messages SET read_at = now() WHERE member_id = $1 AND read_at IS NULL AND id = ANY($2::bigint[])', [memberId, body.ids!.map(Number)]);
      const unread = await unreadOf(tx, memberId);
      // The member's other pages (another tab, the phone) show the new counts too; nothing read, nothing said.
      if ((r.rowCount ?? 0) > 0) {
        await emitEvent(tx, ctx.merchant.code, userAudience(memberId), 'message.read', { unreadCount: unread.count, unreadByCategory: unread.byCategory });
      }
      return unread;
    });
  }, opts);
}
