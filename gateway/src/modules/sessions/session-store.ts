import { createHash, randomBytes } from 'node:crypto';
import { prepared, type Db, type Queryable, type Tx } from '../../db/db.ts';
import { revokeGameSessions } from '../provider/game-sessions.ts';

export type SessionInfo = {
  memberId: number; merchantCode: string; memberType: number; account: string;
  /** Responsible gaming: the exclusion in force, if any (a restricted session: see rg/restricted-session.ts). */
  rgExclusion?: { kind: string; until: string | null } | null;
  /** Opened by a password login whose password must change first (auth/password-change-gate.ts). */
  passwordChangeRequired?: boolean;
};

/** Session lifetimes: a session dies after this long unused, and after the absolute limit whatever happens. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 24 * 3600_000;
/** last_seen_at is written at most this often per session, to keep reads cheap. */
const TOUCH_EVERY_MS = 60_000;

/** 256 random bits, base64url; only the SHA-256 digest is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** What a session token (member or operator, newToken) looks like: anything else is not looked up. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * Ends every session of a member, with the games launched from them (revokeGameSessions): the one
 * revocation path for a password change, an operator disable and anything else that must stop a
 * member at once (an exclusion). In a transaction when the caller passes one.
 */
export async function revokeMemberSessions(q: Queryable, memberId: number): Promise<void> {
  await q.query('UPDATE sessions SET revoked_at = now() WHERE member_id = $1 AND revoked_at IS NULL', [memberId]);
  await revokeGameSessions(q, { memberId });
}

/**
 * When a member session is alive, in one place for every reader (HTTP calls and socket handshakes), so
 * that a way of ending sessions cannot be honoured by one and missed by the other. Aliases: `s` the
 * session, `m` its member; $2 is the idle limit in seconds.
 */
const SESSION_ALIVE = `s.revoked_at IS NULL AND s.expires_at > now()
     AND s.last_seen_at > now() - make_interval(secs => $2) AND m.status = 'active'
     -- The player's session time limit (responsible gaming): the session ends at it.
     AND NOT EXISTS (SELECT 1 FROM rg_session_settings rg WHERE rg.member_id = s.member_id AND rg.session_limit_minutes IS NOT NULL
                       AND s.created_at + make_interval(mins => rg.session_limit_minutes) <= now())`;

/** Every signed-in HTTP call runs this first: prepared once per connection (parsed and planned once). */
const RESOLVE_SQL = prepared(`SELECT s.member_id, s.merchant_code, m.type, m.account, s.password_change_required,
          s.last_seen_at < now() - make_interval(secs => $3) AS stale, rgx.kind AS rgx_kind, rgx.ends_at AS rgx_until
   FROM sessions s JOIN members m ON m.id = s.member_id
   -- An exclusion in force makes the session a restricted one (withdraw and the RG page only).
   LEFT JOIN LATERAL (SELECT x.kind, x.ends_at FROM rg_exclusions x WHERE x.member_id = s.member_id AND x.ended_at IS NULL
                        AND x.starts_at <= now() AND (x.ends_at IS NULL OR x.ends_at > now())
                      ORDER BY x.ends_at DESC NULLS FIRST LIMIT 1) rgx ON true
   WHERE s.token_hash = $1 AND ${SESSION_ALIVE}`);

/**
 * Socket handshakes, many tokens in one statement (see resolveForSocket): the live ones among $1 with
 * their member and merchant, and last_seen_at written for those not touched in $3 seconds, as an HTTP
 * call's resolve does (the same statement: one round trip). Without a stale row nothing is written (no
 * transaction id, no WAL flush).
 */
const RESOLVE_MANY_SQL = prepared(`WITH live AS (
     SELECT s.token_hash, s.member_id, s.merchant_code, m.type AS member_type, s.password_change_required, s.last_seen_at < now() - make_interval(secs => $3) AS stale
     FROM sessions s JOIN members m ON m.id = s.member_id
     -- Hashes travel as hex text: the same parameter on PostgreSQL and PGlite.
     WHERE s.token_hash = ANY(ARRAY(SELECT decode(h, 'hex') FROM unnest($1::text[]) h)) AND ${SESSION_ALIVE}
   ), touched AS (
     -- Rows another transaction holds (a revocation) are skipped, not waited for: a touch is worth
     -- nothing to a session being ended, and many rows locked in no set order could deadlock with it.
     UPDATE sessions t SET last_seen_at = now() WHERE t.token_hash IN (
       SELECT x.token_hash FROM sessions x WHERE x.token_hash IN (SELECT token_hash FROM live WHERE stale) FOR UPDATE SKIP LOCKED)
   )
   SELECT encode(token_hash, 'hex') AS hash, member_id, merchant_code, member_type, password_change_required FROM live`);

/**
 * A socket's session: its member, merchant and member type (trial accounts), and whether its password
 * must change first (such a session reads, and writes nothing but the change: password-change-gate.ts).
 */
export type SocketSession = { memberId: number; merchantCode: string; memberType: number; passwordChangeRequired: boolean };

