import type { Config } from '../app/config.ts';
import { createPgDb, createPgliteDb, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { initialPasswordProblem, oneTimePassword } from '../modules/ops/operators.ts';

/** What a command reads and writes besides its arguments, so tests can run it in-process. */
export type CommandIo = {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  readStdin?: () => Promise<string>;
  /** An open database to use (and leave open) instead of the server's: tests. */
  db?: Db;
};

/** Is a gateway on PGlite answering on this port? Then its data directory is taken. */
export async function pgliteServerRunning(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(500) });
    const body = (await res.json()) as { value?: { db?: string } };
    return body.value?.db === 'pglite';
  } catch {
    return false;
  }
}

/**
 * The server's database for a one-off command, migrated: PostgreSQL when DATABASE_URL is set, else
 * PGlite under DATA_DIR. A PGlite data directory can be opened by one process only, so the command
 * refuses while a PGlite gateway answers on PORT (unless `force`).
 */
export async function openCliDb(config: Config, opts: { force?: boolean } = {}): Promise<Db> {
  if (!config.DATABASE_URL && config.DATA_DIR !== ':memory:' && !opts.force && (await pgliteServerRunning(config.PORT))) {
    throw new Error(`a gateway on PGlite is running on port ${config.PORT} and holds ${config.DATA_DIR}: stop it first (PGlite allows one process per data directory)`);
  }
  const db = config.DATABASE_URL ? createPgDb(config.DATABASE_URL, 2) : await createPgliteDb(config.DATA_DIR === ':memory:' ? null : config.DATA_DIR);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/** Run a command's main when the file is the entry point: exit 0, or print the error and exit 1. */
export function runAsMain(url: string, main: () => Promise<unknown>) {
  if (url !== `file://${process.argv[1]}`) return;
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

/**
 * The initial password of an operator command: read from stdin (`--password-stdin`, one trailing
 * newline dropped, checked by the changed-password rule) or a generated one-time password.
 */
export async function operatorPassword(fromStdin: boolean, io: CommandIo): Promise<string> {
  if (!fromStdin) return oneTimePassword();
  const chunks: Buffer[] = [];
  const readAll = async () => {
    for await (const c of process.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
    return Buffer.concat(chunks).toString('utf8');
  };
  const password = (await (io.readStdin ?? readAll)()).replace(/\r?\n$/, '');
  const problem = initialPasswordProblem(password);
  if (problem) throw new Error(`--password-stdin: ${problem}`);
  return password;
}
