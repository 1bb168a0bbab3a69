import { createHash, randomBytes, randomInt } from 'node:crypto';
import { LIMITS, PLAYER_TYPE, TRIAL_TYPE } from '@portal/contracts/domain/constants';
import { isAgentType, isTrialType } from '@portal/contracts/domain/member';
import { ageOn, checkField, identityNameProblem, merchantClock, type RegistrationField } from '@portal/contracts/domain/registration';
import { MEMBER_ICONS, memberIconUrl, type MemberIcon, type TLoginBody, type TLoginValue, type TMemberInfo, type TRegisterBody } from '@portal/contracts/api/auth';
import { userAudience } from '@portal/contracts/events/events';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { activeExclusion } from '../rg/rg-service.ts';
import { isoDate, isRestrictedPerson, rgNameKey } from '../rg/restricted.ts';
import { marketRules } from '@portal/contracts/domain/markets';
import { ERROR_MESSAGES } from '@portal/contracts/api/errors';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { revokeMemberSessions, type SessionStore } from '../sessions/session-store.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { createPasswordGuard } from './password-guard.ts';
import { spendTotpStep } from './totp.ts';
import type { RateLimiter } from './rate-limit.ts';
import { botAnswerOf, type BotChecker, type Captchas } from './challenges.ts';
import { createGuessBudget, normaliseMobile, type SmsCodes } from './sms-codes.ts';
import type { Mailer } from '../notify/notifier.ts';
import { countriesFor, registrationRules, ruleOf } from './registration-settings.ts';
import { resetMail, secondStepBody, secondStepSubject, textLanguage, type TextLanguage } from './auth-texts.ts';
import { PATTERNS, compilePattern } from '@portal/contracts/domain/patterns';

/** The member's mobile number and e-mail as the member's own pages show them (masked). */
function contactOf(x: { dialing_code: string | null; mobile_num: string | null; email: string | null }): { mobileNum: string | null; email: string | null } {
  return {
    mobileNum: x.mobile_num ? `+${x.dialing_code} ${x.mobile_num.slice(0, 3)}****${x.mobile_num.slice(-3)}` : null,
    email: x.email ? x.email.replace(/^(.).*(@.*)$/, '$1***$2') : null,
  };
}
/** Pattern 3 of the registration catalogue (an e-mail address). */
/** The registration catalogue's e-mail rule (pattern 3), compiled once: reset by e-mail and binding an address check it. */
const EMAIL = compilePattern(PATTERNS.find((p) => p.id === 3)!.pattern);

/** Password-reset e-mails asked from one address per hour, whatever the usernames. */
const FORGOT_PER_IP_PER_HOUR = 20;
/** Failed logins per account in an hour before the account refuses all logins for the rest of the hour. */
export const MAX_FAILED_LOGINS_PER_HOUR = 100;
const HOUR = 3600_000;
/**
 * Second-step guesses (SMS, e-mail or authenticator code) per member in an hour, across every
 * challenge and resend; past it the second step is locked (VERIFICATION_LOCKED) until the hour moves on.
 */
export const SECOND_STEP_MAX_GUESSES_PER_HOUR = 5;
/** Codes sent per challenge (on top of the per-number and per-address send limits). */
const SECOND_STEP_MAX_SENDS = 5;
/**
 * Invitation codes that do not exist, per address in INVITATION_MISS_WINDOW_MS, before the address
 * is refused every invitation lookup for 5 minutes: codes must not be enumerable.
 */
export const INVITATION_MAX_MISSES = 10;
const INVITATION_MISS_WINDOW_MS = 10 * 60_000;
const RESET_TTL_MS = 30 * 60_000;
/** Registration fields read whatever the merchant's field settings say (register() drops the others when off). */
const KEPT_WHEN_OFF: ReadonlySet<RegistrationField> = new Set(['username', 'password', 'confirmPassword', 'captcha', 'verificationCode', 'affiliateCode']);

export type MemberRow = {
  id: number; merchant_code: string; account: string; nickname: string | null; type: number; status: string;
  password_hash: string | null; payment_password_hash?: string | null; must_change_password: boolean; password_expires_at: Date | string | null;
  dialing_code: string | null; mobile_num: string | null; email: string | null; first_login_at: Date | string | null;
  totp_secret: string | null; totp_enabled: boolean; language: string | null; parent_id: number | null; icon?: string | null;
};

export type AccountsDeps = {
  db: Db;
  sessions: SessionStore;
  hasher: PasswordHasher;
  limiter: RateLimiter;
  captchas: Captchas;
  bot: BotChecker;
  sms: SmsCodes;
  mailer: Mailer;
  /** Ends a member's sockets on every node. */
  disconnectMember(memberId: number): Promise<void>;
};

/** Member kinds: operator/system types (90 and above) are not members and cannot log in here. */
export const NON_MEMBER_TYPE_MIN = 90;

function fieldError(field: string, message: string) {
  return new AppError(ErrorCode.VALIDATION, message, [{ path: field, message }]);
}

