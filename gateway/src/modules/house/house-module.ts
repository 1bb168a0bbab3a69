import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Db } from '../../db/db.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { ensureHouseGames } from './house-games.ts';
import { mountHouseRoutes } from './house-routes.ts';
import { createHouse } from './house-service.ts';
import { createBaccaratTable } from './house-table.ts';
import { createPvpTable } from './pvp-table.ts';
import { createTableClock } from './table-clock.ts';
import { createWalletClient } from './wallet-client.ts';

/** How often each node looks for rounds left open. */
const SWEEP_MS = 10_000;
/** How often each node looks at the tables' clocks. */
const TABLE_TICK_MS = 500;

/**
 * The built-in house provider: game catalogue rows, the game server and its browser API. It talks
 * to the wallet only over the vendor HTTP API, at HOUSE_WALLET_URL or this node's own address once
 * it listens (`listening(port)`).
 */
export async function createHouseModule(deps: { db: Db; merchants: MerchantDirectory; log: Logger; walletUrl: string | undefined; checkResponses: boolean }) {
  const log = deps.log.child({ module: 'house' });
  const wallet = createWalletClient(deps.db);
  if (deps.walletUrl) wallet.setBaseUrl(deps.walletUrl);
  const house = createHouse({ db: deps.db, wallet, log });
  const baccarat = createBaccaratTable({ db: deps.db, wallet, house, log });
  const pvp = createPvpTable({ db: deps.db, wallet, house, log });
  await ensureHouseGames(deps.db, deps.merchants);
  let timer: NodeJS.Timeout | null = null;
  let tableTimer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  const codes = (await deps.merchants.all()).map((m) => m.code);
  return {
    house,
    baccarat,
    pvp,
    wallet,
    mount(app: Express) {
      mountHouseRoutes(app, { house, baccarat, pvp, merchants: deps.merchants, checkResponses: deps.checkResponses });
    },
    /** After listen: the wallet is this node itself unless HOUSE_WALLET_URL says otherwise. */
    listening(port: number) {
      if (!deps.walletUrl) wallet.setBaseUrl(`http://127.0.0.1:${port}`);
      if (!timer) {
        timer = setInterval(() => {
          house.sweep()
            .then(() => baccarat.sweep())
            .then(() => pvp.sweep())
            .catch((err: unknown) => log.warn({ err }, 'house sweep failed'));
        }, SWEEP_MS);
        timer.unref();
        // The tables run on their own: every node ticks, the advisory lock lets one move each table;
        // a table is looked at only when its next deadline has come (table-clock.ts).
        const clock = createTableClock(codes.flatMap((c) => [() => baccarat.step(c), () => pvp.step(c)]), { tickMs: TABLE_TICK_MS, log });
        tableTimer = setInterval(() => {
          ticking = clock.poll().finally(() => (ticking = null));
        }, TABLE_TICK_MS);
        tableTimer.unref();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (tableTimer) clearInterval(tableTimer);
      timer = null;
      tableTimer = null;
      // Let a tick in flight finish before the database closes (at most 2 s, as a wallet call may hang).
      if (ticking) await Promise.race([ticking, new Promise((r) => setTimeout(r, 2000).unref())]);
    },
  };
}