/** Tokens of handshakes looked up in one statement, at most. */
const HANDSHAKE_BATCH_MAX = 500;
/** Batches in flight at once; the next handshakes wait for one of them and go in the following batch. */
const HANDSHAKE_BATCHES_IN_FLIGHT = 2;

type CreatedHook = (tx: Tx, s: { memberId: number; merchantCode: string }) => Promise<void>;
const isDb = (q: Queryable): q is Db => typeof (q as Partial<Db>).tx === 'function';

export function createSessionStore(db: Queryable, opts: { idleMs?: number; absoluteMs?: number } = {}) {
  const idleMs = opts.idleMs ?? SESSION_IDLE_MS;
  const absoluteMs = opts.absoluteMs ?? SESSION_ABSOLUTE_MS;
  const createdHooks: CreatedHook[] = [];

  type Waiting = { hash: string; resolve(v: SocketSession | null): void; reject(err: unknown): void };
  const waiting: Waiting[] = [];
  let inFlight = 0;
  function flushHandshakes() {
    while (waiting.length && inFlight < HANDSHAKE_BATCHES_IN_FLIGHT) {
      const batch = waiting.splice(0, HANDSHAKE_BATCH_MAX);
      inFlight++;
      const hashes = [...new Set(batch.map((w) => w.hash))];
      db.query<{ hash: string; member_id: number; merchant_code: string; member_type: number; password_change_required: boolean }>(RESOLVE_MANY_SQL, [hashes, idleMs / 1000, TOUCH_EVERY_MS / 1000])
        .then((r) => {
          const live = new Map(r.rows.map((row) => [row.hash, {
            memberId: Number(row.member_id), merchantCode: row.merchant_code, memberType: Number(row.member_type), passwordChangeRequired: row.password_change_required === true,
          }]));
          for (const w of batch) w.resolve(live.get(w.hash) ?? null);
        }, (err: unknown) => {
          for (const w of batch) w.reject(err);
        })
        .finally(() => {
          inFlight--;
          flushHandshakes();
        });
    }
  }

  return {
    idleMs,
    absoluteMs,
    /** Register a step to run inside the transaction that creates a session (sign-in missions). Needs a Db. */
    onCreated(hook: CreatedHook) {
      createdHooks.push(hook);
    },
    async create(memberId: number, merchantCode: string, ip: string | null = null, opts: { passwordChangeRequired?: boolean } = {}): Promise<string> {
      const token = newToken();
      const insert = (q: Queryable) => q.query(
        `INSERT INTO sessions (token_hash, member_id, merchant_code, expires_at, ip, password_change_required)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6)`,
        [hashToken(token), memberId, merchantCode, absoluteMs / 1000, ip, opts.passwordChangeRequired === true],
      );
      if (createdHooks.length && isDb(db)) {
        await db.tx(async (tx) => {
          await insert(tx);
          for (const h of createdHooks) await h(tx, { memberId, merchantCode });
        });
      } else {
        await insert(db);
      }
      return token;
    },
    async resolve(token: string): Promise<SessionInfo | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const r = await db.query<{ member_id: number; merchant_code: string; type: number; account: string; password_change_required: boolean; stale: boolean; rgx_kind: string | null; rgx_until: Date | string | null }>(
        RESOLVE_SQL,
        [hashToken(token), idleMs / 1000, TOUCH_EVERY_MS / 1000],
      );
      const row = r.rows[0];
      if (!row) return null;
      if (row.stale) await db.query('UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1', [hashToken(token)]);
      const rgExclusion = row.rgx_kind === null ? null : { kind: row.rgx_kind, until: row.rgx_until === null ? null : new Date(row.rgx_until).toISOString() };
      return { memberId: row.member_id, merchantCode: row.merchant_code, memberType: row.type, account: row.account, rgExclusion, passwordChangeRequired: row.password_change_required };
    },
    /**
     * The session of a socket handshake: member and merchant, or null when it is not alive. Same rules
     * as `resolve` (SESSION_ALIVE), read from the database for every handshake (no cache: a session
     * revoked by a committed transaction is refused by every node's next handshake). Handshakes come
     * in bursts (every browser of a node that restarted reconnects at once), so concurrent ones share
     * one statement: a handshake that finds fewer than 2 statements in flight starts one at once (no
     * added latency when quiet); under load the next statement takes every token that arrived meanwhile.
     */
    resolveForSocket(token: string): Promise<SocketSession | null> {
      if (!TOKEN_SHAPE.test(token)) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        waiting.push({ hash: hashToken(token).toString('hex'), resolve, reject });
        flushHandshakes();
      });
    },
    /** Logout: this session ends, and the games launched from it. */
    async revoke(token: string): Promise<void> {
      const hash = hashToken(token);
      await db.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hash]);
      await revokeGameSessions(db, { sessionHash: hash });
    },
    async revokeAll(memberId: number): Promise<void> {
      await revokeMemberSessions(db, memberId);
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