export function createAccounts(deps: AccountsDeps) {
  const { db, sessions, hasher, limiter, captchas, bot, sms, mailer } = deps;
  const secondStepGuesses = createGuessBudget(limiter, SECOND_STEP_MAX_GUESSES_PER_HOUR, HOUR);
  // A signed-in member's password checks: wrong passwords given again, and comparisons of a new password
  // with the other one, each have a budget of the member's (password-guard.ts).
  const passwords = createPasswordGuard({ limiter, hasher });
  const secondStepKey = (memberId: number) => `2fa-guess:${memberId}`;
  let dummy: Promise<string> | null = null;
  /** Verified against when an account does not exist, so a miss costs the same as a wrong password. */
  const dummyHash = () => (dummy ??= hasher.hash(randomBytes(16).toString('hex')));

  /** Send through the mailer; any failure of it is PROVIDER_UNAVAILABLE (503), never a 500. */
  async function deliverMail(to: string, subject: string, text: string): Promise<void> {
    try {
      await mailer.send(to, subject, text);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
    }
  }

  async function findByAccount(q: Queryable, merchant: string, account: string): Promise<MemberRow | null> {
    const r = await q.query<MemberRow>('SELECT * FROM members WHERE merchant_code = $1 AND account_lower = $2', [merchant, account.toLowerCase()]);
    return r.rows[0] ?? null;
  }
  /** The merchant's own country's dialing code (its market's): +63 on LuckyPeso, +84 on LuckyDong. */
  function homeDialing(m: Merchant): string {
    return countriesFor(m.market)[0]?.countryDialingCode ?? '63';
  }
  /**
   * With MOBILENUMPASSREG3 on, a password login may name the account by its mobile number (the dialing
   * code the form sends, else the merchant's market's: +63 on LuckyPeso, +84 on LuckyDong; local or
   * international writing): the number as normaliseMobile reads it, or null when the flag is off or the
   * text is not a mobile number.
   */
  function loginMobile(m: Merchant, body: TLoginBody): { dialing: string; mobile: string } | null {
    if (!m.modules.MOBILENUMPASSREG3 || !body.username) return null;
    try {
      return normaliseMobile(body.countryDialingCode ?? homeDialing(m), body.username);
    } catch {
      return null;
    }
  }
  async function findByMobile(merchant: string, dialing: string, mobile: string): Promise<MemberRow | null> {
    const r = await db.query<MemberRow>('SELECT * FROM members WHERE merchant_code = $1 AND dialing_code = $2 AND mobile_num = $3', [merchant, dialing, mobile]);
    return r.rows[0] ?? null;
  }

  function passwordRule(m: Merchant) {
    return ruleOf(registrationRules(m), 'password');
  }

  /**
   * Open a session and say what the client must do next (spec section 4, login success). `forcedChange`:
   * a login held to the forced password change (a password login; not an SMS or social one, nor a trial):
   * when the password is the default or has expired (with PWDEXPFORCECHANGE3), the session is opened
   * as one that must change it before anything else (auth/password-change-gate.ts), so a reload or a
   * second tab cannot skip the change the login asked for.
   */
  async function openSession(m: Merchant, member: MemberRow, ip: string, opts: { forcedChange: boolean }): Promise<TLoginValue> {
    // An excluded player logs in to a restricted session: withdraw the balance and read the RG page,
    // nothing that plays, deposits, bets or transfers (rg/restricted-session.ts answers RG_EXCLUDED).
    const excluded = await activeExclusion(db, member.id);
    const firstTimeLogin = member.first_login_at === null;
    await db.query(
      'UPDATE members SET last_login_at = now(), first_login_at = COALESCE(first_login_at, now()) WHERE id = $1',
      [member.id],
    );
    await db.query('INSERT INTO member_ips (member_id, ip) VALUES ($1, $2) ON CONFLICT DO NOTHING', [member.id, ip]);
    const expiresAt = member.password_expires_at ? new Date(member.password_expires_at) : null;
    const passwordExpired = m.modules.PWDEXPFORCECHANGE3 && !!expiresAt && expiresAt.getTime() < Date.now();
    const defaultPassword = member.must_change_password;
    const token = await sessions.create(member.id, m.code, ip, { passwordChangeRequired: opts.forcedChange && (defaultPassword || passwordExpired) });
    return {
      token,
      firstTimeLogin,
      passwordExpired,
      defaultPassword,
      isAgent: isAgentType(member.type, m.agentTypes),
      isTrial: isTrialType(member.type, m.trialTypes),
      rgExclusion: excluded ? { kind: excluded.kind, until: excluded.ends_at === null ? null : new Date(excluded.ends_at).toISOString() } : null,
    };
  }

  function checkRoleAtLogin(m: Merchant, member: MemberRow, agentLogin: boolean | undefined) {
    if (member.status !== 'active') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
    if (member.type >= NON_MEMBER_TYPE_MIN) throw new AppError(ErrorCode.NON_MEMBER);
    if (agentLogin && !isAgentType(member.type, m.agentTypes)) throw new AppError(ErrorCode.NON_AGENT);
  }

  /**
   * Whether the next login of the account needs the captcha; `slots`: the attempt's own failure slots (of
   * the account and of the address), when asked for an attempt being judged (the failures and the attempts
   * in flight before it count, not it).
   */
  async function needsCaptcha(m: Merchant, accountKey: string, ip: string, slots?: { account: string; ip: string }): Promise<boolean> {
    const n = m.security.captchaAfterFailures;
    if (n <= 0) return true;
    const key = `login-fail:${accountKey}`;
    const ipKey = `login-fail-ip:${m.code}:${ip}`;
    const [a, i] = await Promise.all([
      slots === undefined ? limiter.count(key, HOUR) : limiter.countBefore(key, HOUR, slots.account),
      slots === undefined ? limiter.count(ipKey, HOUR) : limiter.countBefore(ipKey, HOUR, slots.ip),
    ]);
    return a >= n || i >= n * 3;
  }

  /**
   * Who an invitation code makes the upline: a member's own code (members.invitation_code), or an
   * agent's invitation link with a quota (agent_invitations, migration 027), which also gives the
   * account type. Every lookup (the code check and registration alike) counts its misses per address;
   * past INVITATION_MAX_MISSES the address is locked out of lookups. A disabled or expired invitation
   * reads as a miss; a used-up one is INVITATION_EXHAUSTED.
   */
  async function inviter(m: Merchant, code: string, ip: string): Promise<{ parentId: number; invitationId: number | null }> {
    const key = `invite-miss:${m.code}:${ip}`;
    if (await limiter.isLocked(key)) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
    // Codes are written in capitals (LUCKY8): one typed in small letters names the same upline.
    const up = await db.query<{ id: number }>(`SELECT id FROM members WHERE merchant_code = $1 AND invitation_code IN ($2, upper($2)) AND status = 'active' ORDER BY invitation_code = $2 DESC LIMIT 1`, [m.code, code]);
    if (up.rows[0]) return { parentId: up.rows[0].id, invitationId: null };
    const inv = await db.query<{ id: number; inviter_id: number; full: boolean }>(
      `SELECT i.id, i.inviter_id, i.used >= i.quota AS full FROM agent_invitations i JOIN members u ON u.id = i.inviter_id AND u.status = 'active'
        WHERE i.merchant_code = $1 AND i.code = upper($2) AND i.disabled_at IS NULL AND (i.expires_at IS NULL OR i.expires_at > now())`,
      [m.code, code],
    );
    if (inv.rows[0]) {
      if (inv.rows[0].full) throw new AppError(ErrorCode.INVITATION_EXHAUSTED);
      return { parentId: inv.rows[0].inviter_id, invitationId: inv.rows[0].id };
    }
    await limiter.hit(key);
    if ((await limiter.count(key, INVITATION_MISS_WINDOW_MS)) >= INVITATION_MAX_MISSES) await limiter.lock(key, LIMITS.RATE_LIMIT_LOCK_MS);
    throw new AppError(ErrorCode.INVALID_INVITATION_CODE);
  }

  /**
   * Who a referral code (member-centre `referral` link) names: an active member of this merchant. It
   * is no upline (the team tree is the invitation code's); misses count with the invitation lookups,
   * so neither kind of code can be enumerated.
   */
  async function referrer(m: Merchant, code: string, ip: string): Promise<number> {
    const key = `invite-miss:${m.code}:${ip}`;
    if (await limiter.isLocked(key)) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
    const r = await db.query<{ id: number }>(`SELECT id FROM members WHERE merchant_code = $1 AND referral_code = upper($2) AND status = 'active'`, [m.code, code]);
    if (r.rows[0]) return Number(r.rows[0].id);
    await limiter.hit(key);
    if ((await limiter.count(key, INVITATION_MISS_WINDOW_MS)) >= INVITATION_MAX_MISSES) await limiter.lock(key, LIMITS.RATE_LIMIT_LOCK_MS);
    throw new AppError(ErrorCode.REFERRAL_CODE_INVALID);
  }

  /**
   * One registration on an agent invitation, inside the member's insert transaction: the invitation
   * row locked, still open and not used up, counted once. Returns the account type it gives.
   */
  async function consumeInvitation(tx: Tx, invitationId: number): Promise<number> {
    const r = await tx.query<{ account_type: number; full: boolean; open: boolean }>(
      `SELECT account_type, used >= quota AS full, disabled_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AS open
         FROM agent_invitations WHERE id = $1 FOR UPDATE`,
      [invitationId],
    );
    const row = r.rows[0];
    if (!row || !row.open) throw new AppError(ErrorCode.INVALID_INVITATION_CODE);
    if (row.full) throw new AppError(ErrorCode.INVITATION_EXHAUSTED);
    await tx.query('UPDATE agent_invitations SET used = used + 1 WHERE id = $1', [invitationId]);
    return row.account_type;
  }

  /** A login from an address the member never used asks for a second step, where the member has one. */
  async function secondStepFor(m: Merchant, member: MemberRow, ip: string): Promise<AppError | null> {
    if (!m.security.newIpVerification) return null;
    const known = await db.query<{ ip: string }>('SELECT ip FROM member_ips WHERE member_id = $1', [member.id]);
    if (!known.rows.length || known.rows.some((r) => r.ip === ip)) return null;
    const methods: Array<'sms' | 'email' | 'totp'> = [];
    if (member.mobile_num) methods.push('sms');
    if (member.email) methods.push('email');
    if (member.totp_enabled) methods.push('totp');
    if (!methods.length) return null;
    if (await secondStepGuesses.isSpent(secondStepKey(member.id))) return new AppError(ErrorCode.VERIFICATION_LOCKED);
    // Another password login while a challenge from this address is open gets that challenge back
    // (its code, sends and guesses), not a fresh one with fresh budgets.
    const open = await db.query<{ id: string }>(
      `SELECT id FROM login_challenges WHERE member_id = $1 AND merchant_code = $2 AND ip = $3 AND used_at IS NULL
         AND expires_at > now() + interval '1 minute' ORDER BY expires_at DESC LIMIT 1`,
      [member.id, m.code, ip],
    );
    let id = open.rows[0]?.id;
    if (!id) {
      id = randomBytes(16).toString('base64url');
      await db.query(
        `INSERT INTO login_challenges (id, member_id, merchant_code, ip, methods, expires_at) VALUES ($1, $2, $3, $4, $5, now() + interval '10 minutes')`,
        [id, member.id, m.code, ip, methods],
      );
    } else {
      await db.query('UPDATE login_challenges SET methods = $2 WHERE id = $1', [id, methods]);
    }
    return new AppError(ErrorCode.VERIFICATION_REQUIRED, undefined, undefined, { challengeId: id, methods });
  }

  /** The member, once its login password is confirmed (OLD_PASSWORD_WRONG otherwise; trial accounts have nothing to bind). */
  async function passwordChecked(memberId: number, password: string, m: Merchant): Promise<MemberRow> {
    const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [memberId])).rows[0];
    if (!member) throw new AppError(ErrorCode.UNAUTHORIZED);
    if (isTrialType(member.type, m.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
    if (!password) throw fieldError('password', 'Input cannot be empty');
    await passwords.prove(Number(member.id), member.password_hash, password, ErrorCode.OLD_PASSWORD_WRONG);
    return member;
  }

  return {
    findByAccount: (merchant: string, account: string) => findByAccount(db, merchant, account),
    /** Whether a member of the merchant has this (normalised) mobile number: login and reset codes go to members only. */
    hasMobile: async (merchant: string, dialing: string, mobile: string) => (await findByMobile(merchant, dialing, mobile)) !== null,

    async login(m: Merchant, body: TLoginBody, ip: string): Promise<TLoginValue> {
      if (body.type === 'sms') {
        if (!m.modules.MOBILEVERCODELOGIN3) throw new AppError(ErrorCode.MODULE_DISABLED);
        const { dialing, mobile } = await sms.consume(m.code, 'login', body.countryDialingCode ?? '63', body.username, body.password);
        const member = await findByMobile(m.code, dialing, mobile);
        if (!member) throw new AppError(ErrorCode.USER_NOT_FOUND);
        checkRoleAtLogin(m, member, body.agentLogin);
        // An SMS login is itself a possession check: no second step, and no forced password change.
        const v = await openSession(m, member, ip, { forcedChange: false });
        return { ...v, defaultPassword: false, passwordExpired: false };
      }
      if (!body.username || !body.password) throw fieldError(!body.username ? 'username' : 'password', 'Input cannot be empty');
      // A number is one account however it is written ('0917...', '+63917...'): its failures count under
      // the number as read, beside the text as typed, so other writings of it bring no fresh tries.
      const asMobile = loginMobile(m, body);
      const accountKey = asMobile ? `${m.code}:+${asMobile.dialing}${asMobile.mobile}` : `${m.code}:${body.username.toLowerCase()}`;
      const assertNotLocked = async (key: string) => {
        if ((await limiter.count(`login-fail:${key}`, HOUR)) >= MAX_FAILED_LOGINS_PER_HOUR) throw new AppError(ErrorCode.LOGIN_LOCKED);
      };
      // The attempt holds a failure slot of the account while it is judged: attempts in flight count as
      // failures for the lock and for the captcha (counted, judged, then recorded, 15 parallel guesses were
      // all judged without the captcha asked after 3). A wrong password keeps the slot; anything else gives it back.
      const slot = await limiter.reserve(`login-fail:${accountKey}`, MAX_FAILED_LOGINS_PER_HOUR, HOUR);
      if (slot === null) throw new AppError(ErrorCode.LOGIN_LOCKED);
      // ... and one of its address, for the address's captcha threshold (a wrong password each on 24
      // accounts at once was judged without the captcha the address had earned).
      const ipSlot = await limiter.hit(`login-fail-ip:${m.code}:${ip}`);
      let failed = false;
      let member: NonNullable<Awaited<ReturnType<typeof findByAccount>>>;
      try {
        if (await needsCaptcha(m, accountKey, ip, { account: slot, ip: ipSlot })) await captchas.check(body.captchaKey, body.captcha);
        if (m.security.botCheck && !(await bot.verify(body.botId, botAnswerOf(body), { purpose: 'login', account: body.username }))) {
          throw new AppError(ErrorCode.BOT_CHECK_REQUIRED);
        }
        // The account by its name; with MOBILENUMPASSREG3, else by its mobile number. Found by its number,
        // the account's own failure count applies too (one budget per account, whichever name is typed).
        // A number of another country than the merchant's (its dialing code given, or written in full) is
        // looked up as that number first: its digits may be the name of the home number's account
        // ('9171234567' with +84 signed in to the +63 account).
        const byName = await findByAccount(db, m.code, body.username);
        const foreign = asMobile !== null && asMobile.dialing !== homeDialing(m);
        const byNumber = asMobile && (!byName || foreign) ? await findByMobile(m.code, asMobile.dialing, asMobile.mobile) : null;
        const found = foreign ? byNumber ?? byName : byName ?? byNumber;
        const memberKey = found && found.id !== byName?.id ? `${m.code}:${found.account.toLowerCase()}` : null;
        if (memberKey) await assertNotLocked(memberKey);
        const ok = await hasher.verify(found?.password_hash ?? (await dummyHash()), body.password);
        if (!found || !found.password_hash || !ok) {
          failed = true;
          if (memberKey) await limiter.hit(`login-fail:${memberKey}`);
          throw new AppError(ErrorCode.INVALID_CREDENTIALS, undefined, undefined, { captcha: await needsCaptcha(m, accountKey, ip) });
        }
        member = found;
      } finally {
        if (!failed) await limiter.undo(slot, ipSlot);
      }
      checkRoleAtLogin(m, member, body.agentLogin);
      // The default password forces a change (spec): recorded on the member, so that the login's second
      // step, the session it opens and the change itself all know it without the password.
      if (body.password === LIMITS.DEFAULT_PASSWORD && !member.must_change_password) {
        await db.query('UPDATE members SET must_change_password = true WHERE id = $1', [member.id]);
        member.must_change_password = true;
      }
      const second = await secondStepFor(m, member, ip);
      if (second) throw second;
      return openSession(m, member, ip, { forcedChange: true });
    },

    async sendSecondStep(m: Merchant, challengeId: string, method: 'sms' | 'email', ip: string, language?: string): Promise<{ expiredMinutes: number }> {
      const r = await db.query<{ member_id: number; methods: string[]; minutes_left: number }>(
        `SELECT member_id, methods, ceil(extract(epoch FROM expires_at - now()) / 60)::int AS minutes_left
           FROM login_challenges WHERE id = $1 AND merchant_code = $2 AND ip = $3 AND used_at IS NULL AND expires_at > now()`,
        [challengeId, m.code, ip],
      );
      const ch = r.rows[0];
      if (!ch || !ch.methods.includes(method)) throw new AppError(ErrorCode.VERIFICATION_REQUIRED);
      if (!(method === 'sms' ? sms.isAvailable : mailer.isAvailable)) throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      if (await secondStepGuesses.isSpent(secondStepKey(ch.member_id))) throw new AppError(ErrorCode.VERIFICATION_LOCKED);
      const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [ch.member_id])).rows[0]!;
      const since = await limiter.sinceLast(`2fa:${challengeId}`, HOUR);
      if (since !== null && since < LIMITS.SMS_SEND_THROTTLE_MS) throw new AppError(ErrorCode.SMS_THROTTLED);
      if ((await limiter.count(`2fa:${challengeId}`, HOUR)) >= SECOND_STEP_MAX_SENDS) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      const hits: string[] = [];
      const compose = async () => {
        hits.push(await limiter.hit(`2fa:${challengeId}`));
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        // A resend replaces the code but keeps the guesses already made: the budget is the member's, not the code's.
        await db.query(
          `UPDATE login_challenges SET code_hash = $2, code_method = $3 WHERE id = $1`,
          [challengeId, createHash('sha256').update(`${challengeId}:${code}`).digest(), method],
        );
        // In the page's language (else the brand's default), as the other codes sent are.
        // The code lives as long as its challenge: the minutes it has left, not 10 from this send.
        return secondStepBody(textLanguage(language, m.brand.defaultLanguage), m.brand.siteName, code, Math.max(1, ch.minutes_left));
      };
      try {
        // The same per-number and per-address send limits as every other message to a person.
        if (method === 'sms') {
          await sms.sendText(m.code, member.dialing_code!, member.mobile_num!, ip, compose);
        } else {
          hits.push(...(await sms.limits.reserve(m.code, member.email!, ip)));
          await deliverMail(member.email!, secondStepSubject(textLanguage(language, m.brand.defaultLanguage), m.brand.siteName), await compose());
        }
      } catch (err) {
        if (hits.length) {
          // Not sent: the code reached no one, so it is not kept and the send is not counted.
          await db.query('UPDATE login_challenges SET code_hash = NULL, code_method = NULL WHERE id = $1', [challengeId]);
          await limiter.undo(...hits);
        }
        throw err;
      }
      return { expiredMinutes: sms.expiredMinutes };
    },

    /**
     * `totpStep` gives the 30 s step a valid authenticator code belongs to (else null). The code is
     * single-use: the member's last accepted step is kept and a code of that step or an earlier one is
     * refused like a wrong one (migration 078), so one code cannot finish two logins.
     */
    async verifySecondStep(m: Merchant, challengeId: string, method: 'sms' | 'email' | 'totp', code: string, ip: string, totpStep: (secret: string, code: string) => Promise<number | null>): Promise<TLoginValue> {
      const r = await db.query<{ member_id: number; methods: string[]; code_hash: Buffer | null; code_method: string | null; attempts: number }>(
        `SELECT member_id, methods, code_hash, code_method, attempts FROM login_challenges
         WHERE id = $1 AND merchant_code = $2 AND ip = $3 AND used_at IS NULL AND expires_at > now()`,
        // Finished from the address that was challenged only (another address finished it with the code).
        [challengeId, m.code, ip],
      );
      const ch = r.rows[0];
      if (!ch || !ch.methods.includes(method)) throw new AppError(ErrorCode.VERIFICATION_REQUIRED);
      if (ch.attempts >= 5) throw new AppError(ErrorCode.VERIFICATION_LOCKED);
      const budgetKey = secondStepKey(ch.member_id);
      await secondStepGuesses.take(budgetKey);
      const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [ch.member_id])).rows[0]!;
      let ok = false;
      if (method === 'totp') {
        const step = member.totp_secret && member.totp_enabled ? await totpStep(member.totp_secret, code) : null;
        ok = step !== null && (await spendTotpStep(db, 'members', member.id, step));
      }
      else ok = ch.code_method === method && !!ch.code_hash && Buffer.from(ch.code_hash).equals(createHash('sha256').update(`${challengeId}:${code}`).digest());
      if (!ok) {
        const n = (await db.query<{ attempts: number }>('UPDATE login_challenges SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts', [challengeId])).rows[0]?.attempts ?? 5;
        // The fifth wrong code says the challenge is locked (it said "wrong code", then "verify first").
        if (n >= 5) throw new AppError(ErrorCode.VERIFICATION_LOCKED);
        throw new AppError(method === 'totp' ? ErrorCode.TOTP_INVALID : ErrorCode.SMS_CODE_INVALID);
      }
      const used = await db.query('UPDATE login_challenges SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id', [challengeId]);
      if (!used.rows.length) throw new AppError(ErrorCode.VERIFICATION_REQUIRED);
      await secondStepGuesses.refund(budgetKey);
      checkRoleAtLogin(m, member, false);
      // The second step of a password login.
      return openSession(m, member, ip, { forcedChange: true });
    },

    async register(m: Merchant, body: TRegisterBody, variant: 'username' | 'mobile', ip: string): Promise<{ memberId: number; login: TLoginValue | null }> {
      if (!m.modules.DIRECTREG3) throw new AppError(ErrorCode.MODULE_DISABLED);
      if (variant === 'username' && !m.modules.USERNAMEREG3) throw new AppError(ErrorCode.MODULE_DISABLED);
      if (variant === 'mobile' && !m.modules.MOBILENUMREG3) throw new AppError(ErrorCode.MODULE_DISABLED);
      if (!body.termsAccepted) throw new AppError(ErrorCode.TERMS_NOT_ACCEPTED);
      if (!body.ageConfirmed) throw new AppError(ErrorCode.UNDERAGE);
      const rules = registrationRules(m);
      const values: Partial<Record<RegistrationField, string>> = { ...body };
      // A field the merchant has switched off is not asked, so it is not kept either: its rule is not
      // checked (checkField passes a field that is off), and a transaction password of 'x' or an ID
      // number of '<>' sent anyway was saved. The invitation code comes with an agent's link, whatever
      // the form shows; the mobile number is the account of a mobile registration.
      for (const rule of rules) {
        if (rule.enabled || KEPT_WHEN_OFF.has(rule.field) || (variant === 'mobile' && rule.field === 'mobileNum')) continue;
        delete values[rule.field];
      }
      const home = homeDialing(m);
      const dialing = body.countryDialingCode ?? home;
      if (variant === 'mobile') {
        // registerMobile: the username is the mobile number.
        values.username = body.mobileNum ?? '';
      }
      const problems: Array<{ path: string; message: string }> = [];
      for (const rule of rules) {
        if (rule.field === 'captcha' || rule.field === 'verificationCode') continue;
        if (variant === 'mobile' && rule.field === 'username') continue;
        // Spec section 5: username (or, for registerMobile, the mobile number) and password are required
        // whatever the merchant's field config says, with the confirmation equal to the password.
        const mustHave = (variant === 'mobile' && rule.field === 'mobileNum') || rule.field === 'password' || rule.field === 'confirmPassword';
        // A required full name (always so where the market screens identities) is checked with the one
        // rule the social sign-in's identity step and the registration form also use: a name of
        // punctuation only is no name (it could not be screened).
        // The payment password is always required when shown (spec section 5), whatever its `required` says.
        const asked = mustHave ? { ...rule, enabled: true, required: true } : rule.field === 'paymentPassword' && rule.enabled ? { ...rule, required: true } : rule;
        const p = rule.field === 'payeeName' && rule.enabled && rule.required
          ? identityNameProblem(rule, values.payeeName)
          : checkField(asked, values[rule.field]);
        if (p) problems.push({ path: rule.field, message: 'key' in p ? `${p.key}:${p.range}` : 'Input cannot be empty' });
      }
      if (values.confirmPassword !== values.password) {
        problems.push({ path: 'confirmPassword', message: 'Confirmation password is not correct.' });
      }
      // The birthday's pattern lets 1990-02-30 through: a date the calendar does not have is a field error
      // here, before anything looks it up.
      if (values.birthday && !problems.some((p) => p.path === 'birthday') && !isoDate(values.birthday)) {
        problems.push({ path: 'birthday', message: 'Not a valid date' });
      }
      // The transaction password guards withdrawals: one the login password also opens guards nothing.
      if (values.paymentPassword && values.password && values.paymentPassword === values.password && !problems.some((p) => p.path === 'paymentPassword')) {
        problems.push({ path: 'paymentPassword', message: ERROR_MESSAGES.PASSWORDS_MUST_DIFFER });
      }
      if (problems.length) throw new AppError(ErrorCode.VALIDATION, 'Invalid input', problems);
      if (values.birthday) {
        const age = ageOn(values.birthday, merchantClock(m.brand.gmtOffsetMinutes)); // the birthday on the merchant's calendar
        if (age === null || age < m.brand.minAge) throw new AppError(ErrorCode.UNDERAGE);
      }
      if (ruleOf(rules, 'captcha').enabled) await captchas.check(body.captchaKey, body.captcha);
      // Philippine rules: a person on the merchant's restricted-persons list cannot register (normalized
      // full name + birth date). The answer names no list and no category.
      const market = marketRules(m.market);
      if (market.restrictedPersons && values.payeeName && values.birthday && (await isRestrictedPerson(db, m.code, values.payeeName, values.birthday))) {
        await db.query(
          `INSERT INTO audit_log (merchant_code, operator_id, operator_username, action, target_type, target_id, before, after)
           VALUES ($1, NULL, 'system', 'rg.restricted.refused', 'registration', $2, NULL, $3)`,
          [m.code, variant === 'mobile' ? (values.mobileNum ?? '') : (values.username ?? ''), JSON.stringify({ ip })]);
        throw new AppError(ErrorCode.RESTRICTED_PERSON);
      }
      const nameKey = values.payeeName ? rgNameKey(values.payeeName) || null : null;
      const birthDate = values.birthday && isoDate(values.birthday) ? values.birthday : null;
      // What the player can fix on the form without a new code is checked before the code is spent: a
      // taken username, an invitation or referral code that does not exist (each spent it, and the corrected
      // form then needed another text). The insert's unique keys still decide a race.
      const invitation = body.affiliateCode || null;
      const invited = invitation ? await inviter(m, invitation, ip) : null;
      const parentId = invited?.parentId ?? null;
      const referrerId = body.referralCode ? await referrer(m, body.referralCode, ip) : null;
      if (variant === 'username' && values.mobileNum && m.modules.REGMOBVERF3) {
        const taken = await db.query('SELECT 1 FROM members WHERE merchant_code = $1 AND account_lower = lower($2)', [m.code, values.username!]);
        if (taken.rows[0]) throw new AppError(ErrorCode.ACCOUNT_EXISTS);
      }
      let mobile: { dialing: string; mobile: string } | null = null;
      if (values.mobileNum) {
        // With SMS verification on, a number given is a number proven, required or not: an unproven one
        // was kept and took the number from its owner (MOBILE_EXISTS when they bind or register it).
        if (m.modules.REGMOBVERF3) {
          mobile = await sms.consume(m.code, 'register', dialing, values.mobileNum, body.verificationCode);
        } else {
          mobile = normaliseMobile(dialing, values.mobileNum);
        }
      }
      // A number of the merchant's own country is its account as written (9171234567); another country's
      // keeps its dialing code in front (849171234567): the same digits under +84 are another person,
      // and were refused as ACCOUNT_EXISTS once the +63 number had registered.
      const account = variant === 'mobile' ? (mobile!.dialing === home ? mobile!.mobile : `${mobile!.dialing}${mobile!.mobile}`) : values.username!;
      const passwordHash = await hasher.hash(values.password!);
      const paymentHash = values.paymentPassword ? await hasher.hash(values.paymentPassword) : null;
      const maxAge = m.security.passwordMaxAgeDays;
      let memberId: number;
      try {
        const insert = (q: Queryable, type: number) => q.query<{ id: number }>(
          `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, payment_password_hash,
             password_changed_at, password_expires_at, dialing_code, mobile_num, email, payee_name, profile, parent_id, register_ip, invitation_id, rg_name_key, birth_date, referrer_id)
           VALUES ($1, $2, lower($2), $3, $15, $4, $5, now(), CASE WHEN $6::int > 0 THEN now() + make_interval(days => $6::int) END,
             $7, $8, $9, $10, $11, $12, $13, $14, $16, $17::date, $18) RETURNING id`,
          [m.code, account, body.nickname ?? null, passwordHash, paymentHash, maxAge, mobile?.dialing ?? null, mobile?.mobile ?? null,
            values.email || null, values.payeeName || null,
            JSON.stringify({ birthday: values.birthday, line: values.line, whatsapp: values.whatsapp, facebook: values.facebook, wechat: values.wechat, qqNum: values.qqNum, idNumber: values.idNumber, referralCode: body.referralCode, registerUrl: body.registerUrl, domain: body.domain }),
            parentId, ip, invited?.invitationId ?? null, type, nameKey, birthDate, referrerId],
        );
        const invitationId = invited?.invitationId ?? null;
        const r = invitationId === null
          ? await insert(db, PLAYER_TYPE)
          : await db.tx(async (tx) => insert(tx, await consumeInvitation(tx, invitationId)));
        memberId = r.rows[0]!.id;
      } catch (err) {
        if ((err as { code?: string }).code === '23505') {
          const detail = String((err as { constraint?: string; message?: string }).constraint ?? (err as Error).message);
          throw new AppError(detail.includes('mobile') ? ErrorCode.MOBILE_EXISTS : ErrorCode.ACCOUNT_EXISTS);
        }
        throw err;
      }
      if (!body.login) return { memberId, login: null };
      const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [memberId])).rows[0]!;
      return { memberId, login: await openSession(m, member, ip, { forcedChange: true }) };
    },

    async checkInvitation(m: Merchant, code: string, ip: string): Promise<void> {
      await inviter(m, code, ip);
    },

    async freePlay(m: Merchant, ip: string): Promise<TLoginValue> {
      if (!m.modules.FREEPLAY3) throw new AppError(ErrorCode.MODULE_DISABLED);
      const ipKey = `freeplay:${m.code}:${ip}`;
      if ((await limiter.count(ipKey, HOUR)) >= 30) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      await limiter.hit(ipKey);
      const account = `trial_${randomBytes(5).toString('hex')}`;
      const r = await db.query<MemberRow>(
        `INSERT INTO members (merchant_code, account, account_lower, nickname, type, register_ip) VALUES ($1, $2, $2, $3, $4, $5) RETURNING *`,
        [m.code, account, 'Guest', TRIAL_TYPE, ip],
      );
      return openSession(m, r.rows[0]!, ip, { forcedChange: false });
    },

    async logout(token: string, memberId: number): Promise<void> {
      await sessions.revoke(token);
      await db.tx(async (tx) => {
        await emitEvent(tx, (await tx.query<{ merchant_code: string }>('SELECT merchant_code FROM members WHERE id = $1', [memberId])).rows[0]!.merchant_code,
          userAudience(memberId), 'system.logout', { reason: 'logout', session: createHash('sha256').update(token).digest('hex').slice(0, 16) });
      });
      await deps.disconnectMember(memberId);
    },

    async disable(memberId: number): Promise<void> {
      const merchant = await db.tx(async (tx) => {
        const r = await tx.query<{ merchant_code: string }>(`UPDATE members SET status = 'disabled' WHERE id = $1 RETURNING merchant_code`, [memberId]);
        if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
        await revokeMemberSessions(tx, memberId);
        await emitEvent(tx, r.rows[0].merchant_code, userAudience(memberId), 'system.logout', { reason: 'disabled' });
        return r.rows[0].merchant_code;
      });
      void merchant;
      await deps.disconnectMember(memberId);
    },

    async enable(memberId: number): Promise<void> {
      const r = await db.query(`UPDATE members SET status = 'active' WHERE id = $1 RETURNING id`, [memberId]);
      if (!r.rows.length) throw new AppError(ErrorCode.NOT_FOUND);
    },

    async info(m: Merchant, memberId: number): Promise<TMemberInfo> {
      const r = await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [memberId]);
      const x = r.rows[0];
      if (!x) throw new AppError(ErrorCode.UNAUTHORIZED);
      return {
        id: x.id, account: x.account, nickname: x.nickname, type: x.type,
        isAgent: isAgentType(x.type, m.agentTypes), isTrial: isTrialType(x.type, m.trialTypes),
        currencySymbol: m.brand.currencySymbol, language: x.language ?? m.brand.defaultLanguage,
        imgUrl: x.icon && (MEMBER_ICONS as readonly string[]).includes(x.icon) ? memberIconUrl(x.icon as MemberIcon) : null,
        ...contactOf(x),
        totpEnabled: x.totp_enabled,
        hasUpline: x.parent_id !== null,
        rgExclusion: await activeExclusion(db, x.id).then((e) => (e ? { kind: e.kind, until: e.ends_at === null ? null : new Date(e.ends_at).toISOString() } : null)),
      };
    },

    /**
     * `forced`: the session was opened by a login that must change the password (a password login
     * moments ago: the password was proven then), so the old one is not asked again; likewise when the
     * stored password is the default.
     */
    async changePassword(m: Merchant, memberId: number, body: { oldPassword?: string | undefined; newPassword: string; confirmNewPassword: string }, ip: string, forced = false): Promise<TLoginValue> {
      const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [memberId])).rows[0];
      if (!member) throw new AppError(ErrorCode.UNAUTHORIZED);
      if (isTrialType(member.type, m.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
      const isDefault = forced || member.must_change_password || (!!member.password_hash && (await hasher.verify(member.password_hash, LIMITS.DEFAULT_PASSWORD)));
      if (!isDefault) {
        if (!body.oldPassword) throw fieldError('oldPassword', 'Input cannot be empty');
        await passwords.prove(Number(member.id), member.password_hash, body.oldPassword, ErrorCode.OLD_PASSWORD_WRONG);
        if (body.newPassword === body.oldPassword) throw new AppError(ErrorCode.PASSWORD_UNCHANGED, undefined, [{ path: 'newPassword', message: ERROR_MESSAGES.PASSWORD_UNCHANGED }]);
      } else if (member.password_hash && (await hasher.verify(member.password_hash, body.newPassword))) {
        // A forced change (expired, flagged, the default) to the password the account already has would
        // clear the flag and change nothing: the change could be skipped by typing the current one again.
        throw new AppError(ErrorCode.PASSWORD_UNCHANGED, undefined, [{ path: 'newPassword', message: ERROR_MESSAGES.PASSWORD_UNCHANGED }]);
      }
      return setPassword(m, member, body.newPassword, body.confirmNewPassword, ip);
    },

    /**
     * E-mail a reset link. `origin` is the merchant's own site (see merchants/link-origin.ts), never
     * a request header; nothing is counted or stored when no mail can be sent.
     */
    async forgotByEmail(m: Merchant, username: string, email: string, origin: string, ip: string, lang: TextLanguage = 'EN'): Promise<void> {
      // "Username and valid email required" (spec section 5): a malformed address is a field error, not
      // "does not exist", and spends no limit.
      if (!username) throw fieldError('username', 'Input cannot be empty');
      if (!EMAIL.test(email)) throw fieldError('email', 'Not a valid e-mail address');
      if (!mailer.isAvailable) throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      // Per address: USER_NOT_FOUND tells whether a username/e-mail pair exists, so one address may not
      // try many pairs. Failed tries count only there: counted per username as well, anyone could spend
      // an account's budget with wrong e-mails and keep its owner from recovering it (an hour).
      const ipKey = `forgot-ip:${m.code}:${ip}`;
      if ((await limiter.count(ipKey, HOUR)) >= FORGOT_PER_IP_PER_HOUR) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      const ipHit = await limiter.hit(ipKey);
      const member = await findByAccount(db, m.code, username);
      if (!member || !member.email || member.email.toLowerCase() !== email.toLowerCase() || member.status !== 'active') {
        throw new AppError(ErrorCode.USER_NOT_FOUND);
      }
      // A mail is sent: the limits of every message to a person (one a second per address, a burst
      // locks the address for 5 minutes, as the refusal says; sms-codes.ts createSendLimits).
      const hits = [ipHit, ...(await sms.limits.reserve(m.code, member.email, ip))];
      const token = randomBytes(32).toString('base64url');
      await db.query(
        'INSERT INTO password_resets (token_hash, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))',
        [createHash('sha256').update(token).digest(), member.id, RESET_TTL_MS / 1000],
      );
      const link = `${origin}/?resetToken=${token}`;
      try {
        const mail = resetMail(lang, m.brand.siteName, member.nickname ?? member.account, link);
        await deliverMail(member.email, mail.subject, mail.body);
      } catch (err) {
        // Not sent: the token reached no one and the request spends no limit.
        await db.query('DELETE FROM password_resets WHERE token_hash = $1', [createHash('sha256').update(token).digest()]);
        await limiter.undo(...hits);
        throw err;
      }
    },

    async resetByToken(m: Merchant, token: string, newPassword: string, confirm: string, ip: string): Promise<TLoginValue> {
      const hash = createHash('sha256').update(token).digest();
      const r = await db.query<{ member_id: number }>(
        'SELECT member_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()', [hash]);
      const row = r.rows[0];
      if (!row) throw new AppError(ErrorCode.RESET_TOKEN_INVALID);
      const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1 AND merchant_code = $2', [row.member_id, m.code])).rows[0];
      if (!member) throw new AppError(ErrorCode.RESET_TOKEN_INVALID);
      // Before the link is spent: a password the rules refuse leaves it usable for a second try.
      checkNewPassword(m, newPassword, confirm);
      const used = await db.query('UPDATE password_resets SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL RETURNING member_id', [hash]);
      if (!used.rows.length) throw new AppError(ErrorCode.RESET_TOKEN_INVALID);
      // Not the password it has, nor the transaction password: each refusal spends the link (one guess per
      // link, and links are limited per hour), as the SMS reset spends its code; no budget of the member's
      // is asked, so a stolen session spending one cannot keep the owner from resetting.
      await resetRefusals(member, newPassword);
      return setPassword(m, member, newPassword, confirm, ip, true);
    },

    async resetByMobile(m: Merchant, body: { newPassword: string; confirmNewPassword?: string | undefined; mobileNum: string; countryDialingCode: string; verificationCode: string }, ip: string): Promise<TLoginValue> {
      checkNewPassword(m, body.newPassword, body.confirmNewPassword ?? body.newPassword);
      const { dialing, mobile } = await sms.consume(m.code, 'reset', body.countryDialingCode, body.mobileNum, body.verificationCode);
      const member = await findByMobile(m.code, dialing, mobile);
      if (!member) throw new AppError(ErrorCode.USER_NOT_FOUND);
      await resetRefusals(member, body.newPassword); // the code is spent: one guess per code
      return setPassword(m, member, body.newPassword, body.confirmNewPassword ?? body.newPassword, ip, true);
    },

    /** The member's profile picture, one of MEMBER_ICONS (checked by the call's contract and the column's CHECK). */
    /**
     * Security centre: add or change the member's mobile number (the code sent to it, purpose 'bind') or
     * e-mail. Both ask the login password: a session alone does not change where reset codes and links
     * go. A number another member has is refused (MOBILE_EXISTS); the code is checked only after the
     * password, so a wrong password spends no guess. Answers the masked contact, as member info shows it.
     */
    async bindMobile(m: Merchant, memberId: number, body: { mobileNum: string; countryDialingCode: string; verificationCode: string; password: string }) {
      const member = await passwordChecked(memberId, body.password, m);
      const { dialing, mobile } = normaliseMobile(body.countryDialingCode, body.mobileNum);
      const other = await findByMobile(m.code, dialing, mobile);
      if (other && Number(other.id) !== Number(member.id)) throw new AppError(ErrorCode.MOBILE_EXISTS);
      await sms.consume(m.code, 'bind', dialing, mobile, body.verificationCode);
      try {
        return contactOf((await db.query<MemberRow>('UPDATE members SET dialing_code = $2, mobile_num = $3 WHERE id = $1 RETURNING *', [member.id, dialing, mobile])).rows[0]!);
      } catch (err) {
        // Taken between the check and the update (the unique index decides).
        if ((err as { code?: string }).code === '23505') throw new AppError(ErrorCode.MOBILE_EXISTS);
        throw err;
      }
    },
    async bindEmail(m: Merchant, memberId: number, body: { email: string; password: string }) {
      if (!EMAIL.test(body.email)) throw fieldError('email', 'Not a valid e-mail address');
      const member = await passwordChecked(memberId, body.password, m);
      return contactOf((await db.query<MemberRow>('UPDATE members SET email = $2 WHERE id = $1 RETURNING *', [member.id, body.email])).rows[0]!);
    },

    async setIcon(memberId: number, icon: MemberIcon): Promise<{ imgUrl: string }> {
      await db.query('UPDATE members SET icon = $2 WHERE id = $1', [memberId, icon]);
      return { imgUrl: memberIconUrl(icon) };
    },
    /**
     * A new authenticator secret, off until confirmed. Refused while one is on (409 INVALID_STATE): a new
     * setup turned the working one off at once, so any session (a stolen one) could remove the second
     * factor without a password or a code. The security centre offers setup only while it is off.
     */
    async setTotpSecret(memberId: number, secret: string): Promise<void> {
      const r = await db.query('UPDATE members SET totp_secret = $2, totp_enabled = false, totp_last_step = NULL WHERE id = $1 AND NOT totp_enabled', [memberId, secret]);
      if (r.rowCount === 0) throw new AppError(ErrorCode.INVALID_STATE, 'An authenticator is already on for this account');
    },
    async enableTotp(memberId: number, code: string, totpStep: (secret: string, code: string) => Promise<number | null>): Promise<void> {
      const r = await db.query<{ totp_secret: string | null }>('SELECT totp_secret FROM members WHERE id = $1', [memberId]);
      const secret = r.rows[0]?.totp_secret;
      const step = secret ? await totpStep(secret, code) : null;
      if (step === null) throw new AppError(ErrorCode.TOTP_INVALID);
      // The code that turned it on is spent: it cannot also finish a login. A new secret starts afresh.
      await db.query('UPDATE members SET totp_enabled = true, totp_last_step = $2 WHERE id = $1', [memberId, step]);
    },
    /** A social sign-in's session: not held to the forced password change (spec section 4). */
    sessionFor: (m: Merchant, member: MemberRow, ip: string) => openSession(m, member, ip, { forcedChange: false }),
  };

  function checkNewPassword(m: Merchant, password: string, confirm: string) {
    const p = checkField(passwordRule(m), password);
    if (p) throw new AppError(ErrorCode.PASSWORD_RULE, undefined, [{ path: 'newPassword', message: 'key' in p ? `${p.key}:${p.range}` : 'Input cannot be empty' }]);
    if (password === LIMITS.DEFAULT_PASSWORD) throw new AppError(ErrorCode.PASSWORD_RULE);
    if (confirm !== password) throw new AppError(ErrorCode.PASSWORD_MISMATCH);
  }

  /**
   * What a reset (proven by its link or code, which the caller has spent) may not set: the password the
   * account has (a change to it is refused too) or the transaction password.
   */
  async function resetRefusals(member: MemberRow, password: string) {
    if (member.password_hash && (await hasher.verify(member.password_hash, password))) {
      throw new AppError(ErrorCode.PASSWORD_UNCHANGED, undefined, [{ path: 'newPassword', message: ERROR_MESSAGES.PASSWORD_UNCHANGED }]);
    }
    if (member.payment_password_hash && (await hasher.verify(member.payment_password_hash, password))) {
      throw new AppError(ErrorCode.PASSWORDS_MUST_DIFFER, undefined, [{ path: 'newPassword', message: ERROR_MESSAGES.PASSWORDS_MUST_DIFFER }]);
    }
  }

  /** The login password may not be the transaction password (that one guards withdrawals). */
  async function checkDiffersFromPayment(member: MemberRow, password: string) {
    if (await passwords.matches(Number(member.id), member.payment_password_hash ?? null, password)) {
      throw new AppError(ErrorCode.PASSWORDS_MUST_DIFFER, undefined, [{ path: 'newPassword', message: ERROR_MESSAGES.PASSWORDS_MUST_DIFFER }]);
    }
  }

  /** New password: every session ends (sockets too), and a fresh one is opened for this login. */
  async function setPassword(m: Merchant, member: MemberRow, password: string, confirm: string, ip: string, differsChecked = false): Promise<TLoginValue> {
    checkNewPassword(m, password, confirm);
    if (!differsChecked) await checkDiffersFromPayment(member, password);
    const hash = await hasher.hash(password);
    const maxAge = m.security.passwordMaxAgeDays;
    await db.query(
      `UPDATE members SET password_hash = $2, must_change_password = false, password_changed_at = now(),
         password_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(days => $3::int) END WHERE id = $1`,
      [member.id, hash, maxAge],
    );
    await sessions.revokeAll(member.id);
    await deps.disconnectMember(member.id);
    const fresh = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [member.id])).rows[0]!;
    return openSession(m, fresh, ip, { forcedChange: true });
  }
}
export type Accounts = ReturnType<typeof createAccounts>;
