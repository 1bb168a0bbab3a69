/**
 * Create the first back-office operator of a merchant (production has no demo operator):
 *   npm run ops:create-operator -- --merchant CODE --username NAME [--role administrator[,finance...]] [--password-stdin] [--additional]
 *
 * Prints a generated one-time password (or takes one from stdin with --password-stdin); either way the
 * operator must change it at first login, and the back office refuses every other call until then.
 * Refuses when the merchant already has an operator unless --additional is given (see bootstrapOperator).
 * Uses the server's database (DATABASE_URL, else PGlite in DATA_DIR: stop a PGlite server first).
 */
import { parseArgs } from 'node:util';
import { OPERATOR_ROLES, type OperatorRole } from '@portal/contracts/api/ops';
import { loadConfig } from '../app/config.ts';
import { createPasswordHasher } from '../modules/auth/password-hasher.ts';
import { bootstrapOperator, type Operator } from '../modules/ops/operators.ts';
import { openCliDb, operatorPassword, runAsMain, type CommandIo } from './cli-db.ts';

const USAGE = 'usage: npm run ops:create-operator -- --merchant CODE --username NAME [--role administrator|finance|support|content|risk (comma-separated)] [--password-stdin] [--additional] [--platform]';


export async function runCreateOperator(argv: string[], io: CommandIo = {}): Promise<{ operator: Operator; password: string }> {
  const print = io.print ?? ((l: string) => console.log(l));
  const { values } = parseArgs({
    args: argv,
    options: {
      merchant: { type: 'string' },
      username: { type: 'string' },
      role: { type: 'string', default: 'administrator' },
      'password-stdin': { type: 'boolean', default: false },
      additional: { type: 'boolean', default: false },
      /** The platform administrator (creates merchants): only the first such operator. */
      platform: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.merchant || !values.username) throw new Error(USAGE);
  const username = values.username.trim().toLowerCase();
  if (!/^[a-z0-9_]{3,32}$/.test(username)) throw new Error('--username: 3 to 32 of a-z, 0-9 and _');
  const roles = [...new Set(values.role.split(',').map((r) => r.trim()))] as OperatorRole[];
  if (!roles.length || roles.some((r) => !OPERATOR_ROLES.includes(r))) throw new Error(`--role: one or more (comma-separated) of ${OPERATOR_ROLES.join(', ')}`);

  const password = await operatorPassword(values['password-stdin'], io);

  const config = loadConfig(io.env ?? process.env);
  const db = io.db ?? (await openCliDb(config, { force: values.force }));
  try {
    const operator = await bootstrapOperator(db, createPasswordHasher({ concurrency: 1 }), {
      merchant: values.merchant, username, roles, password, additional: values.additional, platform: values.platform,
    });
    print(`operator ${operator.username} (${operator.roles.join(', ')}${operator.isPlatform ? ', platform administrator' : ''}) created on merchant ${operator.merchantCode} (${db.kind})`);
    if (!values['password-stdin']) print(`one-time password: ${password}`);
    print('it must be changed at the first sign-in to the back office (/ops); nothing else is allowed until then');
    return { operator, password };
  } finally {
    if (!io.db) await db.close();
  }
}

runAsMain(import.meta.url, () => runCreateOperator(process.argv.slice(2)));
