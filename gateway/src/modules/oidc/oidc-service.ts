import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { TLoginValue, TOidcConfigValue, TOidcIdentityBody } from '@portal/contracts/api/auth';
import { marketRules } from '@portal/contracts/domain/markets';
import { ageOn, identityNameProblem, merchantClock } from '@portal/contracts/domain/registration';
import { OIDC_ERROR_PARAM, OIDC_HANDOFF_PARAM, OIDC_PATHS } from '@portal/contracts/api/auth';
import type { Config } from '../../app/config.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Db, Queryable } from '../../db/db.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { NON_MEMBER_TYPE_MIN, type Accounts, type MemberRow } from '../auth/accounts-service.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { registrationRules, ruleOf } from '../auth/registration-settings.ts';
import { isoDate, isRestrictedPerson, rgNameKey } from '../rg/restricted.ts';

const STATE_TTL_S = 10 * 60;
const HANDOFF_TTL_S = 2 * 60;
/** A handoff waiting for the identity step: long enough to type a name and a birth date. */
const IDENTITY_HANDOFF_TTL_S = 15 * 60;
/** Seconds to wait for the provider (discovery, token, userinfo) before giving up. */
const PROVIDER_TIMEOUT_S = 10;
const ACCOUNT_BASE_MAX = 12;
const NICKNAME_MAX = 32;
/** Sign-ins one address may start in 10 minutes: each keeps a state row until it expires. */
const STARTS_PER_IP = 30;

export type OidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  providerName: string;
  redirectBase: string | null;
  /** Talk to the provider over plain http (development, tests, a provider on loopback). */
  allowHttp: boolean;
};

/** The provider from the environment, or null when social sign-in is off. */
export function oidcSettingsFrom(config: Config): OidcSettings | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID) return null;
  return {
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET ?? null,
    providerName: config.OIDC_PROVIDER_NAME,
    redirectBase: config.OIDC_REDIRECT_BASE ? config.OIDC_REDIRECT_BASE.replace(/\/+$/, '') : null,
    allowHttp: !config.isProduction || isLoopbackHttp(config.OIDC_ISSUER),
  };
}

/**
 * `returnTo` must stay on this site: a relative path starting with one '/'. Anything else
 * (absolute URLs, '//host', backslashes, control characters) becomes '/'. The handoff parameters
 * are dropped so an old code never rides along.
 */
export function safeReturnTo(raw: string | undefined): string {
  if (!raw || raw.length > 1024 || !raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return '/';
  const base = 'http://portal.invalid';
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    return '/';
  }
  // Dot segments can normalise to '//host', which a browser reads as another site.
  if (u.origin !== base || !u.pathname.startsWith('/') || u.pathname.startsWith('//')) return '/';
  u.searchParams.delete(OIDC_HANDOFF_PARAM);
  u.searchParams.delete(OIDC_ERROR_PARAM);
  return u.pathname + u.search;
}

/** An account name from the provider's claims: [a-z0-9_], at most 12 characters before a uniqueness suffix. */
export function accountBaseFrom(claims: { preferred_username?: unknown; email?: unknown }): string {
  const pick = typeof claims.preferred_username === 'string' && claims.preferred_username.trim()
    ? claims.preferred_username
    : typeof claims.email === 'string' ? claims.email.split('@')[0] ?? '' : '';
  const clean = pick.normalize('NFKD').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/^_+/, '').slice(0, ACCOUNT_BASE_MAX).replace(/_+$/, '');
  return clean.length >= 3 ? clean : `player${clean ? `_${clean}` : ''}`;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

type StateRow = { merchant_code: string; nonce: string; code_verifier: string; return_to: string; expired: boolean };

export type OidcDeps = { db: Db; accounts: Accounts; limiter: RateLimiter; settings: OidcSettings | null; log: { warn(obj: unknown, msg?: string): void } };

class LostRace extends Error {}

/** Errors that end the callback: they redirect the browser to `/?oidcError=<code>`. */
class CallbackFailure extends Error {
  constructor(readonly code: ErrorCode, cause?: unknown) {
    super(code, { cause });
  }
}

