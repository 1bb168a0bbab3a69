import { merchantAudience } from '@portal/contracts/events/events';
import type { Db } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { audit, type Operator } from './operators.ts';

type VendorRow = { vassalage: string; game_type: string; display_name: string; sort: number; maintenance: boolean };
type GameRow = { id: number | string; vassalage: string; game_code: string; game_type: string; game_name: string; sort: number; hot_rank: number | null; maintenance: boolean };
const toVendor = (r: VendorRow) => ({ vassalage: r.vassalage, gameType: r.game_type, displayName: r.display_name, sort: r.sort, maintenance: r.maintenance });
const toGame = (r: GameRow) => ({
  id: Number(r.id), vassalage: r.vassalage, gameCode: r.game_code, gameType: r.game_type, gameName: r.game_name, sort: r.sort, hotRank: r.hot_rank, maintenance: r.maintenance,
});

/**
 * Vendors and games from the console: maintenance, order and hot rank are the columns the catalogue
 * calls read, so a change shows in the next catalogue answer. Each change is audited and announced
 * (`system.changed` with part `games`) in one transaction.
 */
export function createGamesOps(db: Db) {
  async function vendors(merchant: string) {
    const r = await db.query<VendorRow>('SELECT * FROM vendors WHERE merchant_code = $1 ORDER BY game_type, sort, vassalage', [merchant]);
    return { list: r.rows.map(toVendor) };
  }

  async function updateVendor(op: Operator, merchant: string, b: { vassalage: string; gameType: string; maintenance?: boolean | undefined; sort?: number | undefined }) {
    return db.tx(async (tx) => {
      const before = (await tx.query<VendorRow>('SELECT * FROM vendors WHERE merchant_code = $1 AND vassalage = $2 AND game_type = $3 FOR UPDATE', [merchant, b.vassalage, b.gameType])).rows[0];
      if (!before) throw new AppError(ErrorCode.NOT_FOUND);
      const after = (await tx.query<VendorRow>(
        'UPDATE vendors SET maintenance = $4, sort = $5 WHERE merchant_code = $1 AND vassalage = $2 AND game_type = $3 RETURNING *',
        [merchant, b.vassalage, b.gameType, b.maintenance ?? before.maintenance, b.sort ?? before.sort])).rows[0]!;
      await audit(tx, op, 'vendor.update', { type: 'vendor', id: `${b.vassalage}:${b.gameType}` }, { maintenance: before.maintenance, sort: before.sort }, { maintenance: after.maintenance, sort: after.sort });
      await emitEvent(tx, merchant, merchantAudience(merchant), 'system.changed', { parts: ['games'] });
      return toVendor(after);
    });
  }

  async function games(merchant: string, q: { search?: string | undefined; vassalage?: string | undefined; hot?: 'true' | 'false' | undefined; pageNo: number; pageSize: number }) {
    const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const r = await db.query<GameRow & { total: number }>(
      `SELECT *, count(*) OVER ()::int AS total FROM games WHERE merchant_code = $1
         AND ($2::text IS NULL OR game_name ILIKE $2 OR game_code ILIKE $2) AND ($3::text IS NULL OR vassalage = $3)
         AND ($4::text IS NULL OR (hot_rank IS NOT NULL) = ($4 = 'true'))
       ORDER BY hot_rank NULLS LAST, sort, id LIMIT $5 OFFSET $6`,
      [merchant, like, q.vassalage ?? null, q.hot ?? null, q.pageSize, (q.pageNo - 1) * q.pageSize],
    );
    return { list: r.rows.map(toGame), pageNo: q.pageNo, pageSize: q.pageSize, total: r.rows[0]?.total ?? 0 };
  }

  async function updateGame(op: Operator, merchant: string, id: number, b: { maintenance?: boolean | undefined; sort?: number | undefined; hotRank?: number | null | undefined }) {
    return db.tx(async (tx) => {
      const before = (await tx.query<GameRow>('SELECT * FROM games WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant])).rows[0];
      if (!before) throw new AppError(ErrorCode.NOT_FOUND);
      const after = (await tx.query<GameRow>('UPDATE games SET maintenance = $2, sort = $3, hot_rank = $4 WHERE id = $1 RETURNING *',
        [id, b.maintenance ?? before.maintenance, b.sort ?? before.sort, b.hotRank === undefined ? before.hot_rank : b.hotRank])).rows[0]!;
      const pick = (g: GameRow) => ({ maintenance: g.maintenance, sort: g.sort, hotRank: g.hot_rank });
      await audit(tx, op, 'game.update', { type: 'game', id }, pick(before), pick(after));
      await emitEvent(tx, merchant, merchantAudience(merchant), 'system.changed', { parts: ['games'] });
      return toGame(after);
    });
  }

  return { vendors, updateVendor, games, updateGame };
}
