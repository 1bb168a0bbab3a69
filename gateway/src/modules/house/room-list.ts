import type { Express } from 'express';
import { catalogueCalls, type TRoom } from '@portal/contracts/api/games';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { BACCARAT_STAKES } from './baccarat.ts';
import { HOUSE_GAMES } from './house-games.ts';
import { houseStakes } from './house-service.ts';
import { BACCARAT_TABLE, lastWinners } from './house-table.ts';
import { PVP_ANTE, PVP_TABLE } from './lucky9.ts';
import { iso } from '../../db/iso.ts';

/** Results shown on a room's card, newest first. */
const ROAD = 12;

/** The house's tables (their game codes in HOUSE_GAMES): where their players sit, and what they offer. */
const TABLES = [
  { table: BACCARAT_TABLE, gameType: 'LIVE', players: 'house_table_bets', stakes: BACCARAT_STAKES, road: true },
  { table: PVP_TABLE, gameType: 'PVP', players: 'house_pvp_seats', stakes: [PVP_ANTE], road: false },
] as const;

/**
 * GLS2_roomList: the house's live and card tables with the state of their current round, read from the
 * rounds the table clock writes (house_table_rounds): phase and its deadline on the database's clock,
 * players in the round, stakes in the merchant's currency, and the last results (baccarat's road).
 */
export async function roomList(db: Db, merchant: { code: string; currency: string }, gameType?: 'LIVE' | 'PVP'): Promise<TRoom[]> {
  const rooms: TRoom[] = [];
  for (const t of TABLES) {
    const g = HOUSE_GAMES.find((x) => x.code === t.table);
    if (!g || (gameType && t.gameType !== gameType)) continue;
    // The catalogue's row: an operator may have renamed the game or put it in maintenance.
    const row = (await db.query<{ game_name: string; maintenance: boolean; vendor_maintenance: boolean | null }>(
      `SELECT g.game_name, g.maintenance, v.maintenance AS vendor_maintenance FROM games g
       LEFT JOIN vendors v ON v.merchant_code = g.merchant_code AND v.vassalage = g.vassalage AND v.game_type = g.game_type
       WHERE g.merchant_code = $1 AND g.node_id = $2`, [merchant.code, g.nodeId])).rows[0];
    if (!row) continue;
    const r = (await db.query<{ round_no: number; phase: 'betting' | 'result'; closes_at: Date | string; next_at: Date | string | null; now: Date | string; players: number }>(
      `SELECT r.round_no, r.phase, r.closes_at, r.next_at, now() AS now,
         (SELECT count(DISTINCT p.session_hash)::int FROM ${t.players} p
          WHERE p.merchant_code = r.merchant_code AND p.table_code = r.table_code AND p.round_no = r.round_no) AS players
       FROM house_table_rounds r WHERE r.merchant_code = $1 AND r.table_code = $2 ORDER BY r.round_no DESC LIMIT 1`,
      [merchant.code, t.table])).rows[0];
    const road = t.road && r ? await lastWinners(db, merchant.code, t.table, r.round_no, ROAD) : [];
    rooms.push({
      nodeId: g.nodeId, gameCode: g.code, gameName: row.game_name, gameType: t.gameType, vassalage: 'HOUSE',
      maintenance: row.maintenance || row.vendor_maintenance === true,
      roundNo: r ? Number(r.round_no) : null, phase: r?.phase ?? null,
      closesAt: r ? iso(r.closes_at) : null, nextAt: r ? iso(r.next_at) : null,
      serverNow: r ? iso(r.now)! : new Date().toISOString(),
      players: r ? Number(r.players) : 0,
      stakes: houseStakes(t.stakes, merchant.currency),
      road,
    });
  }
  return rooms;
}

/** How long one read serves every visitor of a merchant's lobby (pages read it every 5 s each). */
const CACHE_MS = 1_000;

export function mountRoomList(app: Express, db: Db, opts: { checkResponses: boolean }) {
  // Per node, per merchant and filter: one read a second however many pages poll. A cached answer's
  // serverNow moves on by its age, so a page's countdown stays right.
  const cache = new Map<string, { at: number; list: Promise<TRoom[]> }>();
  mountCall(app, catalogueCalls.roomList, async ({ ctx, query }) => {
    const key = `${ctx.merchant.code}:${query.gameType ?? ''}`;
    let hit = cache.get(key);
    if (!hit || Date.now() - hit.at > CACHE_MS) {
      hit = { at: Date.now(), list: roomList(db, ctx.merchant, query.gameType) };
      cache.set(key, hit);
      hit.list.catch(() => cache.delete(key));
    }
    const age = Date.now() - hit.at;
    const list = await hit.list;
    return { list: age === 0 ? list : list.map((r) => ({ ...r, serverNow: new Date(Date.parse(r.serverNow) + age).toISOString() })) };
  }, opts);
}
