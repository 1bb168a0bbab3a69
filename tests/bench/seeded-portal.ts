import type { Config } from '@portal/gateway/app/config';
import { createPortal } from '@portal/gateway/app/create-app';
import { createPgDb, createPgliteDb } from '@portal/gateway/db/db';
import { migrate } from '@portal/gateway/db/migrate';
import { seedDemo } from '@portal/gateway/db/seed';

/**
 * A production-mode gateway on the demo merchant's content (its providers connected), for benchmarks.
 * Production refuses SEED=demo (its accounts have a published password), so the bench seeds the demo merchant itself,
 * without those accounts, before the portal starts on the same database.
 */
export async function startSeededPortal(config: Config, catalogue: 'full' | 'small') {
  const db = config.DATABASE_URL ? createPgDb(config.DATABASE_URL, config.DB_POOL_SIZE) : await createPgliteDb(config.DATA_DIR === ':memory:' ? null : config.DATA_DIR);
  await migrate(db);
  await seedDemo(db, { catalogue, accounts: false });
  // Every provider of the catalogue connected (players are shown connected providers' games only), as a
  // production portal that has connected its providers on /ops/providers: the lists are measured whole.
  await db.query(
    `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url)
     SELECT DISTINCT merchant_code, vassalage, md5(merchant_code || vassalage), 'https://vendor.invalid/play' FROM vendors WHERE vassalage <> 'HOUSE'
     ON CONFLICT (merchant_code, vendor) DO UPDATE SET active = true`);
  const portal = await createPortal(config, { db });
  const stop = portal.stop.bind(portal);
  // createPortal leaves a database it was given open: close it with the portal.
  portal.stop = async () => {
    await stop();
    await db.close();
  };
  return portal;
}
