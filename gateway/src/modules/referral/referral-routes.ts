import { randomInt } from 'node:crypto';
import type { Express } from 'express';
import { referralCalls, type TReferralInvitee } from '@portal/contracts/api/referral';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { linkOrigin } from '../merchants/link-origin.ts';
import { realMember } from '../wallet/wallet-routes.ts';

/** Letters and digits that cannot be misread (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const newReferralCode = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** An account shown to its referrer: first and last characters only. */
export const maskAccount = (a: string) => (a.length <= 2 ? `${a[0] ?? ''}*` : `${a[0]}${'*'.repeat(Math.min(6, a.length - 2))}${a[a.length - 1]}`);

/** The member's referral code, made on first use (unique per merchant; a clash draws again). */
export async function referralCodeOf(db: Db, merchant: string, memberId: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const cur = await db.query<{ referral_code: string | null }>('SELECT referral_code FROM members WHERE id = $1 AND merchant_code = $2', [memberId, merchant]);
    if (cur.rows[0]?.referral_code) return cur.rows[0].referral_code;
    try {
      await db.query('UPDATE members SET referral_code = $2 WHERE id = $1 AND referral_code IS NULL', [memberId, newReferralCode()]);
    } catch (err) {
      if ((err as { code?: string }).code !== '23505' || attempt > 5) throw err;
    }
  }
}

type InviteeRow = { account: string; created_at: Date | string; first_deposit_at: Date | string | null; total: number; deposited: number };

/** GET /wps/v2/referral: the link on the merchant's own domain and who registered through it. */
export function mountReferralRoutes(app: Express, deps: { db: Db; isProduction: boolean }, opts: { checkResponses: boolean }) {
  const { db } = deps;
  mountCall(app, referralCalls.summary, async ({ ctx, query, req }) => {
    const s = realMember(ctx);
    // Built from the merchant's configuration, never the request's Host (see linkOrigin).
    const origin = linkOrigin(ctx.merchant, { hostname: req.hostname, host: req.host, protocol: req.protocol }, { isProduction: deps.isProduction });
    const code = await referralCodeOf(db, ctx.merchant.code, s.memberId);
    const r = await db.query<InviteeRow>(
      `SELECT m.account, m.created_at, d.first_deposit_at, count(*) OVER ()::int AS total,
              (count(d.first_deposit_at) OVER ())::int AS deposited
         FROM members m
         LEFT JOIN LATERAL (SELECT min(updated_at) AS first_deposit_at FROM deposits WHERE member_id = m.id AND status = 'paid') d ON true
        WHERE m.referrer_id = $1 AND m.merchant_code = $2
        ORDER BY m.id DESC LIMIT $3 OFFSET $4`,
      [s.memberId, ctx.merchant.code, query.pageSize, (query.pageNo - 1) * query.pageSize],
    );
    let total = r.rows[0]?.total ?? 0;
    let deposited = r.rows[0]?.deposited ?? 0;
    if (!r.rows.length && query.pageNo > 1) {
      const c = await db.query<{ total: number; deposited: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM deposits d WHERE d.member_id = m.id AND d.status = 'paid'))::int AS deposited
           FROM members m WHERE m.referrer_id = $1 AND m.merchant_code = $2`, [s.memberId, ctx.merchant.code]);
      ({ total, deposited } = c.rows[0]!);
    }
    const list = r.rows.map((x): TReferralInvitee => ({
      account: maskAccount(x.account), registeredAt: new Date(x.created_at).toISOString(),
      hasDeposited: x.first_deposit_at !== null, firstDepositAt: x.first_deposit_at === null ? null : new Date(x.first_deposit_at).toISOString(),
    }));
    return { code, link: `${origin}/register?referralCode=${code}`, registered: total, deposited, list, pageNo: query.pageNo, pageSize: query.pageSize, total };
  }, opts);
}
