import { randomInt } from 'node:crypto';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { OperatorRole } from '@portal/contracts/api/ops';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { TOKEN_SHAPE, hashToken, newToken } from '../sessions/session-store.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { spendTotpStep, totpEnrolment, totpStep } from '../auth/totp.ts';

/** isPlatform: the platform administrator, who may also create merchants (one at most: see migration 043). */
export type Operator = { id: number; merchantCode: string; username: string; roles: OperatorRole[]; mustChangePassword: boolean; totpEnrolled: boolean; isPlatform?: boolean };
type OperatorRow = {
  id: number; merchant_code: string; username: string; password_hash: string; roles: OperatorRole[]; must_change_password: boolean; status: 'active' | 'disabled';
  totp_secret: string | null; totp_pending_secret: string | null; created_at: Date | string; is_platform?: boolean;
};

const toOperator = (r: OperatorRow): Operator => ({
  id: Number(r.id), merchantCode: r.merchant_code, username: r.username, roles: r.roles, mustChangePassword: r.must_change_password, totpEnrolled: r.totp_secret !== null, isPlatform: r.is_platform === true,
});
/** The console's view of an operator (no secrets). */
export const toOperatorRow = (r: OperatorRow) => ({
  id: Number(r.id), username: r.username, roles: r.roles, status: r.status, totpEnrolled: r.totp_secret !== null,
  createdAt: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
});


/** Operator sessions: shorter than members' (back office), idle 30 minutes, 12 hours at most. */
const IDLE_S = 30 * 60;
const ABSOLUTE_S = 12 * 3600;
/** Failed logins per operator name in 15 minutes before it locks for 15 minutes. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

/** The demo operator, like the demo members: password '{secret}', changed at first login. */
export const DEMO_OPERATOR = 'ops01';
/** The demo's platform administrator (on the default merchant), same published password, changed at first login. */
export const DEMO_PLATFORM_OPERATOR = 'platform01';

/** An audit row in the caller's transaction: the audit trail is append-only (a trigger refuses UPDATE and DELETE). */
export async function audit(tx: Tx, op: Operator, action: string, target: { type: string; id: string | number }, before: unknown, after: unknown) {
  await tx.query(
    `INSERT INTO audit_log (merchant_code, operator_id, operator_username, action, target_type, target_id, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [op.merchantCode, op.id, op.username, action, target.type, String(target.id), before === undefined ? null : JSON.stringify(before), after === undefined ? null : JSON.stringify(after)],
  );
}

/** Letters and digits that cannot be misread (no 0/O, 1/l/I). */
const OTP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random one-time password (20 characters, about 116 bits) with a letter and a digit, as the password rule asks. */
export function oneTimePassword(length = 20): string {
  for (;;) {
    let s = '';
    for (let i = 0; i < length; i++) s += OTP_ALPHABET[randomInt(OTP_ALPHABET.length)];
    if (/[A-Za-z]/.test(s) && /\d/.test(s)) return s;
  }
}

/** Why a chosen initial password is refused, or null: the rule of a changed operator password (10+, a letter and a digit), and never the published default. */
export function initialPasswordProblem(password: string): string | null {
  if (password.length < 10 || password.length > 128) return 'the password must be 10 to 128 characters';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return 'the password needs a letter and a digit';
  if (password === LIMITS.DEFAULT_PASSWORD) return 'the published default password is not allowed';
  return null;
}

/**
 * Create an operator from the command line (`npm run ops:create-operator`), with a password that must
 * be changed at first login. The first operator of a merchant is the bootstrap: once the merchant has
 * one, another is created only when `additional` says so, so a rerun of a deployment script cannot add
 * a second admin silently. An existing username is always refused (this never resets a password).
 * Locks the merchant row, so two runs at once cannot both see "no operator yet".
 */
export async function bootstrapOperator(
  db: Db,
  hasher: Pick<PasswordHasher, 'hash'>,
  input: { merchant: string; username: string; roles: OperatorRole[]; password: string; additional: boolean; platform?: boolean },
): Promise<Operator> {
  const passwordHash = await hasher.hash(input.password);
  return db.tx(async (tx) => {
    const m = await tx.query('SELECT code FROM merchants WHERE code = $1 FOR UPDATE', [input.merchant]);
    if (!m.rows.length) throw new Error(`merchant ${input.merchant} does not exist (create it with \`npm run merchant:create\`)`);
    const existing = await tx.query<{ username: string }>('SELECT username FROM operators WHERE merchant_code = $1 ORDER BY id', [input.merchant]);
    if (existing.rows.some((r) => r.username === input.username)) throw new Error(`operator ${input.username} already exists on merchant ${input.merchant}`);
    if (existing.rows.length && !input.additional) {
      throw new Error(`merchant ${input.merchant} already has operators (${existing.rows.map((r) => r.username).join(', ')}): pass --additional to create another one`);
    }
    if (input.platform) {
      // Only the first: a platform administrator is never added by a rerun.
      const p = await tx.query<{ username: string; merchant_code: string }>('SELECT username, merchant_code FROM operators WHERE is_platform');
      if (p.rows.length) throw new Error(`the platform administrator already exists (${p.rows[0]!.username} on merchant ${p.rows[0]!.merchant_code})`);
    }
    const r = await tx.query<OperatorRow>(
      `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password, is_platform) VALUES ($1, $2, $3, $4, true, $5) RETURNING *`,
      [input.merchant, input.username, passwordHash, input.roles, input.platform === true],
    );
    const op = toOperator(r.rows[0]!);
    await audit(tx, op, 'operator.create', { type: 'operator', id: op.id }, undefined, { roles: op.roles, mustChangePassword: true, via: 'cli', ...(op.isPlatform ? { platform: true } : {}) });
    return op;
  });
}

