import { opsPlayerCalls, type TOpsPlayerRow } from '@portal/contracts/api/ops-players';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { balanceOf } from '../wallet/ledger.ts';
import { DAY_MS, listRecords } from '../wallet/records.ts';
import { RECORDS_MAX_RANGE_DAYS } from '@portal/contracts/api/wallet';
import type { Rg } from '../rg/rg-service.ts';
import type { OpsCall } from './ops-router.ts';
import { audit } from './operators.ts';
import { iso } from '../../db/iso.ts';


type PlayerRow = {
  id: number | string; account: string; nickname: string | null; dialing_code: string | null; mobile_num: string | null; status: 'active' | 'disabled';
  type: number; created_at: Date | string; last_login_at: Date | string | null; is_excluded: boolean;
};
/** The row columns of a player (members m), with whether an exclusion is in force now. */
const PLAYER_COLUMNS = `m.id, m.account, m.nickname, m.dialing_code, m.mobile_num, m.status, m.type, m.created_at, m.last_login_at,
  EXISTS (SELECT 1 FROM rg_exclusions x WHERE x.member_id = m.id AND x.ended_at IS NULL AND x.starts_at <= now() AND (x.ends_at IS NULL OR x.ends_at > now())) AS is_excluded`;

const toRow = (r: PlayerRow): TOpsPlayerRow => ({
  id: Number(r.id), account: r.account, nickname: r.nickname,
  mobile: r.mobile_num ? `${r.dialing_code ? `+${r.dialing_code.replace(/^\+/, '')} ` : ''}${r.mobile_num}` : null,
  status: r.status, type: r.type, createdAt: iso(r.created_at)!, lastLoginAt: iso(r.last_login_at), isExcluded: r.is_excluded,
});

/** Escape LIKE wildcards so a search for `a_b` finds `a_b` only. */
const likeContains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The players section of the back office (issue 13): search, profile, money and notes, all bounded
 * to the operator's merchant in SQL (another merchant's player is NOT_FOUND). Freezing is the
 * existing member status call; RG actions the existing /ops/api/rg calls.
 */
