/**
 * Create a merchant (a site) for a production deployment, where no demo merchant is seeded:
 *   npm run merchant:create -- --code CODE --name NAME --domain example.com [--domain www.example.com]
 *     [--main-domain example.com] [--currency PHP] [--currency-symbol ₱] [--default]
 *
 * The domains are the host names the site answers on (the merchant is resolved from the request's
 * host) and the main domain is the one links in e-mails and SMS are built from. Module flags, the
 * white label and the brand start from the demo merchant's settings (Philippine market: TY first,
 * 21+, UTC+8) with the name and currency given here. The first merchant becomes the default one;
 * --default moves the default to the new merchant. Start (or restart) the gateways afterwards: they set
 * up the house games of every merchant at start. Then create its first operator with
 * `npm run ops:create-operator`. Uses the server's database (DATABASE_URL, else PGlite in DATA_DIR).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../app/config.ts';
import { createMerchant, MerchantCreateError, type CreatedMerchant } from '../modules/merchants/merchant-create.ts';
import { openCliDb, runAsMain, type CommandIo } from './cli-db.ts';

const USAGE = 'usage: npm run merchant:create -- --code CODE --name NAME --domain HOST [--domain HOST ...] [--main-domain HOST] [--market PH] [--currency PHP] [--currency-symbol ₱] [--min-age 21] [--default]';

export type { CreatedMerchant };

export async function runCreateMerchant(argv: string[], io: Omit<CommandIo, 'readStdin'> = {}): Promise<CreatedMerchant> {
  const print = io.print ?? ((l: string) => console.log(l));
  const { values } = parseArgs({
    args: argv,
    options: {
      code: { type: 'string' },
      name: { type: 'string' },
      domain: { type: 'string', multiple: true },
      'main-domain': { type: 'string' },
      market: { type: 'string' },
      currency: { type: 'string', default: 'PHP' },
      'currency-symbol': { type: 'string' },
      'min-age': { type: 'string' },
      default: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.code || !values.name?.trim() || !values.domain?.length) throw new Error(USAGE);
  const minAge = values['min-age'] === undefined ? undefined : Number(values['min-age']);
  const input = {
    code: values.code, name: values.name, domains: values.domain, mainDomain: values['main-domain'], market: values.market,
    currency: values.currency, currencySymbol: values['currency-symbol'], minAge, makeDefault: values.default,
  };

  const config = loadConfig(io.env ?? process.env);
  const db = io.db ?? (await openCliDb(config, { force: values.force }));
  try {
    let created: CreatedMerchant;
    try {
      created = await createMerchant(db, input);
    } catch (err) {
      // The same sentences as before, with the command-line option at fault.
      if (err instanceof MerchantCreateError && !err.conflict) throw new Error(`--${err.message.replace(/^main domain/, 'main-domain')}`);
      throw err;
    }
    const { code, name, domains, mainDomain, currency, isDefault } = created;
    print(`merchant ${code} (${name}) created on ${db.kind}: domains ${domains.join(', ')}, main domain ${mainDomain}, ${currency}${isDefault ? ', default merchant' : ''}`);
    print(`next: npm run ops:create-operator -- --merchant ${code} --username <name>, then start (or restart) the gateways`);
    return created;
  } finally {
    if (!io.db) await db.close();
  }
}

runAsMain(import.meta.url, () => runCreateMerchant(process.argv.slice(2)));