/** The key of an operator session a socket was opened with (its token's hash, hex): names its control room. */
export const operatorSessionKey = (token: string) => hashToken(token).toString('hex');
type SessionsEnded = (operatorId: number, opts?: { only?: string; except?: string }) => Promise<void>;

/** The failure budget of an operator's logins (wrong passwords, wrong codes, wrong old passwords): rate_events key. */
export const opsLoginKey = (merchant: string, username: string) => `opslogin:${merchant}:${username}`;

export function createOperators(deps: { db: Db; hasher: PasswordHasher; limiter: RateLimiter }) {
  const { db, hasher, limiter } = deps;
  let dummy: Promise<string> | null = null;
  /**
   * Told after a commit that ended sessions of an operator (all of them, `only` one, or all `except` one,
   * by token hash): the app closes their sockets (realtime disconnectOperator), which would otherwise keep
   * hearing `ops:{code}` until they reconnect.
   */
  let sessionsEnded: SessionsEnded = async () => undefined;
  const announceEnded: SessionsEnded = (operatorId, opts) => sessionsEnded(operatorId, opts).catch(() => undefined);

  async function find(q: Queryable, merchant: string, username: string) {
    return (await q.query<OperatorRow>('SELECT * FROM operators WHERE merchant_code = $1 AND username = $2', [merchant, username])).rows[0] ?? null;
  }

  /**
   * Password, then (once enrolled) the authenticator code: without one, 401 TOTP_REQUIRED and no session;
   * a wrong code counts as a failed login (the same lock as a wrong password).
   */
  async function login(merchant: string, username: string, password: string, ip: string, totp?: string) {
    // Guesses sent at once are judged side by side (RateLimiter.judge): a failure past the limit recorded
    // meanwhile is answered as locked, and a right password is not confirmed (TOTP_REQUIRED would say so)
    // once the limit is reached (counted, judged, then recorded, 29 parallel guesses were judged and the
    // right one confirmed).
    const judged = (attempt: () => Promise<boolean>, wrong: ErrorCode) => limiter.judge(opsLoginKey(merchant, username), MAX_FAILURES, FAILURE_WINDOW_MS, attempt)
      .then((r) => { if (r !== 'ok') throw new AppError(r === 'locked' ? ErrorCode.LOGIN_LOCKED : wrong); });
    const row = await find(db, merchant, username);
    // A missing operator costs the same hash as a wrong password.
    await judged(async () => (await hasher.verify(row?.password_hash ?? (await (dummy ??= hasher.hash(`${Math.random()}`))), password)) && row?.status === 'active', ErrorCode.INVALID_CREDENTIALS);
    if (!row) throw new AppError(ErrorCode.INVALID_CREDENTIALS); // judged above; for the types
    if (row.totp_secret !== null) {
      if (!totp) throw new AppError(ErrorCode.TOTP_REQUIRED);
      const secret = row.totp_secret;
      await judged(() => acceptCode(row, secret, totp), ErrorCode.TOTP_INVALID);
    }
    const token = newToken();
    const op = toOperator(row);
    await db.tx(async (tx) => {
      await tx.query(
        `INSERT INTO operator_sessions (token_hash, operator_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
        [hashToken(token), row.id, ABSOLUTE_S],
      );
      await audit(tx, op, 'operator.login', { type: 'operator', id: row.id }, undefined, { ip });
    });
    return { token, operator: op };
  }

  /** A session (s, token hash $1) of an operator (o) that still holds: not revoked, expired or idle ($2 s), the operator active. */
  const SESSION_HOLDS = `s.token_hash = $1 AND o.id = s.operator_id AND s.revoked_at IS NULL AND s.expires_at > now()
         AND s.last_seen_at > now() - make_interval(secs => $2) AND o.status = 'active'`;

  async function resolve(token: string): Promise<Operator | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const r = await db.query<OperatorRow>(
      `UPDATE operator_sessions s SET last_seen_at = now() FROM operators o WHERE ${SESSION_HOLDS} RETURNING o.*`,
      [hashToken(token), IDLE_S],
    );
    return r.rows[0] ? toOperator(r.rows[0]) : null;
  }

  /**
   * The session's operator when the session still holds, as resolve() judges it, without counting as
   * activity (an open console socket asks this on its own; it must not keep an idle session alive).
   */
  async function check(token: string): Promise<Operator | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const r = await db.query<OperatorRow>(`SELECT o.* FROM operator_sessions s, operators o WHERE ${SESSION_HOLDS}`, [hashToken(token), IDLE_S]);
    return r.rows[0] ? toOperator(r.rows[0]) : null;
  }

  async function logout(op: Operator, token: string) {
    await db.tx(async (tx) => {
      await tx.query('UPDATE operator_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hashToken(token)]);
      await audit(tx, op, 'operator.logout', { type: 'operator', id: op.id }, undefined, undefined);
    });
    await announceEnded(op.id, { only: operatorSessionKey(token) });
  }

  async function changePassword(op: Operator, token: string, oldPassword: string, newPassword: string) {
    const row = (await db.query<OperatorRow>('SELECT * FROM operators WHERE id = $1', [op.id])).rows[0]!;
    // A wrong old password is a failed login of the operator (the same five in 15 minutes lock): a
    // session alone could otherwise guess the password without limit.
    const r = await limiter.judge(opsLoginKey(row.merchant_code, row.username), MAX_FAILURES, FAILURE_WINDOW_MS, () => hasher.verify(row.password_hash, oldPassword));
    if (r !== 'ok') throw new AppError(r === 'locked' ? ErrorCode.LOGIN_LOCKED : ErrorCode.OLD_PASSWORD_WRONG);
    if (newPassword === oldPassword || newPassword === LIMITS.DEFAULT_PASSWORD) throw new AppError(ErrorCode.PASSWORD_RULE);
    if (!/[A-Za-z]/.test(newPassword) || !/\d/.test(newPassword)) throw new AppError(ErrorCode.PASSWORD_RULE);
    const hash = await hasher.hash(newPassword);
    await db.tx(async (tx) => {
      await tx.query('UPDATE operators SET password_hash = $2, must_change_password = false WHERE id = $1', [op.id, hash]);
      // Other sessions of this operator end; this one goes on.
      await tx.query('UPDATE operator_sessions SET revoked_at = now() WHERE operator_id = $1 AND token_hash <> $2 AND revoked_at IS NULL', [op.id, hashToken(token)]);
      await audit(tx, op, 'operator.password', { type: 'operator', id: op.id }, { mustChangePassword: op.mustChangePassword }, { mustChangePassword: false });
    });
    await announceEnded(op.id, { except: operatorSessionKey(token) });
  }

  /**
   * A valid code of the secret (30 s steps, one step of drift either way), used once: its time step
   * must be later than the last one this operator used, and is stored in the same guarded update, so
   * a code seen over a shoulder or replayed (even by two requests at once) is refused in its window.
   */
  async function acceptCode(row: OperatorRow, secret: string, code: string): Promise<boolean> {
    const step = await totpStep(secret, code);
    return step !== null && spendTotpStep(db, 'operators', row.id, step);
  }

  /** Start (or restart) enrolment: a new pending secret, shown once as a QR code and as text. */
  async function totpSetup(op: Operator, issuer: string) {
    if (op.totpEnrolled) throw new AppError(ErrorCode.INVALID_STATE, 'The authenticator is already enrolled');
    const e = await totpEnrolment(issuer, `${op.username}@${op.merchantCode}`);
    await db.query('UPDATE operators SET totp_pending_secret = $2 WHERE id = $1', [op.id, e.secret]);
    return e;
  }

  /** Confirm enrolment with a code of the pending secret; from now on each login asks for a code. */
  async function totpConfirm(op: Operator, code: string) {
    const row = (await db.query<OperatorRow>('SELECT * FROM operators WHERE id = $1', [op.id])).rows[0]!;
    if (row.totp_secret !== null || row.totp_pending_secret === null) throw new AppError(ErrorCode.INVALID_STATE, 'Start the authenticator setup first');
    if (!(await acceptCode(row, row.totp_pending_secret, code))) throw new AppError(ErrorCode.TOTP_INVALID);
    await db.tx(async (tx) => {
      await tx.query('UPDATE operators SET totp_secret = totp_pending_secret, totp_pending_secret = NULL WHERE id = $1', [op.id]);
      await audit(tx, op, 'operator.totp_enrol', { type: 'operator', id: op.id }, { totpEnrolled: false }, { totpEnrolled: true });
    });
  }

  /** Seed the demo operator of the default merchant once (demo seed only). */
  async function ensureDemoOperator() {
    const m = await db.query<{ code: string }>('SELECT code FROM merchants WHERE is_default');
    const code = m.rows[0]?.code;
    if (!code) return;
    if (!(await find(db, code, DEMO_OPERATOR))) await db.query(
      `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password) VALUES ($1, $2, $3, ARRAY['administrator'], true)
       ON CONFLICT (merchant_code, username) DO NOTHING`,
      [code, DEMO_OPERATOR, await hasher.hash(LIMITS.DEFAULT_PASSWORD)],
    );
    if ((await db.query('SELECT 1 FROM operators WHERE is_platform')).rows.length) return;
    await db.query(
      `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password, is_platform) VALUES ($1, $2, $3, ARRAY['administrator'], true, true)
       ON CONFLICT DO NOTHING`,
      [code, DEMO_PLATFORM_OPERATOR, await hasher.hash(LIMITS.DEFAULT_PASSWORD)],
    );
  }

  /** A QA operator with chosen credentials (tests); `totpSecret` enrols its authenticator at once. */
  async function createOperator(merchant: string, username: string, password: string, roles: OperatorRole[], opts: { mustChangePassword?: boolean; totpSecret?: string } = {}) {
    const r = await db.query<OperatorRow>(
      `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password, totp_secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [merchant, username, await hasher.hash(password), roles, opts.mustChangePassword ?? false, opts.totpSecret ?? null],
    );
    return toOperator(r.rows[0]!);
  }

  /** Administrators: the merchant's operators. */
  async function list(merchant: string) {
    return (await db.query<OperatorRow>('SELECT * FROM operators WHERE merchant_code = $1 ORDER BY id', [merchant])).rows.map(toOperatorRow);
  }

  /** Administrators: a new operator with a one-time password (changed at first sign-in, then TOTP enrolment). */
  async function create(actor: Operator, username: string, roles: OperatorRole[]) {
    const password = oneTimePassword();
    const hash = await hasher.hash(password);
    return db.tx(async (tx) => {
      const r = await tx.query<OperatorRow>(
        `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password) VALUES ($1, $2, $3, $4, true)
         ON CONFLICT (merchant_code, username) DO NOTHING RETURNING *`,
        [actor.merchantCode, username, hash, roles],
      );
      if (!r.rows[0]) throw new AppError(ErrorCode.ACCOUNT_EXISTS);
      const row = toOperatorRow(r.rows[0]);
      await audit(tx, actor, 'operator.create', { type: 'operator', id: row.id }, undefined, { username, roles, via: 'console' });
      return { operator: row, password };
    });
  }

  /**
   * Administrators: roles, status (disabling ends its sessions) or a TOTP reset (the operator enrols again
   * at next sign-in). An administrator cannot disable or demote itself (the merchant must keep one).
   */
  async function update(actor: Operator, id: number, patch: { roles?: OperatorRole[]; status?: 'active' | 'disabled'; resetTotp?: true }) {
    const after = await db.tx(async (tx) => {
      const before = (await tx.query<OperatorRow>('SELECT * FROM operators WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, actor.merchantCode])).rows[0];
      if (!before) throw new AppError(ErrorCode.NOT_FOUND);
      if (Number(before.id) === actor.id && (patch.status === 'disabled' || (patch.roles && !patch.roles.includes('administrator')))) {
        throw new AppError(ErrorCode.INVALID_STATE, 'You cannot disable yourself or remove your own administrator role');
      }
      const r = await tx.query<OperatorRow>(
        `UPDATE operators SET roles = $2, status = $3, totp_secret = CASE WHEN $4 THEN NULL ELSE totp_secret END,
           totp_pending_secret = CASE WHEN $4 THEN NULL ELSE totp_pending_secret END WHERE id = $1 RETURNING *`,
        [id, patch.roles ?? before.roles, patch.status ?? before.status, patch.resetTotp === true],
      );
      if (patch.status === 'disabled' || patch.resetTotp || patch.roles) {
        await tx.query('UPDATE operator_sessions SET revoked_at = now() WHERE operator_id = $1 AND revoked_at IS NULL', [id]);
      }
      const after = toOperatorRow(r.rows[0]!);
      const b = toOperatorRow(before);
      await audit(tx, actor, 'operator.update', { type: 'operator', id }, { roles: b.roles, status: b.status, totpEnrolled: b.totpEnrolled },
        { roles: after.roles, status: after.status, totpEnrolled: after.totpEnrolled });
      return after;
    });
    if (patch.status === 'disabled' || patch.resetTotp || patch.roles) await announceEnded(id);
    return after;
  }

  /** Who closes the sockets of ended sessions (set once by the app, after its realtime server exists). */
  function onSessionsEnded(fn: SessionsEnded) {
    sessionsEnded = fn;
  }

  return { login, resolve, check, logout, changePassword, ensureDemoOperator, createOperator, totpSetup, totpConfirm, list, create, update, onSessionsEnded };
}
export type Operators = ReturnType<typeof createOperators>;
