import type { Config } from '@portal/gateway/app/config';
import { createPortal } from '@portal/gateway/app/create-app';
import { createPgDb, createPgliteDb } from '@portal/gateway/db/db';
import { migrate } from '@portal/gateway/db/migrate';
import { seedDemo } from '@portal/gateway/db/seed';

/**
 * A production-mode gateway on the demo merchant's content, for benchmarks. Production refuses
 * SEED=demo (its accounts have a published password), so the bench seeds the demo merchant itself,
 * without those accounts, before the portal starts on the same database.
 */
export async function startSeededPortal(config: Config, catalogue: 'full' | 'small') {
  const db = config.DATABASE_URL ? createPgDb(config.DATABASE_URL, config.DB_POOL_SIZE) : await createPgliteDb(config.DATA_DIR === ':memory:' ? null : config.DATA_DIR);
  await migrate(db);
  await seedDemo(db, { catalogue, accounts: false });
  const portal = await createPortal(config, { db });
  const stop = portal.stop.bind(portal);
  // createPortal leaves a database it was given open: close it with the portal.
  portal.stop = async () => {
    await stop();
    await db.close();
  };
  return portal;
}
