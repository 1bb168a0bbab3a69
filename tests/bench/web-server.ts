/**
 * Child process of `npm run bench -- --web`: the production portal serving a built client, on the
 * demo merchant's content (seeded without accounts, PGlite in memory), on 127.0.0.1.
 *
 * WEB_BENCH_ROOT names the checkout whose gateway runs (default: this one), so the same bench can
 * measure another build (for example main's, unpacked with `git archive`); CLIENT_DIST is its
 * built client. Sends `{ ready, port }` over IPC, stops on SIGTERM.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.env.WEB_BENCH_ROOT ?? process.cwd());
const from = (p: string) => import(pathToFileURL(path.join(root, p)).href);

const { loadConfig } = await from('gateway/src/app/config.ts');
const { createPortal } = await from('gateway/src/app/create-app.ts');
const { createPgliteDb } = await from('gateway/src/db/db.ts');
const { migrate } = await from('gateway/src/db/migrate.ts');
const { seedDemo } = await from('gateway/src/db/seed.ts');

const config = loadConfig({
  NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: ':memory:', SEED: 'none', SEED_CATALOGUE: 'small',
  CLIENT_DIST: path.join(root, 'client/dist'),
  ...process.env, PORT: '0', HOST: '127.0.0.1',
});
const db = await createPgliteDb(null);
await migrate(db);
await seedDemo(db, { catalogue: config.SEED_CATALOGUE, accounts: false });
const portal = await createPortal(config, { db });
const port: number = await portal.listen(0, '127.0.0.1');
process.send!({ ready: true, port });
process.on('SIGTERM', async () => {
  await portal.stop().catch(() => undefined);
  await db.close().catch(() => undefined);
  process.exit(0);
});
