import type { Express } from 'express';
import { catalogueCalls, lotteryCalls, RECENT_GAMES_MAX, type TCatalogueGame, type TVassGameType } from '@portal/contracts/api/games';
import { RNG_CLASSIFIES, VENDOR_CODES, type GameType, type RngClassify } from '@portal/contracts/domain/constants';
import type { Db, Queryable } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { connectedVendorSql, gameMaintenanceSql } from './connected-vendors.ts';

export type CatalogueRow = {
  node_id: string; vassalage: string; game_code: string; is_game: string; game_type: GameType;
  game_classify: string | null; game_name: string; icon_url: string | null; maintenance: boolean; min_bet: number | null;
};
/** The catalogue's columns of alias `g`; `merchant` is the statement's parameter holding the merchant's code (the provider's maintenance is read by it). */
export const catalogueColumns = (merchant: string) =>
  `g.node_id, g.vassalage, g.game_code, g.is_game, g.game_type, g.game_classify, g.game_name, g.icon_url, ${gameMaintenanceSql('g', merchant)}, g.min_bet`;

export function toCatalogueGame(r: CatalogueRow): TCatalogueGame {
  return {
    nodeId: r.node_id, vassalage: r.vassalage, gameCode: r.game_code, isGame: r.is_game, gameType: r.game_type,
    gameClassify: r.game_classify, gameName: r.game_name, iconUrl: r.icon_url, maintenance: r.maintenance,
    minBet: r.min_bet === null ? null : Number(r.min_bet),
  };
}

/** Spec: the bingo sub-category (BG) only when the merchant supports the TY language. */
export function classifiesFor(merchant: Merchant): RngClassify[] {
  const hasTy = merchant.brand.supportedLanguages.includes('TY');
  return RNG_CLASSIFIES.filter((c) => c !== 'BG' || hasTy);
}

/** A LIKE pattern that matches `text` literally anywhere. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type GameSearch = {
  gameType?: GameType; vassalage?: string; gameClassify?: RngClassify; gameName?: string; minBet?: number; pageNo: number; pageSize: number;
};

/**
 * The game list search as SQL: filters on the merchant's games, ordered by (sort, id), one page.
 * Provider-lobby entries (isGame VASSALAGE) are listed except inside their own vendor's list. Only
 * games of connected providers (connected-vendors.ts): a player is not offered a game that cannot open.
 * Exported so the benchmark runs the very same statement as its bare-SQL baseline.
 */
export function gameSearchSql(merchantCode: string, s: GameSearch): { where: string; params: unknown[] } {
  const params: unknown[] = [merchantCode];
  const where = ['g.merchant_code = $1', connectedVendorSql('g.vassalage', '$1')];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (s.gameType) add('g.game_type = ?', s.gameType);
  if (s.vassalage) {
    add('g.vassalage = ?', s.vassalage);
    where.push(`g.is_game <> 'VASSALAGE'`);
  }
  if (s.gameClassify) add('g.game_classify = ?', s.gameClassify);
  if (s.gameName) add(`g.name_search LIKE ? ESCAPE '\\'`, containsPattern(s.gameName));
  if (s.minBet !== undefined) add('COALESCE(g.min_bet, 0) <= ?', s.minBet);
  return { where: where.join(' AND '), params };
}

export async function searchGames(q: Queryable, merchantCode: string, s: GameSearch) {
  const { where, params } = gameSearchSql(merchantCode, s);
  const offset = (s.pageNo - 1) * s.pageSize;
  const page = await q.query<CatalogueRow & { total: number }>(
    `SELECT ${catalogueColumns('$1')}, count(*) OVER () AS total FROM games g WHERE ${where}
     ORDER BY g.sort, g.id LIMIT ${s.pageSize} OFFSET ${offset}`,
    params,
  );
  let total = page.rows.length ? Number(page.rows[0]!.total) : 0;
  // Past the last page the window has no row to carry the total: count apart.
  if (!page.rows.length && s.pageNo > 1) {
    total = Number((await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM games g WHERE ${where}`, params)).rows[0]!.n);
  }
  return { games: page.rows.map(toCatalogueGame), pageNo: s.pageNo, pageSize: s.pageSize, total, totalPages: Math.ceil(total / s.pageSize) };
}

/** Record a game launch for GCS_recentGame: one row per member and game, the newest RECENT_GAMES_MAX kept. */
export async function recordLaunch(db: Db, merchantCode: string, memberId: number, nodeId: string): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO recent_games (member_id, merchant_code, node_id, launched_at) VALUES ($1, $2, $3, clock_timestamp())
       ON CONFLICT (member_id, node_id) DO UPDATE SET launched_at = EXCLUDED.launched_at, launches = recent_games.launches + 1`,
      [memberId, merchantCode, nodeId],
    );
    await tx.query(
      `DELETE FROM recent_games WHERE member_id = $1 AND node_id NOT IN (
         SELECT node_id FROM recent_games WHERE member_id = $1 ORDER BY launched_at DESC, node_id LIMIT ${RECENT_GAMES_MAX})`,
      [memberId],
    );
  });
}