export function mountOpsPlayerRoutes(call: OpsCall, deps: { db: Db; rg: Rg | null }) {
  const { db } = deps;

  async function player(merchant: Merchant, id: number) {
    const r = await db.query<PlayerRow & {
      register_ip: string | null; email: string | null; payee_name: string | null; language: string | null; birthday: string | null;
      invitation_code: string | null; upline: string | null; first_login_at: Date | string | null;
    }>(
      `SELECT ${PLAYER_COLUMNS}, m.register_ip, m.email, m.payee_name, m.language, m.profile->>'birthday' AS birthday, m.invitation_code, m.first_login_at,
              (SELECT u.account FROM members u WHERE u.id = m.parent_id) AS upline
         FROM members m WHERE m.id = $1 AND m.merchant_code = $2`, [id, merchant.code]);
    const row = r.rows[0];
    if (!row) throw new AppError(ErrorCode.USER_NOT_FOUND);
    return row;
  }

  call(opsPlayerCalls.players, 'players.read', async ({ ctx, query }) => {
    const search = query.search?.trim() || null;
    const byId = search && /^\d{1,15}$/.test(search) ? Number(search) : null;
    const digits = search ? search.replace(/[\s+()-]/g, '') : '';
    const r = await db.query<PlayerRow & { total: number }>(
      `SELECT ${PLAYER_COLUMNS}, count(*) OVER ()::int AS total FROM members m
        WHERE m.merchant_code = $1
          AND ($2::text IS NULL OR m.account_lower LIKE $3 ESCAPE '\\' OR m.id = $4::bigint
               OR ($5::text <> '' AND (m.mobile_num LIKE $6 ESCAPE '\\' OR (coalesce(m.dialing_code, '') || m.mobile_num) LIKE $6 ESCAPE '\\')))
          AND ($7::text IS NULL OR m.status = $7)
        ORDER BY m.id DESC LIMIT $8 OFFSET $9`,
      [ctx.merchant.code, search, search ? likeContains(search.toLowerCase()) : '', byId, /^\d{3,}$/.test(digits) ? digits : '', likeContains(digits),
        query.status ?? null, query.pageSize, (query.pageNo - 1) * query.pageSize],
    );
    return { list: r.rows.map(toRow), pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? 0 };
  });

  call(opsPlayerCalls.player, 'players.read', async ({ ctx, id }) => {
    const m = await player(ctx.merchant, id);
    const [state, events, logins] = await Promise.all([
      deps.rg ? deps.rg.state(ctx.merchant.code, id, ctx.merchant.brand.gmtOffsetMinutes, null) : null,
      deps.rg ? deps.rg.events(ctx.merchant.code, id, 1, 20) : null,
      db.query<{ created_at: Date | string; ip: string | null; kind: string; last_seen_at: Date | string; revoked_at: Date | string | null; expires_at: Date | string }>(
        'SELECT created_at, ip, kind, last_seen_at, revoked_at, expires_at FROM sessions WHERE member_id = $1 AND merchant_code = $2 ORDER BY created_at DESC LIMIT 20',
        [id, ctx.merchant.code]),
    ]);
    const now = Date.now();
    return {
      player: toRow(m),
      registration: {
        registerIp: m.register_ip, email: m.email, payeeName: m.payee_name, language: m.language, birthday: m.birthday,
        invitationCode: m.invitation_code, upline: m.upline, firstLoginAt: iso(m.first_login_at),
      },
      rg: {
        exclusion: state?.exclusion ?? null,
        limits: state?.limits ?? [],
        realityCheckMinutes: state?.realityCheckMinutes ?? null,
        sessionLimitMinutes: state?.sessionLimitMinutes ?? null,
        // The player's own changes read 'player' here (the player's RG page says 'you').
        events: (events?.list ?? []).map((e) => ({ ...e, by: e.by === 'you' ? 'player' : e.by })),
      },
      logins: logins.rows.map((s) => ({
        at: iso(s.created_at)!, ip: s.ip, kind: s.kind, lastSeenAt: iso(s.last_seen_at)!, endedAt: iso(s.revoked_at),
        isLive: s.revoked_at === null && new Date(s.expires_at).getTime() > now,
      })),
    };
  });

  call(opsPlayerCalls.playerMoney, 'players.money', async ({ ctx, id }) => {
    await player(ctx.merchant, id);
    const bal = await balanceOf(db, id, ctx.merchant.currency);
    return { currency: ctx.merchant.currency, balance: Number(bal.balance), available: Number(bal.available) };
  });

  // The money records, a page at a time (newest first, with the total): offset paging is enough for
  // one player's history, and the page size is bounded by the query schema. ORDER BY names the table's
  // bigint id: a bare `id` would be the text output column and sort "9" after "23".
  const page = (q: { pageNo: number; pageSize: number }) => [q.pageSize, (q.pageNo - 1) * q.pageSize] as const;
  call(opsPlayerCalls.playerDeposits, 'players.money', async ({ ctx, id, query }) => {
    await player(ctx.merchant, id);
    const r = await db.query<{ id: string; amount: string; status: string; provider: string; created_at: Date | string; total: number }>(
      `SELECT id::text, amount::text, status, provider, created_at, count(*) OVER ()::int AS total FROM deposits d
        WHERE member_id = $1 AND merchant_code = $2 ORDER BY d.id DESC LIMIT $3 OFFSET $4`, [id, ctx.merchant.code, ...page(query)]);
    return {
      list: r.rows.map((d) => ({ id: d.id, amount: Number(d.amount), status: d.status, provider: d.provider, createdAt: iso(d.created_at)! })),
      pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? await countOf('deposits', id, ctx.merchant.code),
    };
  });
  call(opsPlayerCalls.playerWithdrawals, 'players.money', async ({ ctx, id, query }) => {
    await player(ctx.merchant, id);
    const r = await db.query<{ id: string; amount: string; status: string; created_at: Date | string; total: number }>(
      `SELECT id::text, amount::text, status, created_at, count(*) OVER ()::int AS total FROM withdrawals w
        WHERE member_id = $1 AND merchant_code = $2 ORDER BY w.id DESC LIMIT $3 OFFSET $4`, [id, ctx.merchant.code, ...page(query)]);
    return {
      list: r.rows.map((w) => ({ id: w.id, amount: Number(w.amount), status: w.status, createdAt: iso(w.created_at)! })),
      pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? await countOf('withdrawals', id, ctx.merchant.code),
    };
  });
  // Every movement of the player's account (adjustments, bonuses, payouts, envelopes...), the last 90 days:
  // deposits, withdrawals and bets alone did not add up to the balance.
  call(opsPlayerCalls.playerLedger, 'players.money', async ({ ctx, id, query }) => {
    await player(ctx.merchant, id);
    const to = new Date();
    const r = await listRecords(db, id, ctx.merchant.currency, { from: new Date(to.getTime() - RECORDS_MAX_RANGE_DAYS * DAY_MS), to }, query.pageNo, query.pageSize);
    return { list: r.list, pageNo: r.pageNo, pageSize: r.pageSize, total: r.total };
  });
  call(opsPlayerCalls.playerBets, 'players.money', async ({ ctx, id, query }) => {
    await player(ctx.merchant, id);
    // The game's name from the merchant's catalogue (as the agents' team betting shows it), its code when not listed.
    const r = await db.query<{ vendor: string; round_id: string; game_code: string | null; game_name: string | null; stake: string; win: string; rolled_back: boolean; at: Date | string; total: number }>(
      `WITH rounds AS (
         SELECT vendor, round_id, min(game_code) AS game_code,
                coalesce(sum(amount) FILTER (WHERE kind = 'bet' AND status IN ('applied', 'rolled_back')), 0)::text AS stake,
                coalesce(sum(amount) FILTER (WHERE kind = 'win' AND status = 'applied'), 0)::text AS win,
                bool_or(kind = 'bet' AND status = 'rolled_back') AS rolled_back, min(created_at) AS at,
                count(*) OVER ()::int AS total
           FROM vendor_transactions WHERE member_id = $1 AND merchant_code = $2 AND created_at > now() - interval '90 days'
          GROUP BY vendor, round_id ORDER BY min(created_at) DESC, vendor, round_id LIMIT $3 OFFSET $4)
       SELECT r.*, g.game_name FROM rounds r
         LEFT JOIN LATERAL (SELECT game_name FROM games WHERE merchant_code = $2 AND vassalage = r.vendor AND game_code = r.game_code LIMIT 1) g ON true
        ORDER BY r.at DESC, r.vendor, r.round_id`, [id, ctx.merchant.code, ...page(query)]);
    const total = r.rows[0]?.total ?? (query.pageNo === 1 ? 0 : (await db.query<{ n: number }>(
      `SELECT count(DISTINCT (vendor, round_id))::int AS n FROM vendor_transactions WHERE member_id = $1 AND merchant_code = $2 AND created_at > now() - interval '90 days'`,
      [id, ctx.merchant.code])).rows[0]!.n);
    return {
      list: r.rows.map((b) => ({ vendor: b.vendor, roundId: b.round_id, gameCode: b.game_code, gameName: b.game_name, stake: Number(b.stake), win: Number(b.win), isRolledBack: b.rolled_back, at: iso(b.at)! })),
      pageNo: query.pageNo, pageSize: query.pageSize, total,
    };
  });
  /** The total when a page past the end came back empty (the window count is on the rows). */
  async function countOf(table: 'deposits' | 'withdrawals', id: number, merchant: string) {
    return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE member_id = $1 AND merchant_code = $2`, [id, merchant])).rows[0]!.n;
  }

  const toNote = (n: { id: string; note: string; operator_username: string; at: Date | string }) => ({ id: String(n.id), note: n.note, author: n.operator_username, at: iso(n.at)! });
  call(opsPlayerCalls.notes, 'players.notes', async ({ ctx, id }) => {
    await player(ctx.merchant, id);
    const r = await db.query<{ id: string; note: string; operator_username: string; at: Date | string }>(
      'SELECT id::text, note, operator_username, at FROM member_notes WHERE member_id = $1 AND merchant_code = $2 ORDER BY member_notes.id DESC LIMIT 200', [id, ctx.merchant.code]);
    return { list: r.rows.map(toNote) };
  });
  call(opsPlayerCalls.addNote, 'players.notes', async ({ ctx, id, body }) => {
    await player(ctx.merchant, id);
    return db.tx(async (tx) => {
      const r = await tx.query<{ id: string; note: string; operator_username: string; at: Date | string }>(
        `INSERT INTO member_notes (merchant_code, member_id, operator_id, operator_username, note) VALUES ($1, $2, $3, $4, $5)
         RETURNING id::text, note, operator_username, at`, [ctx.merchant.code, id, ctx.operator.id, ctx.operator.username, body.note]);
      // The note itself lives in its append-only table; the audit trail names it.
      await audit(tx, ctx.operator, 'player.note', { type: 'member', id }, undefined, { noteId: r.rows[0]!.id });
      return toNote(r.rows[0]!);
    });
  });
}
