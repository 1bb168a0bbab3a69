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
import { ZBrand } from '@portal/contracts/api/system';
import { loadConfig } from '../app/config.ts';
import { loadSeed } from '../db/seed.ts';
import { openCliDb, runAsMain, type CommandIo } from './cli-db.ts';
import { cacheAudience } from '@portal/contracts/events/events';
import { emitEvent } from '../bus/outbox.ts';

const USAGE = 'usage: npm run merchant:create -- --code CODE --name NAME --domain HOST [--domain HOST ...] [--main-domain HOST] [--currency PHP] [--currency-symbol ₱] [--default]';
/** A DNS host name (no port, no scheme): what Express's req.hostname gives, lower-cased. */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export type CreatedMerchant = { code: string; name: string; domains: string[]; mainDomain: string; currency: string; isDefault: boolean };

export async function runCreateMerchant(argv: string[], io: Omit<CommandIo, 'readStdin'> = {}): Promise<CreatedMerchant> {
  const print = io.print ?? ((l: string) => console.log(l));
  const { values } = parseArgs({
    args: argv,
    options: {
      code: { type: 'string' },
      name: { type: 'string' },
      domain: { type: 'string', multiple: true },
      'main-domain': { type: 'string' },
      currency: { type: 'string', default: 'PHP' },
      'currency-symbol': { type: 'string' },
      default: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const code = values.code ?? '';
  const name = values.name?.trim() ?? '';
  if (!code || !name || !values.domain?.length) throw new Error(USAGE);
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(code)) throw new Error('--code: 1 to 32 of A-Z, a-z, 0-9, _ and -');
  if (name.length > 100) throw new Error('--name: at most 100 characters');
  const domains = [...new Set(values.domain.flatMap((d) => d.split(',')).map((d) => d.trim().toLowerCase()).filter(Boolean))];
  const bad = domains.filter((d) => !HOSTNAME.test(d));
  if (bad.length || !domains.length) throw new Error(`--domain: a host name such as example.com, without scheme or port (refused: ${bad.join(', ') || 'none given'})`);
  const mainDomain = (values['main-domain'] ?? domains[0]!).trim().toLowerCase();
  if (!domains.includes(mainDomain)) throw new Error(`--main-domain must be one of the --domain values (${domains.join(', ')})`);
  const currency = values.currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error('--currency: an ISO 4217 code such as PHP');
  const currencySymbol = values['currency-symbol'] ?? (currency === 'PHP' ? '₱' : currency);

  const template = (await loadSeed()).merchant;
  const brand = { ...template.brand, siteName: name, currency, currencySymbol };
  ZBrand.parse({ ...brand, merchantCode: code, platform: 'WEB' });

  const config = loadConfig(io.env ?? process.env);
  const db = io.db ?? (await openCliDb(config, { force: values.force }));
  try {
    const isDefault = await db.tx(async (tx) => {
      // The same lock as the demo seed: merchants are created one at a time.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [7_242_003]);
      if ((await tx.query('SELECT 1 FROM merchants WHERE code = $1', [code])).rows.length) throw new Error(`merchant ${code} already exists`);
      const taken = await tx.query<{ code: string; domain: string }>(
        'SELECT code, d AS domain FROM merchants, unnest(domains) AS d WHERE lower(d) = ANY($1::text[])',
        [domains],
      );
      if (taken.rows.length) throw new Error(`domain ${taken.rows[0]!.domain} already belongs to merchant ${taken.rows[0]!.code}`);
      const hasDefault = (await tx.query('SELECT 1 FROM merchants WHERE is_default')).rows.length > 0;
      const makeDefault = !hasDefault || values.default;
      if (makeDefault && hasDefault) await tx.query('UPDATE merchants SET is_default = false WHERE is_default');
      await tx.query(
        `INSERT INTO merchants (code, name, is_default, domains, main_domain, module_flags, whitelabel, brand, currency)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [code, name, makeDefault, domains, mainDomain, JSON.stringify(template.modules), JSON.stringify(template.whitelabel), JSON.stringify(brand), currency],
      );
      // Running gateways reload their merchant list (new host names, maybe a new default merchant).
      await emitEvent(tx, code, cacheAudience(code), 'content.changed', { scopes: ['merchant'] });
      return makeDefault;
    });
    print(`merchant ${code} (${name}) created on ${db.kind}: domains ${domains.join(', ')}, main domain ${mainDomain}, ${currency}${isDefault ? ', default merchant' : ''}`);
    print(`next: npm run ops:create-operator -- --merchant ${code} --username <name>, then start (or restart) the gateways`);
    return { code, name, domains, mainDomain, currency, isDefault };
  } finally {
    if (!io.db) await db.close();
  }
}

runAsMain(import.meta.url, () => runCreateMerchant(process.argv.slice(2)));
