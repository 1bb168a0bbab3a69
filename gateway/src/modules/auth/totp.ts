import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Queryable } from '../../db/db.ts';

/**
 * Authenticator (TOTP, RFC 6238) codes: 6 digits, 30 s, one step of clock drift either way.
 * The time step (30 s) a valid code belongs to, else null: what single-use checks store, so a code
 * (or an earlier one) cannot be used twice within its window.
 */
export async function totpStep(secret: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const r = await verify({ secret, token: code, epochTolerance: 30 });
  // epoch: the start (seconds) of the period the code matched
  return r.valid && 'epoch' in r ? Math.floor(r.epoch / 30) : null;
}

/**
 * Spend a step for a member or an operator: true once, and never for a step at or before the last one
 * spent (one guarded update, so two requests with one code cannot both pass).
 */
export async function spendTotpStep(q: Queryable, table: 'members' | 'operators', id: number, step: number): Promise<boolean> {
  const r = await q.query(`UPDATE ${table} SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`, [id, step]);
  return r.rows.length > 0;
}

export async function totpEnrolment(issuer: string, account: string) {
  const secret = generateSecret();
  const otpauthUrl = generateURI({ issuer, label: account, secret });
  const qr = await QRCode.toDataURL(otpauthUrl, { width: 200, margin: 2 });
  return { secret, otpauthUrl, qr };
}
