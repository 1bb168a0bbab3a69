/**
 * Import a game catalogue into a merchant:
 *   npm run catalogue:import -- [file] [--merchant DEMO] [--batch 500]
 *
 * The database is the server's: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR (./.data).
 * A PGlite data directory can be opened by one process only, so on PGlite run this while the server is
 * stopped (the command refuses when a PGlite gateway answers on PORT). On PostgreSQL it can run any time.
 * The import is idempotent: games are upserted by (merchant, nodeId), so running it twice changes nothing.
 */
import { loadConfig } from '../app/config.ts';
import { openCliDb, runAsMain } from './cli-db.ts';
import { cacheAudience } from '@portal/contracts/events/events';
import { emitEvent } from '../bus/outbox.ts';
import { CATALOGUE_FILE, formatProgress, importCatalogue, loadCatalogue, type ImportResult } from '../modules/games/catalogue.ts';

export type ImportArgs = { file: string; merchant: string | null; batch: number; force: boolean };

export function parseArgs(argv: string[]): ImportArgs {
  const args: ImportArgs = { file: CATALOGUE_FILE, merchant: null, batch: 500, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--merchant') args.merchant = argv[++i] ?? '';
    else if (a.startsWith('--merchant=')) args.merchant = a.slice('--merchant='.length);
    else if (a === '--batch') args.batch = Number(argv[++i]);
    else if (a === '--force') args.force = true;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else args.file = a;
  }
  if (args.merchant === '') throw new Error('--merchant needs a merchant code');
  if (!Number.isInteger(args.batch) || args.batch < 1 || args.batch > 5000) throw new Error('--batch must be 1..5000');
  return args;
}

export async function runImport(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = (l) => console.log(l),
): Promise<ImportResult & { merchant: string; count: number }> {
  const args = parseArgs(argv);
  const config = loadConfig(env);
  const cat = await loadCatalogue(args.file);
  print(`catalogue ${args.file}: ${cat.vendors.length} vendors, ${cat.games.length} games`);
  const db = await openCliDb(config, { force: args.force });
  try {
    const m = args.merchant
      ? (await db.query<{ code: string }>('SELECT code FROM merchants WHERE code = $1', [args.merchant])).rows[0]
      : (await db.query<{ code: string }>('SELECT code FROM merchants ORDER BY is_default DESC, code LIMIT 1')).rows[0];
    if (!m) throw new Error(args.merchant ? `merchant ${args.merchant} does not exist` : 'no merchant yet: create one with `npm run merchant:create` (or start the server once in development: it seeds the demo merchant)');
    print(`importing into merchant ${m.code} (${db.kind}), ${args.batch} rows per statement`);
    let lastShown = -1;
    const result = await db.tx(async (tx) => {
      const r = await importCatalogue(tx, m.code, cat, {
        batchSize: args.batch,
        onProgress: (p) => {
          // About every 2000 games, and the last batch.
          const step = Math.floor(p.done / 2000);
          if (p.done === p.total || step !== lastShown) {
            lastShown = step;
            print(formatProgress(p));
          }
        },
      });
      // Running gateways relay this from the outbox and drop their cached vendors, hot games and menus.
      if (r.changed > 0) await emitEvent(tx, m.code, cacheAudience(m.code), 'content.changed', { scopes: ['games'] });
      return r;
    });
    const count = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM games WHERE merchant_code = $1', [m.code])).rows[0]!.n);
    print(`done in ${result.ms} ms: ${result.changed} rows inserted or changed; merchant ${m.code} has ${count} games`);
    return { ...result, merchant: m.code, count };
  } finally {
    await db.close();
  }
}

runAsMain(import.meta.url, () => runImport(process.argv.slice(2)));