export function createOidc(deps: OidcDeps) {
  const { db, accounts, limiter, settings, log } = deps;
  let discovered: Promise<client.Configuration> | null = null;

  /** Discovery runs on first use and is kept; a failure is forgotten so the next request tries again. */
  function provider(): Promise<client.Configuration> {
    if (!settings) return Promise.reject(new AppError(ErrorCode.NOT_AVAILABLE));
    if (!discovered) {
      const auth = settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None();
      const execute: Array<(c: client.Configuration) => void> = [client.enableNonRepudiationChecks];
      // Plain http only outside production, or for a provider on this machine.
      if (settings.allowHttp) execute.push(client.allowInsecureRequests);
      discovered = client.discovery(new URL(settings.issuer), settings.clientId, undefined, auth, { execute, timeout: PROVIDER_TIMEOUT_S });
      discovered.catch((err: unknown) => {
        log.warn({ err }, 'OpenID provider discovery failed');
        discovered = null;
      });
    }
    return discovered.catch(() => {
      throw new AppError(ErrorCode.OIDC_UNAVAILABLE);
    });
  }

  /** OIDC_REDIRECT_BASE when set, else the merchant's own origin (which refuses a Host the merchant does not own). */
  function redirectUri(siteOrigin: () => string): string {
    return `${settings?.redirectBase ?? siteOrigin()}${OIDC_PATHS.callback}`;
  }

  async function consumeState(state: string): Promise<StateRow | null> {
    const r = await db.query<StateRow>(
      `DELETE FROM oidc_states WHERE state = $1 RETURNING merchant_code, nonce, code_verifier, return_to, expires_at <= now() AS expired`,
      [state],
    );
    return r.rows[0] ?? null;
  }

  const findMember = async (q: Queryable, m: Merchant, issuer: string, sub: string) => (await q.query<MemberRow & { birth_date: unknown; rg_name_key: string | null }>(
    `SELECT mb.* FROM oidc_identities oi JOIN members mb ON mb.id = oi.member_id
     WHERE oi.merchant_code = $1 AND oi.issuer = $2 AND oi.subject = $3`, [m.code, issuer, sub])).rows[0] ?? null;

  /**
   * The member of this (issuer, subject), created on first sign-in; concurrent first sign-ins end on
   * one member. `identity` (the identity step's full name and birth date) is stored like a registration's.
   */
  async function memberFor(m: Merchant, issuer: string, claims: Record<string, unknown>, ip: string, identity: { payeeName: string; birthday: string } | null = null): Promise<MemberRow> {
    const sub = String(claims.sub);
    const find = (q: Queryable) => findMember(q, m, issuer, sub);
    const existing = await find(db);
    if (existing) return existing;
    const base = accountBaseFrom(claims);
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    const email = verified && typeof claims.email === 'string' && claims.email.length <= 254 ? claims.email : null;
    const nickname = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, NICKNAME_MAX) : null;
    try {
      return await db.tx(async (tx) => {
        let row: MemberRow | undefined;
        for (let i = 0; i < 12 && !row; i++) {
          const account = i === 0 ? base : `${base}_${randomBytes(3).toString('hex').slice(0, i < 6 ? 4 : 6)}`;
          // No password: this member signs in through the provider only (password login refuses a NULL hash).
          row = (await tx.query<MemberRow>(
            `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, email, register_ip, profile, payee_name, rg_name_key, birth_date)
             VALUES ($1, $2, lower($2), $3, 0, NULL, $4, $5, $6, $7, $8, $9::date) ON CONFLICT DO NOTHING RETURNING *`,
            [m.code, account, nickname, email, ip, JSON.stringify({ oidcIssuer: issuer, ...(identity ? { birthday: identity.birthday } : {}) }),
              identity?.payeeName ?? null, identity ? rgNameKey(identity.payeeName) || null : null, identity?.birthday ?? null],
          )).rows[0];
        }
        if (!row) throw new Error('no free account name');
        const linked = await tx.query(
          `INSERT INTO oidc_identities (merchant_code, issuer, subject, member_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING member_id`,
          [m.code, issuer, sub, row.id],
        );
        // Another request linked this subject first: roll back our member and use theirs.
        if (!linked.rows.length) throw new LostRace();
        return row;
      });
    } catch (err) {
      if (!(err instanceof LostRace)) throw err;
      const winner = await find(db);
      if (!winner) throw err;
      return winner;
    }
  }

  return {
    isEnabled: () => settings !== null,

    config(): TOidcConfigValue {
      return { enabled: settings !== null, providerName: settings?.providerName ?? '' };
    },

    /** Where to send the browser: the provider's authorization endpoint, with state, nonce and PKCE kept here. */
    async start(m: Merchant, returnTo: string | undefined, siteOrigin: () => string, ip: string): Promise<string> {
      const config = await provider();
      const redirect_uri = redirectUri(siteOrigin);
      const key = `oidc-start:${m.code}:${ip}`;
      if ((await limiter.count(key, STATE_TTL_S * 1000)) >= STARTS_PER_IP) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      await limiter.hit(key);
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const challenge = await client.calculatePKCECodeChallenge(verifier);
      await db.query('DELETE FROM oidc_states WHERE expires_at < now()');
      await db.query(
        `INSERT INTO oidc_states (state, merchant_code, nonce, code_verifier, return_to, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
        [state, m.code, nonce, verifier, safeReturnTo(returnTo), STATE_TTL_S],
      );
      return client.buildAuthorizationUrl(config, {
        redirect_uri,
        response_type: 'code',
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).href;
    },

    /**
     * The provider sent the browser back. Returns where to send it next: `returnTo?oidc=<handoff>`
     * on success, `/?oidcError=<code>` on any failure. The state is consumed whatever happens.
     */
    async callback(m: Merchant, params: URLSearchParams, siteOrigin: () => string, ip: string): Promise<string> {
      const fail = (code: ErrorCode) => `/?${OIDC_ERROR_PARAM}=${code}`;
      const state = params.get('state') ?? '';
      try {
        const row = await consumeState(state);
        if (!row || row.expired || row.merchant_code !== m.code) throw new CallbackFailure(ErrorCode.OIDC_FAILED);
        // The user refused or the provider failed: no code to exchange.
        if (params.has('error') || !params.has('code')) throw new CallbackFailure(ErrorCode.OIDC_FAILED);
        const config = await provider().catch((err: unknown) => {
          throw new CallbackFailure(ErrorCode.OIDC_UNAVAILABLE, err);
        });
        const currentUrl = new URL(redirectUri(siteOrigin));
        for (const [k, v] of params) currentUrl.searchParams.append(k, v);
        let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
        try {
          // Checks state, iss (when advertised), and the ID token: signature, issuer, audience, expiry, nonce.
          tokens = await client.authorizationCodeGrant(config, currentUrl, {
            expectedState: state,
            expectedNonce: row.nonce,
            pkceCodeVerifier: row.code_verifier,
            idTokenExpected: true,
          });
        } catch (err) {
          throw new CallbackFailure(ErrorCode.OIDC_FAILED, err);
        }
        const idClaims = tokens.claims();
        if (!idClaims?.sub) throw new CallbackFailure(ErrorCode.OIDC_FAILED);
        let claims: Record<string, unknown> = { ...idClaims };
        // Providers that keep profile claims out of the ID token give them at userinfo, for the same subject.
        if (claims.email === undefined && claims.preferred_username === undefined && config.serverMetadata().userinfo_endpoint) {
          try {
            // fetchUserInfo refuses an answer about another subject; the ID token wins where both speak.
            claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...idClaims };
          } catch (err) {
            log.warn({ err }, 'OpenID userinfo failed; using the ID token claims alone');
          }
        }
        const handoff = randomBytes(32).toString('base64url');
        await db.query('DELETE FROM oidc_handoffs WHERE expires_at < now()');
        // A market that screens identities (the Philippines) needs the full name and birth date, which
        // providers do not give: a first sign-in creates no account until the identity step passed, and
        // an older social account without them gets no session until they are given.
        const screens = marketRules(m.market).identityAtRegistration;
        const known = screens ? await findMember(db, m, idClaims.iss, idClaims.sub) : null;
        if (screens && (!known || known.birth_date === null || !known.rg_name_key)) {
          if (known && known.status !== 'active') throw new CallbackFailure(ErrorCode.ACCOUNT_DISABLED);
          if (known && known.type >= NON_MEMBER_TYPE_MIN) throw new CallbackFailure(ErrorCode.NON_MEMBER);
          const keep = Object.fromEntries(['sub', 'preferred_username', 'email', 'email_verified', 'name'].filter((k) => claims[k] !== undefined).map((k) => [k, claims[k]]));
          await db.query(
            `INSERT INTO oidc_handoffs (code_hash, member_id, merchant_code, identity_required, pending, expires_at)
             VALUES ($1, $2, $3, true, $4, now() + make_interval(secs => $5))`,
            [sha256(handoff), known?.id ?? null, m.code, known ? null : JSON.stringify({ issuer: idClaims.iss, claims: keep, ip }), IDENTITY_HANDOFF_TTL_S],
          );
        } else {
          const member = await memberFor(m, idClaims.iss, claims, ip);
          if (member.status !== 'active') throw new CallbackFailure(ErrorCode.ACCOUNT_DISABLED);
          if (member.type >= NON_MEMBER_TYPE_MIN) throw new CallbackFailure(ErrorCode.NON_MEMBER);
          await db.query(
            `INSERT INTO oidc_handoffs (code_hash, member_id, merchant_code, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
            [sha256(handoff), member.id, m.code, HANDOFF_TTL_S],
          );
        }
        const back = new URL(row.return_to, 'http://portal.invalid');
        back.searchParams.set(OIDC_HANDOFF_PARAM, handoff);
        return back.pathname + back.search;
      } catch (err) {
        if (err instanceof CallbackFailure) {
          if (err.cause) log.warn({ err: err.cause }, `OpenID callback refused: ${err.code}`);
          return fail(err.code);
        }
        throw err;
      }
    },

    /** The page trades its one-time handoff code for a session (single use, 2 minutes, this merchant only). */
    async exchange(m: Merchant, code: string, ip: string): Promise<TLoginValue> {
      // A handoff waiting for the identity step stays valid for it; this call gives no session.
      const waiting = await db.query(
        `SELECT 1 FROM oidc_handoffs WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now() AND identity_required AND merchant_code = $2`,
        [sha256(code), m.code]);
      if (waiting.rows.length) throw new AppError(ErrorCode.IDENTITY_REQUIRED);
      const r = await db.query<{ member_id: number }>(
        `UPDATE oidc_handoffs h SET used_at = now() FROM members mb
         WHERE h.code_hash = $1 AND h.used_at IS NULL AND h.expires_at > now() AND NOT h.identity_required AND mb.id = h.member_id AND mb.merchant_code = $2
         RETURNING h.member_id`,
        [sha256(code), m.code],
      );
      const id = r.rows[0]?.member_id;
      if (id === undefined) throw new AppError(ErrorCode.OIDC_FAILED);
      const member = (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [id])).rows[0];
      if (!member) throw new AppError(ErrorCode.OIDC_FAILED);
      if (member.status !== 'active') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      if (member.type >= NON_MEMBER_TYPE_MIN) throw new AppError(ErrorCode.NON_MEMBER);
      const login = await accounts.sessionFor(m, member, ip);
      // Provider accounts have no portal password: nothing to change or expire.
      return { ...login, defaultPassword: false, passwordExpired: false };
    },

    /**
     * The identity step (ZOidcIdentityBody): checked like a registration (the payeeName rule, the
     * minimum age on the merchant's calendar, the restricted-persons list, answered RESTRICTED_PERSON
     * with nothing about the list and audited as `rg.restricted.refused`). Only then is the member
     * created (first sign-in) or given the identity (older social account), and a session opened.
     * An underage or restricted answer uses the code up: the person must sign in again.
     */
    async identity(m: Merchant, body: TOidcIdentityBody, ip: string): Promise<TLoginValue> {
      type Handoff = { member_id: number | null; pending: { issuer: string; claims: Record<string, unknown>; ip: string } | null };
      const hash = sha256(body.code);
      const open = async (q: Queryable, lock: boolean) => (await q.query<Handoff>(
        `SELECT member_id, pending FROM oidc_handoffs WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now() AND identity_required AND merchant_code = $2${lock ? ' FOR UPDATE' : ''}`,
        [hash, m.code])).rows[0] ?? null;
      const useUp = () => db.query('UPDATE oidc_handoffs SET used_at = now() WHERE code_hash = $1', [hash]);
      if (!(await open(db, false))) throw new AppError(ErrorCode.OIDC_FAILED);
      const nameProblem = identityNameProblem(ruleOf(registrationRules(m), 'payeeName'), body.payeeName);
      const birthday = isoDate(body.birthday);
      const problems = [
        ...(nameProblem ? [{ path: 'payeeName', message: 'key' in nameProblem ? `${nameProblem.key}:${nameProblem.range}` : 'Input cannot be empty' }] : []),
        ...(birthday ? [] : [{ path: 'birthday', message: 'a date written YYYY-MM-DD' }]),
      ];
      if (problems.length) throw new AppError(ErrorCode.VALIDATION, 'Invalid input', problems);
      const age = ageOn(birthday!, merchantClock(m.brand.gmtOffsetMinutes));
      if (!body.ageConfirmed) throw new AppError(ErrorCode.UNDERAGE);
      if (age === null || age < m.brand.minAge) {
        await useUp();
        throw new AppError(ErrorCode.UNDERAGE);
      }
      if (marketRules(m.market).restrictedPersons && (await isRestrictedPerson(db, m.code, body.payeeName, birthday!))) {
        await useUp();
        await db.query(
          `INSERT INTO audit_log (merchant_code, operator_id, operator_username, action, target_type, target_id, before, after)
           VALUES ($1, NULL, 'system', 'rg.restricted.refused', 'registration', $2, NULL, $3)`,
          [m.code, 'social sign-in', JSON.stringify({ ip })]);
        throw new AppError(ErrorCode.RESTRICTED_PERSON);
      }
      const identity = { payeeName: body.payeeName, birthday: birthday! };
      // Claim the code first (one identity step per code), then create or complete the member.
      const claimed = await db.tx(async (tx) => {
        const h = await open(tx, true);
        if (!h) throw new AppError(ErrorCode.OIDC_FAILED);
        await tx.query('UPDATE oidc_handoffs SET used_at = now() WHERE code_hash = $1', [hash]);
        if (h.member_id !== null) {
          await tx.query(
            `UPDATE members SET payee_name = $2, rg_name_key = $3, birth_date = $4::date, profile = coalesce(profile, '{}'::jsonb) || jsonb_build_object('birthday', $4::text)
              WHERE id = $1 AND merchant_code = $5`,
            [h.member_id, identity.payeeName, rgNameKey(identity.payeeName), identity.birthday, m.code]);
        }
        return h;
      });
      const member = claimed.member_id !== null
        ? (await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [claimed.member_id])).rows[0]
        : await memberFor(m, claimed.pending!.issuer, claimed.pending!.claims, claimed.pending!.ip || ip, identity);
      if (!member) throw new AppError(ErrorCode.OIDC_FAILED);
      if (member.status !== 'active') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      if (member.type >= NON_MEMBER_TYPE_MIN) throw new AppError(ErrorCode.NON_MEMBER);
      const login = await accounts.sessionFor(m, member, ip);
      return { ...login, defaultPassword: false, passwordExpired: false };
    },
  };
}
export type Oidc = ReturnType<typeof createOidc>;

function isLoopbackHttp(issuer: string): boolean {
  const u = new URL(issuer);
  return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}
