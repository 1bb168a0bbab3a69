import type { Express } from 'express';
import { gameCalls, type TGame, type TGameCategory, type TVendor } from '@portal/contracts/api/games';
import { GAME_TYPES, NAV_ITEMS, VENDOR_CODES, type GameType } from '@portal/contracts/domain/constants';
import type { Db } from '../../db/db.ts';
import type { BootCache } from '../boot-cache/boot-cache.ts';
import { mountCatalogueRoutes } from './catalogue-routes.ts';
import { catalogueIcons } from './winner-icons.ts';
import { connectedVendorSql, gameMaintenanceSql } from './connected-vendors.ts';

type GameRow = {
  node_id: string; vassalage: string; game_code: string; is_game: string; game_type: GameType;
  game_classify: string | null; game_name: string; icon_url: string | null; maintenance: boolean;
};
/** Columns of the `games` table; every statement using them has the merchant's code as `$1`. */
const GAME_COLUMNS = `node_id, vassalage, game_code, is_game, game_type, game_classify, game_name, icon_url, ${gameMaintenanceSql('games', '$1')}`;

export function toGame(r: GameRow): TGame {
  return {
    nodeId: r.node_id, vassalage: r.vassalage, gameCode: r.game_code, isGame: r.is_game, gameType: r.game_type,
    gameClassify: r.game_classify, gameName: r.game_name, iconUrl: r.icon_url, maintenance: r.maintenance,
  };
}

/** Navigation order of game types (spec section 2), then any others. */
const TYPE_ORDER: GameType[] = [
  ...NAV_ITEMS.map((n) => n.gameType).filter((t): t is GameType => t !== null),
  ...GAME_TYPES,
].filter((t, i, a) => a.indexOf(t) === i);

/**
 * The home page's game calls, from the bootstrap cache (boot-cache.ts): vendors, hot games and game
 * menus per merchant (and page size), dropped when the catalogue or a provider connection changes; the
 * winner board per limit, dropped on every `winner.posted`. The language and platform the client sends
 * do not change them. Only connected providers and their games are listed (connected-vendors.ts).
 */
export function mountGameRoutes(app: Express, db: Db, cache: BootCache, opts: { checkResponses: boolean }) {
  cache.mount(app, {
    def: gameCalls.gameVendor, scopes: ['games'],
    load: async ({ merchant }) => {
      const r = await db.query<{ vassalage: string; game_type: GameType; game_category: string; display_name: string; icon_url: string | null; maintenance: boolean; simulated: boolean }>(
        `SELECT v.vassalage, v.game_type, v.game_category, v.display_name, v.icon_url, v.maintenance, coalesce(a.simulated AND a.active, false) AS simulated
         FROM vendors v LEFT JOIN vendor_accounts a ON a.merchant_code = v.merchant_code AND a.vendor = v.vassalage
         WHERE v.merchant_code = $1 AND ${connectedVendorSql('v.vassalage', '$1')} ORDER BY v.sort, v.vassalage`,
        [merchant.code],
      );
      const lanes: TGameCategory[] = [];
      for (const type of TYPE_ORDER) {
        const vendors: TVendor[] = r.rows
          .filter((v) => v.game_type === type)
          .map((v) => ({ vassalage: v.vassalage, gameType: v.game_type, gameCategory: v.game_category, displayName: v.display_name, iconUrl: v.icon_url, maintenance: v.maintenance, ...(v.simulated ? { simulated: true } : {}) }));
        if (vendors.length) lanes.push({ gameType: type, vendors });
      }
      return { value: { data: { lanes } } };
    },
  });

  cache.mount(app, {
    def: gameCalls.hotGames, scopes: ['games'],
    load: async ({ merchant }) => {
      const r = await db.query<GameRow>(
        `SELECT ${GAME_COLUMNS} FROM games WHERE merchant_code = $1 AND hot_rank IS NOT NULL AND ${connectedVendorSql('vassalage', '$1')}
         ORDER BY hot_rank, id LIMIT 20`,
        [merchant.code],
      );
      return { value: { list: r.rows.map(toGame) } };
    },
  });

  cache.mount(app, {
    def: gameCalls.rankList, scopes: ['winners'],
    key: (query) => String(query.limitNum),
    load: async ({ merchant, query }) => {
      const r = await db.query<{ id: number; icon_url: string | null; win_amount: number; game_name: string; customer_name: string; at: Date | string }>(
        `SELECT id, icon_url, win_amount, game_name, customer_name, at FROM winners WHERE merchant_code = $1 ORDER BY at DESC, id DESC LIMIT $2`,
        [merchant.code, query.limitNum],
      );
      // A row stored without an icon (its game was not found when it was posted, or it was posted by name only)
      // takes the catalogue's icon of the game it names: one look-up for the few names, only when needed.
      const icons = await catalogueIcons(db, merchant.code, r.rows.filter((w) => w.icon_url === null).map((w) => w.game_name));
      return {
        value: {
          list: r.rows.map((w) => ({
            id: String(w.id), iconUrl: w.icon_url ?? icons.get(w.game_name) ?? null, winAmount: w.win_amount, gameName: w.game_name, customerName: w.customer_name,
            vo: { winAmount: w.win_amount }, at: (w.at instanceof Date ? w.at : new Date(w.at)).toISOString(),
          })),
        },
      };
    },
  });

  cache.mount(app, {
    def: gameCalls.gameMenus, scopes: ['games'],
    key: (query) => `${query.pageSize}:${query.prizeMode ?? ''}`,
    load: async ({ merchant, query }) => {
      // A prize mode is one lottery's menu (games.ts ZGameMenusQuery): its game type, or for SEA its vendor.
      const mode = query.prizeMode;
      const types = mode === undefined ? TYPE_ORDER : mode === 'LOTT' || mode === 'SEA' ? ['LOTT'] : mode === 'ELOTT' ? ['ELOTT'] : [];
      const vendor = mode === 'SEA' ? VENDOR_CODES.SEA_LOTTERY : null;
      // First pageSize games of each type, each through the (merchant_code, game_type, sort) index: with the
      // 10,000-game catalogue a window over every row would cost tens of milliseconds.
      const r = await db.query<GameRow>(
        `SELECT g.* FROM unnest($2::text[]) AS t(game_type)
         CROSS JOIN LATERAL (
           SELECT ${GAME_COLUMNS} FROM games
           WHERE merchant_code = $1 AND game_type = t.game_type AND is_game <> 'VASSALAGE' AND ${connectedVendorSql('vassalage', '$1')}
             AND ($4::text IS NULL OR vassalage = $4)
           ORDER BY sort, id LIMIT $3
         ) g`,
        [merchant.code, types, query.pageSize, vendor],
      );
      const menus = types.map((t) => ({ gameType: t, games: r.rows.filter((g) => g.game_type === t).map(toGame) })).filter(
        (m) => m.games.length > 0,
      );
      return { value: { menus } };
    },
  });

  mountCatalogueRoutes(app, db, opts);
}