/**
 * The member's favourites a player can see: games of the house and of providers connected for the
 * merchant (as the favourites list). A disconnected provider's games stay stored and come back with it.
 */
async function favoriteIds(q: Queryable, memberId: number, merchantCode: string): Promise<string[]> {
  const r = await q.query<{ node_id: string }>(
    `SELECT f.node_id FROM favorite_games f JOIN games g ON g.merchant_code = f.merchant_code AND g.node_id = f.node_id
     WHERE f.member_id = $1 AND f.merchant_code = $2 AND ${connectedVendorSql('g.vassalage', '$2')}
     ORDER BY f.created_at DESC, f.node_id`,
    [memberId, merchantCode],
  );
  return r.rows.map((x) => x.node_id);
}

/**
 * Spec section 9: one favourite change per member per second. The clock row is shared by every gateway
 * node, and the conditional upsert decides atomically (a concurrent second change waits for the row lock,
 * then finds it fresh).
 */
async function takeFavoriteSlot(q: Queryable, memberId: number): Promise<void> {
  const r = await q.query(
    `INSERT INTO favorite_clock (member_id, changed_at) VALUES ($1, clock_timestamp())
     ON CONFLICT (member_id) DO UPDATE SET changed_at = EXCLUDED.changed_at
     WHERE favorite_clock.changed_at <= EXCLUDED.changed_at - interval '1 second'
     RETURNING member_id`,
    [memberId],
  );
  if (!r.rows.length) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'One favourite change a second: try again in a moment');
}

