import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '@portal/contracts/domain/constants';
import { readMobile } from '@portal/contracts/domain/mobile';
import type { Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { SmsProvider } from '../notify/notifier.ts';

export type SmsPurpose = 'login' | 'register' | 'reset' | 'verify' | 'bind';

/** How long a code stays valid; the resend countdown is `expiredMinutes` (spec: default 1 minute). */
export const SMS_CODE_TTL_MS = 5 * 60_000;
/** Sends allowed per mobile number in the window before the 5-minute lock. */
export const SMS_MAX_PER_WINDOW = 5;
export const SMS_WINDOW_MS = 10 * 60_000;
/** Wrong guesses a code survives before it is burned. */
export const SMS_MAX_ATTEMPTS = 5;
/**
 * Guesses a number may make across all its codes in GUESS_WINDOW_MS: a fresh code (a resend) must not
 * bring a fresh set of guesses, or 5 sends x 5 guesses every 10 minutes walk through the code space.
 */
export const SMS_MAX_GUESSES_PER_WINDOW = 10;
export const GUESS_WINDOW_MS = 3600_000;

const hashCode = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest();

/** The number as readMobile reads it (contracts: the client's check is the same reading), else 400 INVALID_PHONE. */
export function normaliseMobile(dialing: string, mobile: string): { dialing: string; mobile: string } {
  const read = readMobile(dialing, mobile);
  if (!read) throw new AppError(ErrorCode.INVALID_PHONE);
  return read;
}

/**
 * The send limits every message to a person goes through (SMS codes, second-step SMS and e-mails):
 * one send a second per target, more than SMS_MAX_PER_WINDOW sends in the window lock the target,
 * and more than four times that from one address lock the address, each for 5 minutes.
 * `target` is the number ('+63917...') or the e-mail address.
 */
export function createSendLimits(limiter: RateLimiter) {
  return {
    /** Count one send to `target` from `ip`; returns the counted events, for `limiter.undo` when the send then fails. */
    async reserve(merchant: string, target: string, ip: string): Promise<string[]> {
      const targetKey = target.startsWith('+') ? `sms:${merchant}:${target.slice(1)}` : `mail:${merchant}:${target.toLowerCase()}`;
      const ipKey = `sms-ip:${merchant}:${ip}`;
      if ((await limiter.isLocked(targetKey)) || (await limiter.isLocked(ipKey))) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      const since = await limiter.sinceLast(targetKey, SMS_WINDOW_MS);
      if (since !== null && since < LIMITS.SMS_SEND_THROTTLE_MS) throw new AppError(ErrorCode.SMS_THROTTLED);
      // The lock is the whole penalty (spec section 9: 5 minutes): its sends are forgotten with it. Left
      // in the 10-minute window, they locked the number again at the first send after the lock (about 12 minutes in all).
      const recent = await limiter.count(targetKey, SMS_WINDOW_MS);
      if (recent >= SMS_MAX_PER_WINDOW) {
        await limiter.lock(targetKey, LIMITS.RATE_LIMIT_LOCK_MS);
        await limiter.clear(targetKey);
        throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      }
      if ((await limiter.count(ipKey, SMS_WINDOW_MS)) >= SMS_MAX_PER_WINDOW * 4) {
        await limiter.lock(ipKey, LIMITS.RATE_LIMIT_LOCK_MS);
        await limiter.clear(ipKey);
        throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      }
      return [await limiter.hit(targetKey), await limiter.hit(ipKey)];
    },
  };
}
export type SendLimits = ReturnType<typeof createSendLimits>;

/**
 * A guess budget that spans codes and challenges: each guess takes a slot before it is checked (so
 * parallel guesses cannot all slip under the limit), a right guess gives the slots back.
 */
export function createGuessBudget(limiter: RateLimiter, max: number, windowMs: number) {
  const isSpent = async (key: string) => (await limiter.count(key, windowMs)) >= max;
  return {
    isSpent,
    /** Take a slot for one guess; VERIFICATION_LOCKED when the budget was already spent. */
    async take(key: string): Promise<void> {
      // A spent budget takes no more slots, so hammering it does not push the end of the lock forward.
      if (await isSpent(key)) throw new AppError(ErrorCode.VERIFICATION_LOCKED);
      await limiter.hit(key);
      if ((await limiter.count(key, windowMs)) > max) throw new AppError(ErrorCode.VERIFICATION_LOCKED);
    },
    refund: (key: string) => limiter.clear(key),
  };
}

/** Send through the provider; any failure of it is PROVIDER_UNAVAILABLE (503), never a 500. */
async function deliverSms(sms: SmsProvider, to: string, text: string): Promise<void> {
  try {
    await sms.send(to, text);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
  }
}

export function createSmsCodes(db: Queryable, limiter: RateLimiter, sms: SmsProvider, opts: { expiredMinutes?: number } = {}) {
  const expiredMinutes = opts.expiredMinutes ?? LIMITS.SMS_DEFAULT_EXPIRED_MINUTES;
  const limits = createSendLimits(limiter);
  const guesses = createGuessBudget(limiter, SMS_MAX_GUESSES_PER_WINDOW, GUESS_WINDOW_MS);
  return {
    expiredMinutes,
    limits,
    /** False when no SMS provider is configured: callers refuse before they count or store anything. */
    get isAvailable() {
      return sms.isAvailable;
    },
    /**
     * A message that is not a stored code (second-step codes keep their own hash), under the same send
     * limits; `compose` runs only once the limits let the message go. A send that fails counts nothing.
     */
    async sendText(merchant: string, dialing: string, mobile: string, ip: string, compose: () => Promise<string>): Promise<void> {
      if (!sms.isAvailable) throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      const hits = await limits.reserve(merchant, `+${dialing}${mobile}`, ip);
      try {
        await deliverSms(sms, `+${dialing}${mobile}`, await compose());
      } catch (err) {
        await limiter.undo(...hits);
        throw err;
      }
    },
    /**
     * Send a fresh 6-digit code. Throttled to one a second per number, and more than
     * SMS_MAX_PER_WINDOW sends in the window lock the number (and the IP) for 5 minutes.
     */
    async send(merchant: string, purpose: SmsPurpose, dialingRaw: string, mobileRaw: string, ip: string, text: (code: string) => string,
      opts: { deliverIf?: (dialing: string, mobile: string) => Promise<boolean> } = {}) {
      const { dialing, mobile } = normaliseMobile(dialingRaw, mobileRaw);
      // Nothing can be sent: refuse before a counter is spent or a code stored.
      if (!sms.isAvailable) throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      const hits = await limits.reserve(merchant, `+${dialing}${mobile}`, ip);
      // A login or reset code for a number no member has: the same answer (the number's owner is not
      // told apart from a stranger, and the limits are spent alike), but no code is made and no text goes
      // to a phone that has no account here.
      if (opts.deliverIf && !(await opts.deliverIf(dialing, mobile))) return { expiredMinutes, dialing, mobile };
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const r = await db.query<{ id: number }>(
        `INSERT INTO sms_codes (merchant_code, purpose, dialing_code, mobile_num, code_hash, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING id`,
        [merchant, purpose, dialing, mobile, Buffer.alloc(32), SMS_CODE_TTL_MS / 1000],
      );
      const id = String(r.rows[0]!.id);
      await db.query('UPDATE sms_codes SET code_hash = $2 WHERE id = $1', [id, hashCode(id, code)]);
      try {
        await deliverSms(sms, `+${dialing}${mobile}`, text(code));
      } catch (err) {
        // Not sent: the code never reached anyone and the sends were not made, so neither is kept.
        await db.query('DELETE FROM sms_codes WHERE id = $1', [id]);
        await limiter.undo(...hits);
        throw err;
      }
      return { expiredMinutes, dialing, mobile };
    },

    /**
     * Check and consume the newest code for the number. Wrong guesses count against the code;
     * after SMS_MAX_ATTEMPTS it is burned. A used or expired code is refused. Guesses also count
     * against the number, across codes: past SMS_MAX_GUESSES_PER_WINDOW the number is refused
     * (VERIFICATION_LOCKED) until the window moves on.
     */
    async consume(merchant: string, purpose: SmsPurpose, dialingRaw: string, mobileRaw: string, codeRaw: string | undefined) {
      if (!codeRaw) throw new AppError(ErrorCode.SMS_CODE_MISSING);
      const { dialing, mobile } = normaliseMobile(dialingRaw, mobileRaw);
      const r = await db.query<{ id: number; code_hash: Buffer; attempts: number; expired: boolean; used: boolean }>(
        `SELECT id, code_hash, attempts, expires_at <= now() AS expired, used_at IS NOT NULL AS used FROM sms_codes
         WHERE merchant_code = $1 AND purpose = $2 AND dialing_code = $3 AND mobile_num = $4 ORDER BY created_at DESC, id DESC LIMIT 1`,
        [merchant, purpose, dialing, mobile],
      );
      const row = r.rows[0];
      if (!row || row.used || row.attempts >= SMS_MAX_ATTEMPTS) throw new AppError(ErrorCode.SMS_CODE_INVALID);
      if (row.expired) throw new AppError(ErrorCode.SMS_CODE_EXPIRED);
      const budgetKey = `sms-guess:${merchant}:${dialing}${mobile}`;
      await guesses.take(budgetKey);
      const ok = /^\d{6}$/.test(codeRaw) && timingSafeEqual(Buffer.from(row.code_hash), hashCode(String(row.id), codeRaw));
      if (!ok) {
        await db.query('UPDATE sms_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
        throw new AppError(ErrorCode.SMS_CODE_INVALID);
      }
      const used = await db.query('UPDATE sms_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id', [row.id]);
      if (!used.rows.length) throw new AppError(ErrorCode.SMS_CODE_INVALID);
      await guesses.refund(budgetKey);
      return { dialing, mobile };
    },
  };
}
export type SmsCodes = ReturnType<typeof createSmsCodes>;
