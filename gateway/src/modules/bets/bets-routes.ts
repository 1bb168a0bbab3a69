import type { Express } from 'express';
import { betsCalls, type TBet } from '@portal/contracts/api/bets';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { recordsRange } from '../wallet/records.ts';

type Row = {
  vendor: string; round_id: string; game_code: string | null; game_name: string | null; game_type: string | null;
  stake: number; win: number | null; rolled_back: boolean; has_win: boolean; time: Date | string;
  total: number; total_stake: number | null; total_win: number | null;
};

/**
 * The member's rounds in a range, newest first: the vendor wallet's bet and win rows grouped by
 * round (a round belongs to the range of its bet). Refused bets moved no money and are left out.
 */
export async function listBets(db: Db, merchantCode: string, memberId: number, range: { from: Date; to: Date }, q: { pageNo: number; pageSize: number; vendor?: string | undefined }) {
  const r = await db.query<Row>(
    `WITH rounds AS (
       SELECT vendor, round_id, min(created_at) AS time, max(game_code) AS game_code,
              coalesce(sum(amount) FILTER (WHERE kind = 'bet' AND status IN ('applied', 'rolled_back')), 0) AS stake,
              sum(amount) FILTER (WHERE kind = 'win' AND status = 'applied') AS win,
              bool_or(kind = 'bet' AND status = 'rolled_back') AS rolled_back,
              bool_or(kind = 'win' AND status = 'applied') AS has_win
       FROM vendor_transactions
       WHERE member_id = $1 AND merchant_code = $2 AND created_at >= $3::timestamptz - interval '1 day' AND created_at < $4::timestamptz + interval '1 day'
         AND ($5::text IS NULL OR vendor = $5)
       GROUP BY vendor, round_id
       HAVING min(created_at) >= $3 AND min(created_at) < $4
          AND coalesce(sum(amount) FILTER (WHERE kind = 'bet' AND status IN ('applied', 'rolled_back')), 0) > 0
     )
     SELECT r.vendor, r.round_id, r.game_code, g.game_name, g.game_type, r.stake::bigint AS stake, r.win::bigint AS win, r.rolled_back, r.has_win, r.time,
            count(*) OVER ()::int AS total,
            (sum(r.stake) FILTER (WHERE NOT r.rolled_back) OVER ())::bigint AS total_stake,
            (sum(coalesce(r.win, 0)) FILTER (WHERE NOT r.rolled_back) OVER ())::bigint AS total_win
     FROM rounds r
     LEFT JOIN LATERAL (SELECT game_name, game_type FROM games WHERE merchant_code = $2 AND vassalage = r.vendor AND game_code = r.game_code LIMIT 1) g ON true
     ORDER BY r.time DESC, r.round_id DESC LIMIT $6 OFFSET $7`,
    [memberId, merchantCode, range.from.toISOString(), range.to.toISOString(), q.vendor ?? null, q.pageSize, (q.pageNo - 1) * q.pageSize],
  );
  const first = r.rows[0];
  let total = first?.total ?? 0;
  let totalStake = Number(first?.total_stake ?? 0);
  let totalWin = Number(first?.total_win ?? 0);
  if (!first && q.pageNo > 1) {
    // Past the last page: the totals still describe the range.
    const all = await listBets(db, merchantCode, memberId, range, { ...q, pageNo: 1, pageSize: 1 });
    ({ total, totalStake, totalWin } = all);
  }
  return {
    list: r.rows.map((b): TBet => ({
      roundId: b.round_id, vendor: b.vendor, gameCode: b.game_code, gameName: b.game_name, gameType: b.game_type,
      stake: Number(b.stake), win: Number(b.win ?? 0), time: new Date(b.time).toISOString(),
      status: b.rolled_back ? 'rolled_back' : b.has_win ? 'settled' : 'open',
    })),
    pageNo: q.pageNo, pageSize: q.pageSize, total, totalStake, totalWin, from: range.from.toISOString(), to: range.to.toISOString(),
  };
}

/** GET /wps/v2/bets (token Y, module TRANSBETREPMEM3). */
export function mountBetRoutes(app: Express, db: Db, opts: { checkResponses: boolean }) {
  mountCall(app, betsCalls.list, async ({ ctx, query }) => {
    if (!ctx.merchant.modules.TRANSBETREPMEM3) throw new AppError(ErrorCode.MODULE_DISABLED);
    const range = recordsRange(query, ctx.merchant.brand.gmtOffsetMinutes);
    return listBets(db, ctx.merchant.code, ctx.session!.memberId, range, query);
  }, opts);
}