export function mountCatalogueRoutes(app: Express, db: Db, opts: { checkResponses: boolean }) {
  mountCall(app, catalogueCalls.gameList, async ({ ctx, query }) => {
    if (query.gameClassify && !classifiesFor(ctx.merchant).includes(query.gameClassify)) {
      return { games: [], pageNo: query.pageNo, pageSize: query.pageSize, total: 0, totalPages: 0 };
    }
    return searchGames(db, ctx.merchant.code, {
      gameType: query.gameType, vassalage: query.vassalage, gameClassify: query.gameClassify, gameName: query.gameName,
      minBet: query.minBet, pageNo: query.pageNo, pageSize: query.pageSize,
    });
  }, opts);

  mountCall(app, catalogueCalls.vassGameType, async ({ ctx, query }) => {
    const vendors = await db.query<{ vassalage: string; game_type: GameType; display_name: string; icon_url: string | null; maintenance: boolean }>(
      `SELECT vassalage, game_type, display_name, icon_url, maintenance FROM vendors WHERE merchant_code = $1 AND game_type = $2 AND ${connectedVendorSql('vassalage', '$1')}
       ORDER BY sort, vassalage`,
      [ctx.merchant.code, query.gameType],
    );
    const counts = await db.query<{ vassalage: string; game_classify: string | null; n: number }>(
      `SELECT vassalage, game_classify, count(*)::int AS n FROM games WHERE merchant_code = $1 AND game_type = $2 AND ${connectedVendorSql('vassalage', '$1')}
       GROUP BY vassalage, game_classify`,
      [ctx.merchant.code, query.gameType],
    );
    const allowed = classifiesFor(ctx.merchant);
    const present = new Set<RngClassify>();
    const list: TVassGameType[] = vendors.rows.map((v) => {
      const mine = counts.rows.filter((c) => c.vassalage === v.vassalage);
      const classifies = allowed.filter((c) => mine.some((m) => m.game_classify === c));
      for (const c of classifies) present.add(c);
      return {
        vassalage: v.vassalage, gameType: v.game_type, displayName: v.display_name, iconUrl: v.icon_url, maintenance: v.maintenance,
        gameCount: mine.reduce((n, m) => n + Number(m.n), 0), gameClassifies: classifies,
      };
    });
    return { gameType: query.gameType, gameClassifies: allowed.filter((c) => present.has(c)), vendors: list };
  }, opts);

  mountCall(app, catalogueCalls.favoriteIds, async ({ ctx }) => ({ ids: await favoriteIds(db, ctx.session!.memberId, ctx.merchant.code) }), opts);

  mountCall(app, catalogueCalls.favoriteList, async ({ ctx, query }) => {
    const memberId = ctx.session!.memberId;
    const r = await db.query<CatalogueRow & { total: number }>(
      `SELECT ${catalogueColumns('$4')}, count(*) OVER () AS total FROM favorite_games f
       JOIN games g ON g.merchant_code = f.merchant_code AND g.node_id = f.node_id
       WHERE f.member_id = $1 AND ${connectedVendorSql('g.vassalage', '$4')} ORDER BY f.created_at DESC, f.node_id LIMIT $2 OFFSET $3`,
      [memberId, query.pageSize, (query.pageNum - 1) * query.pageSize, ctx.merchant.code],
    );
    let total = r.rows.length ? Number(r.rows[0]!.total) : 0;
    if (!r.rows.length && query.pageNum > 1) {
      total = Number((await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM favorite_games f JOIN games g ON g.merchant_code = f.merchant_code AND g.node_id = f.node_id
         WHERE f.member_id = $1 AND ${connectedVendorSql('g.vassalage', '$2')}`, [memberId, ctx.merchant.code])).rows[0]!.n);
    }
    return { content: r.rows.map(toCatalogueGame), pageNum: query.pageNum, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
  }, opts);

  mountCall(app, catalogueCalls.addFavorite, async ({ ctx, body }) => {
    const memberId = ctx.session!.memberId;
    const g = (await db.query<{ vassalage: string; game_type: string }>(
      `SELECT vassalage, game_type FROM games WHERE merchant_code = $1 AND node_id = $2 AND ${connectedVendorSql('vassalage', '$1')}`,
      [ctx.merchant.code, body.nodeId])).rows[0];
    // A game players cannot see (its provider is not connected) is not there to favourite.
    if (!g) throw new AppError(ErrorCode.NOT_FOUND);
    if ((body.vendor && body.vendor !== g.vassalage) || (body.gameType && body.gameType !== g.game_type)) {
      throw new AppError(ErrorCode.VALIDATION, 'vendor or gameType does not match the game', [{ path: 'vendor', message: 'does not match nodeId' }]);
    }
    return db.tx(async (tx) => {
      await takeFavoriteSlot(tx, memberId);
      await tx.query(
        `INSERT INTO favorite_games (member_id, merchant_code, node_id, created_at) VALUES ($1, $2, $3, clock_timestamp()) ON CONFLICT DO NOTHING`,
        [memberId, ctx.merchant.code, body.nodeId],
      );
      return { nodeId: body.nodeId, isFavorite: true, ids: await favoriteIds(tx, memberId, ctx.merchant.code) };
    });
  }, opts);

  mountCall(app, catalogueCalls.removeFavorite, async ({ ctx, query }) => {
    const memberId = ctx.session!.memberId;
    return db.tx(async (tx) => {
      await takeFavoriteSlot(tx, memberId);
      await tx.query('DELETE FROM favorite_games WHERE member_id = $1 AND node_id = $2', [memberId, query.nodeId]);
      return { nodeId: query.nodeId, isFavorite: false, ids: await favoriteIds(tx, memberId, ctx.merchant.code) };
    });
  }, opts);

  /** The member's recently opened games, newest first; `vendor`: only that vendor's (the Vietnam lottery's recent). */
  const recent = async (memberId: number, merchantCode: string, limit: number, vendor: string | null) => {
    const r = await db.query<CatalogueRow & { launched_at: Date | string }>(
      `SELECT ${catalogueColumns('$3')}, rg.launched_at FROM recent_games rg
       JOIN games g ON g.merchant_code = rg.merchant_code AND g.node_id = rg.node_id
       WHERE rg.member_id = $1 AND ${connectedVendorSql('g.vassalage', '$3')} AND ($4::text IS NULL OR g.vassalage = $4)
       ORDER BY rg.launched_at DESC, rg.node_id LIMIT $2`,
      [memberId, limit, merchantCode, vendor],
    );
    return {
      list: r.rows.map((x) => ({ ...toCatalogueGame(x), launchedAt: (x.launched_at instanceof Date ? x.launched_at : new Date(x.launched_at)).toISOString() })),
    };
  };
  mountCall(app, catalogueCalls.recentGames, async ({ ctx, query }) => recent(ctx.session!.memberId, ctx.merchant.code, query.limit, null), opts);

  // The Vietnam lottery (spec section 7, "Lottery"): its menu (a connected vendor's games) and the member's recent ones.
  mountCall(app, lotteryCalls.vnGameMenu, async ({ ctx }) => {
    const r = await db.query<CatalogueRow>(
      `SELECT ${catalogueColumns('$1')} FROM games g
       WHERE g.merchant_code = $1 AND g.vassalage = $2 AND g.is_game <> 'VASSALAGE' AND ${connectedVendorSql('g.vassalage', '$1')}
       ORDER BY g.sort, g.id LIMIT 200`,
      [ctx.merchant.code, VENDOR_CODES.VN_LOTTERY],
    );
    return { list: r.rows.map(toCatalogueGame) };
  }, opts);
  mountCall(app, lotteryCalls.vnRecent, async ({ ctx, query }) => recent(ctx.session!.memberId, ctx.merchant.code, query.limit, VENDOR_CODES.VN_LOTTERY), opts);
}
