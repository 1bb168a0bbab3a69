import type { Express } from 'express';
import { authCalls } from '@portal/contracts/api/auth';
import { isTrialType } from '@portal/contracts/domain/member';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { mountCall, type RequestContext } from '../../app/http.ts';
import type { Accounts } from './accounts-service.ts';
import { botAnswerOf, type BotChecker, type Captchas } from './challenges.ts';
import type { SmsCodes } from './sms-codes.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import { tokenCookie } from '../../app/token-cookie.ts';
import { countriesFor, registrationRules } from './registration-settings.ts';
import { totpEnrolment, totpStep } from './totp.ts';
import { linkOrigin } from '../merchants/link-origin.ts';
import type { BootCache } from '../boot-cache/boot-cache.ts';
import { loginFailures } from '../../obs/metrics.ts';
import { smsCodeText, textLanguage } from './auth-texts.ts';

type Opts = { checkResponses: boolean };

function requireSession(ctx: RequestContext) {
  if (!ctx.session || !ctx.token) throw new AppError(ErrorCode.UNAUTHORIZED);
  return { session: ctx.session, token: ctx.token };
}

/** Member-centre calls: a trial (free play) account is told to register first. */
function requireRealMember(ctx: RequestContext) {
  const s = requireSession(ctx);
  if (isTrialType(s.session.memberType, ctx.merchant.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
  return s;
}

/** The member's session token across reloads, never in browser storage (see tokenCookie). */
export const MEMBER_SESSION_COOKIE = tokenCookie('portal_session', authCalls.keepSession.path);

export function mountAuthRoutes(
  app: Express,
  deps: { accounts: Accounts; captchas: Captchas; bot: BotChecker; sms: SmsCodes; sessions: SessionStore; isProduction: boolean; bootCache: BootCache },
  opts: Opts,
) {
  const { accounts, captchas, bot, sms, sessions, isProduction, bootCache } = deps;

  mountCall(app, authCalls.login, async ({ ctx, body }) => {
    try {
      return await accounts.login(ctx.merchant, body, ctx.ip);
    } catch (err) {
      // Refused logins by code (INVALID_CREDENTIALS, LOGIN_LOCKED, CAPTCHA_*, ...): a closed set of labels.
      if (err instanceof AppError) loginFailures.inc({ code: err.code });
      throw err;
    }
  }, opts);
  mountCall(app, authCalls.loginVerifySend, async ({ ctx, body }) => accounts.sendSecondStep(ctx.merchant, body.challengeId, body.method, ctx.ip, body.language), opts);
  mountCall(app, authCalls.loginVerify, async ({ ctx, body }) =>
    accounts.verifySecondStep(ctx.merchant, body.challengeId, body.method, body.code, ctx.ip, totpStep), opts);
  mountCall(app, authCalls.freePlay, async ({ ctx }) => accounts.freePlay(ctx.merchant, ctx.ip), opts);
  mountCall(app, authCalls.logout, async ({ ctx, req }) => {
    const { session, token } = requireSession(ctx);
    await accounts.logout(token, session.memberId);
    MEMBER_SESSION_COOKIE.clear(req, req.res!);
    return {};
  }, opts);
  mountCall(app, authCalls.keepSession, async ({ ctx, req }) => {
    const { token } = requireSession(ctx);
    MEMBER_SESSION_COOKIE.keep(req, req.res!, token);
    return {};
  }, opts);
  mountCall(app, authCalls.restoreSession, async ({ ctx, req }) =>
    MEMBER_SESSION_COOKIE.restore(req, req.res!, ctx.merchant.code, (token) => sessions.resolve(token)), opts);

  mountCall(app, authCalls.smsNoLogin, async ({ ctx, body }) => {
    const m = ctx.merchant;
    if (body.purpose === 'login' && !m.modules.MOBILEVERCODELOGIN3) throw new AppError(ErrorCode.MODULE_DISABLED);
    const r = await sms.send(m.code, body.purpose, body.countryDialingCode, body.mobileNum, ctx.ip,
      (code) => smsCodeText(textLanguage(body.language, m.brand.defaultLanguage), m.brand.siteName, body.purpose, code),
      { deliverIf: (dialing, mobile) => accounts.hasMobile(m.code, dialing, mobile) });
    return { expiredMinutes: r.expiredMinutes };
  }, opts);
  mountCall(app, authCalls.smsRegister, async ({ ctx, body }) => {
    const m = ctx.merchant;
    if (!m.modules.REGMOBVERF3) throw new AppError(ErrorCode.MODULE_DISABLED);
    // No registration open, no registration code (it was texted, paid for, and could never be used).
    if (!m.modules.DIRECTREG3 || (!m.modules.USERNAMEREG3 && !m.modules.MOBILENUMREG3)) throw new AppError(ErrorCode.MODULE_DISABLED);
    // The spec's registration SMS carries the geetest fields: with the bot check on, a solved slider for
    // this number (one try, consumed whatever the answer) before any code is sent or any limit spent.
    if (m.security.botCheck && !(await bot.verify(body.botId, botAnswerOf(body), { purpose: 'sms-register', account: body.mobileNo }))) {
      throw new AppError(ErrorCode.BOT_CHECK_REQUIRED);
    }
    const r = await sms.send(m.code, 'register', body.countryDialingCode, body.mobileNo, ctx.ip,
      (code) => smsCodeText(textLanguage(body.language, m.brand.defaultLanguage), m.brand.siteName, 'register', code));
    return { expiredMinutes: r.expiredMinutes };
  }, opts);

  const register = (variant: 'username' | 'mobile') => async ({ ctx, body }: { ctx: RequestContext; body: Parameters<Accounts['register']>[1] }) => {
    const r = await accounts.register(ctx.merchant, body, variant, ctx.ip);
    return r.login ? { memberId: r.memberId, ...r.login } : { memberId: r.memberId };
  };
  mountCall(app, authCalls.register, register('username'), opts);
  mountCall(app, authCalls.registerMobile, register('mobile'), opts);
  mountCall(app, authCalls.affiliate, async ({ ctx, query }) => {
    await accounts.checkInvitation(ctx.merchant, query.code, ctx.ip);
    return { valid: true as const };
  }, opts);

  mountCall(app, authCalls.changePassword, async ({ ctx, body }) => {
    const { session } = requireSession(ctx);
    return accounts.changePassword(ctx.merchant, session.memberId, body, ctx.ip, session.passwordChangeRequired === true);
  }, opts);
  mountCall(app, authCalls.forgotByEmail, async ({ ctx, body, req }) => {
    // The link's origin is the merchant's own domain; a Host it does not own is refused before anything is counted or sent.
    const origin = linkOrigin(ctx.merchant, { hostname: req.hostname, host: req.host, protocol: req.protocol }, { isProduction });
    await accounts.forgotByEmail(ctx.merchant, body.username, body.email, origin, ctx.ip, textLanguage(body.language, ctx.merchant.brand.defaultLanguage));
    return {};
  }, opts);
  mountCall(app, authCalls.resetByToken, async ({ ctx, body }) =>
    accounts.resetByToken(ctx.merchant, body.resetToken, body.newPassword, body.confirmNewPassword, ctx.ip), opts);
  mountCall(app, authCalls.resetByMobile, async ({ ctx, body }) => accounts.resetByMobile(ctx.merchant, body, ctx.ip), opts);

  mountCall(app, authCalls.captcha, async () => captchas.create(), opts);
  mountCall(app, authCalls.botChallenge, async ({ query }) => bot.challenge(query), opts);
  mountCall(app, authCalls.memberInfo, async ({ ctx }) => {
    const { session } = requireSession(ctx);
    return { ...(await accounts.info(ctx.merchant, session.memberId)), passwordChangeRequired: session.passwordChangeRequired === true };
  }, opts);
  mountCall(app, authCalls.memberIcon, async ({ ctx, body }) => accounts.setIcon(requireRealMember(ctx).session.memberId, body.icon), opts);
  // Security centre: a mobile number or e-mail added (or changed) by the signed-in member.
  mountCall(app, authCalls.smsBind, async ({ ctx, body }) => {
    requireRealMember(ctx);
    const m = ctx.merchant;
    const r = await sms.send(m.code, 'bind', body.countryDialingCode, body.mobileNum, ctx.ip,
      (code) => smsCodeText(textLanguage(body.language, m.brand.defaultLanguage), m.brand.siteName, 'bind', code));
    return { expiredMinutes: r.expiredMinutes };
  }, opts);
  mountCall(app, authCalls.bindMobile, async ({ ctx, body }) => accounts.bindMobile(ctx.merchant, requireRealMember(ctx).session.memberId, body), opts);
  mountCall(app, authCalls.bindEmail, async ({ ctx, body }) => accounts.bindEmail(ctx.merchant, requireRealMember(ctx).session.memberId, body), opts);
  // From the bootstrap cache: it depends on the merchant row only.
  bootCache.mount(app, {
    def: authCalls.registerSettings, scopes: [], open: true,
    load: async ({ merchant }) => ({
      value: { fields: registrationRules(merchant), minAge: merchant.brand.minAge, smsExpiredMinutes: sms.expiredMinutes, countries: countriesFor(merchant.market) },
    }),
  });

  mountCall(app, authCalls.totpSetup, async ({ ctx }) => {
    const { session } = requireRealMember(ctx);
    const e = await totpEnrolment(ctx.merchant.brand.siteName, session.account);
    await accounts.setTotpSecret(session.memberId, e.secret); // INVALID_STATE while one is on
    return e;
  }, opts);
  mountCall(app, authCalls.totpEnable, async ({ ctx, body }) => {
    const { session } = requireRealMember(ctx);
    await accounts.enableTotp(session.memberId, body.code, totpStep);
    return { enabled: true as const };
  }, opts);
}
