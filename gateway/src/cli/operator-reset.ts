/**
 * Let a locked-out operator back in (a forgotten password, a lost authenticator):
 *   npm run ops:reset-operator -- --merchant CODE --username NAME [--reset-authenticator] [--password-stdin]
 *
 * Sets a new one-time password (printed, or read from stdin with --password-stdin) that must be changed
 * at the next sign-in, clears the failed-login counter, signs out every session of the operator, and
 * with --reset-authenticator removes the enrolled authenticator, so the operator enrols a new one at the
 * next sign-in (the back office refuses everything else until then). Disabled operators stay disabled.
 * Audited (operator.reset, via cli). It needs shell access to the server's database, as creating the
 * first operator does: nobody can do this from the web.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../app/config.ts';
import type { Db } from '../db/db.ts';
import { createPasswordHasher } from '../modules/auth/password-hasher.ts';
import { audit, opsLoginKey, type Operator } from '../modules/ops/operators.ts';
import { openCliDb, operatorPassword, runAsMain, type CommandIo } from './cli-db.ts';

const USAGE = 'usage: npm run ops:reset-operator -- --merchant CODE --username NAME [--reset-authenticator] [--password-stdin]';

type Row = { id: number; merchant_code: string; username: string; roles: string[]; is_platform: boolean; status: string; totp_secret: string | null };

export async function resetOperator(db: Db, input: { merchant: string; username: string; passwordHash: string; resetAuthenticator: boolean }) {
  return db.tx(async (tx) => {
    const r = await tx.query<Row>(
      'SELECT id, merchant_code, username, roles, is_platform, status, totp_secret FROM operators WHERE merchant_code = $1 AND username = $2 FOR UPDATE',
      [input.merchant, input.username],
    );
    const row = r.rows[0];
    if (!row) throw new Error(`operator ${input.username} does not exist on merchant ${input.merchant}`);
    await tx.query(
      `UPDATE operators SET password_hash = $2, must_change_password = true,
              totp_secret = CASE WHEN $3 THEN NULL ELSE totp_secret END,
              totp_pending_secret = CASE WHEN $3 THEN NULL ELSE totp_pending_secret END
        WHERE id = $1`,
      [row.id, input.passwordHash, input.resetAuthenticator],
    );
    const sessions = await tx.query('DELETE FROM operator_sessions WHERE operator_id = $1', [row.id]);
    await tx.query('DELETE FROM rate_events WHERE key = $1', [opsLoginKey(input.merchant, input.username)]);
    const op = { id: row.id, merchantCode: row.merchant_code, username: row.username } as Operator;
    await audit(tx, op, 'operator.reset', { type: 'operator', id: row.id }, { authenticator: row.totp_secret !== null },
      { mustChangePassword: true, authenticator: input.resetAuthenticator ? false : row.totp_secret !== null, sessionsEnded: sessions.rowCount, via: 'cli' });
    return { status: row.status, sessionsEnded: sessions.rowCount, hadAuthenticator: row.totp_secret !== null };
  });
}

export async function runResetOperator(argv: string[], io: CommandIo = {}): Promise<{ password: string }> {
  const print = io.print ?? ((l: string) => console.log(l));
  const { values } = parseArgs({
    args: argv,
    options: {
      merchant: { type: 'string' },
      username: { type: 'string' },
      'reset-authenticator': { type: 'boolean', default: false },
      'password-stdin': { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.merchant || !values.username) throw new Error(USAGE);
  const username = values.username.trim().toLowerCase();
  const password = await operatorPassword(values['password-stdin'], io);
  const config = loadConfig(io.env ?? process.env);
  const db = io.db ?? (await openCliDb(config, { force: values.force }));
  try {
    const passwordHash = await createPasswordHasher({ concurrency: 1 }).hash(password);
    const r = await resetOperator(db, { merchant: values.merchant, username, passwordHash, resetAuthenticator: values['reset-authenticator'] });
    print(`operator ${username} on merchant ${values.merchant}: password reset, ${r.sessionsEnded} session(s) ended, failed sign-ins cleared` +
      (values['reset-authenticator'] ? (r.hadAuthenticator ? ', authenticator removed (enrol a new one at sign-in)' : ', no authenticator was enrolled') : ''));
    if (!values['password-stdin']) print(`one-time password: ${password}`);
    print('it must be changed at the next sign-in to the back office (/ops)');
    if (r.status !== 'active') print(`note: the operator is ${r.status}; this command does not enable it`);
    return { password };
  } finally {
    if (!io.db) await db.close();
  }
}

runAsMain(import.meta.url, () => runResetOperator(process.argv.slice(2)));
