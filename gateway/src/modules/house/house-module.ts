import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Db } from '../../db/db.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { ensureHouseGames } from './house-games.ts';
import { mountHouseRoutes } from './house-routes.ts';
import { createHouse } from './house-service.ts';
import { createWalletClient } from './wallet-client.ts';

/** How often each node looks for rounds left open. */
const SWEEP_MS = 10_000;

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
  await ensureHouseGames(deps.db, deps.merchants);
  let timer: NodeJS.Timeout | null = null;
  return {
    house,
    wallet,
    mount(app: Express) {
      mountHouseRoutes(app, { house, merchants: deps.merchants, checkResponses: deps.checkResponses });
    },
    /** After listen: the wallet is this node itself unless HOUSE_WALLET_URL says otherwise. */
    listening(port: number) {
      if (!deps.walletUrl) wallet.setBaseUrl(`http://127.0.0.1:${port}`);
      if (!timer) {
        timer = setInterval(() => {
          house.sweep().catch((err: unknown) => log.warn({ err }, 'house sweep failed'));
        }, SWEEP_MS);
        timer.unref();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
