import type { Express } from 'express';
import { profitCalls, type TProfitRow, type TProfitValue } from '@portal/contracts/api/profit';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { realMember } from '../wallet/wallet-routes.ts';

const DAY_MS = 86_400_000;
const MAX_DAYS = 90;

/**
 * The [from, to) of a personal-profit period on the merchant's calendar: today, the past 7 or 30 days
 * (today included), or a custom range of whole days (both inclusive, at most 90).
 */
export function profitRange(q: { period: TProfitValue['period']; from?: string | undefined; to?: string | undefined }, offsetMinutes: number, now = Date.now()) {
  const offset = offsetMinutes * 60_000;
  const todayStart = Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
  const day = (s: string) => {
    const t = Date.parse(`${s}T00:00:00Z`);
    if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== s) throw new AppError(ErrorCode.VALIDATION, 'Invalid date', [{ path: 'from', message: 'not a date' }]);
    return t - offset;
  };
  if (q.period === 'custom') {
    const from = day(q.from!);
    const to = day(q.to!) + DAY_MS;
    if (from >= to) throw new AppError(ErrorCode.VALIDATION, 'from is after to', [{ path: 'from', message: 'after to' }]);
    if (to - from > MAX_DAYS * DAY_MS) throw new AppError(ErrorCode.VALIDATION, `At most ${MAX_DAYS} days`, [{ path: 'from', message: `at most ${MAX_DAYS} days` }]);
    return { from: new Date(from), to: new Date(to) };
  }
  const days = q.period === 'today' ? 1 : q.period === '7d' ? 7 : 30;
  return { from: new Date(todayStart - (days - 1) * DAY_MS), to: new Date(todayStart + DAY_MS) };
}

type Row = { game_type: string | null; bet_count: number; valid_bets: string | number; payout: string | number };

/**
 * The member's own result per game type: the wallet's accepted bets (rolled-back ones out) and paid
 * wins, each in the period it was recorded, exactly as the per-hour rollup member_bet_hours counts
 * them (bets, rollbacks taken out of their bet's hour, wins in the hour paid). The rollup has no game
 * type, so the rows come from vendor_transactions (index on member and time) joined to the catalogue.
 */
export async function personalProfit(db: Db, merchant: string, memberId: number, range: { from: Date; to: Date }) {
  const r = await db.query<Row>(
    `SELECT g.game_type,
            count(*) FILTER (WHERE t.kind = 'bet')::int AS bet_count,
            coalesce(sum(t.amount) FILTER (WHERE t.kind = 'bet'), 0)::bigint AS valid_bets,
            coalesce(sum(t.amount) FILTER (WHERE t.kind = 'win'), 0)::bigint AS payout
       FROM vendor_transactions t
       LEFT JOIN LATERAL (SELECT game_type FROM games WHERE merchant_code = t.merchant_code AND vassalage = t.vendor AND game_code = t.game_code LIMIT 1) g ON true
      WHERE t.member_id = $1 AND t.merchant_code = $2 AND t.created_at >= $3 AND t.created_at < $4
        AND t.status = 'applied' AND t.kind IN ('bet', 'win')
      GROUP BY g.game_type
      ORDER BY g.game_type NULLS LAST`,
    [memberId, merchant, range.from.toISOString(), range.to.toISOString()],
  );
  const rows: TProfitRow[] = r.rows.map((x) => {
    const validBets = Number(x.valid_bets);
    const payout = Number(x.payout);
    return { gameType: x.game_type, betCount: x.bet_count, validBets, payout, profit: payout - validBets };
  });
  const totals = rows.reduce((a, x) => ({ betCount: a.betCount + x.betCount, validBets: a.validBets + x.validBets, payout: a.payout + x.payout, profit: a.profit + x.profit }),
    { betCount: 0, validBets: 0, payout: 0, profit: 0 });
  return { rows, totals };
}

/** GET /wps/v2/profit (member-centre personalProfit). */
export function mountProfitRoutes(app: Express, db: Db, opts: { checkResponses: boolean }) {
  mountCall(app, profitCalls.personal, async ({ ctx, query }) => {
    const s = realMember(ctx);
    const range = profitRange(query, ctx.merchant.brand.gmtOffsetMinutes);
    const { rows, totals } = await personalProfit(db, ctx.merchant.code, s.memberId, range);
    return { period: query.period, from: range.from.toISOString(), to: range.to.toISOString(), rows, totals };
  }, opts);
}
