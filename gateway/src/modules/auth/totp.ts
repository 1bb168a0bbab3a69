import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

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

export async function totpEnrolment(issuer: string, account: string) {
  const secret = generateSecret();
  const otpauthUrl = generateURI({ issuer, label: account, secret });
  const qr = await QRCode.toDataURL(otpauthUrl, { width: 200, margin: 2 });
  return { secret, otpauthUrl, qr };
}
