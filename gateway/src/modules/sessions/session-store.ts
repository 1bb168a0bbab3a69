import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';

export type SessionInfo = { memberId: number; merchantCode: string; memberType: number; account: string };

/** 256 random bits, base64url; only the SHA-256 digest is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

export function createSessionStore(db: Queryable, absoluteTtlMs = 24 * 3600 * 1000) {
  return {
    async create(memberId: number, merchantCode: string): Promise<string> {
      const token = newToken();
      await db.query(
        `INSERT INTO sessions (token_hash, member_id, merchant_code, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [hashToken(token), memberId, merchantCode, absoluteTtlMs / 1000],
      );
      return token;
    },
    async resolve(token: string): Promise<SessionInfo | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const r = await db.query<{ member_id: number; merchant_code: string; type: number; account: string }>(
        `SELECT s.member_id, s.merchant_code, m.type, m.account FROM sessions s JOIN members m ON m.id = s.member_id
         WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND m.status = 'active'`,
        [hashToken(token)],
      );
      const row = r.rows[0];
      return row ? { memberId: row.member_id, merchantCode: row.merchant_code, memberType: row.type, account: row.account } : null;
    },
    async revoke(token: string): Promise<void> {
      await db.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hashToken(token)]);
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
