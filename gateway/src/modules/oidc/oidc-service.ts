import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { TLoginValue, TOidcConfigValue } from '@portal/contracts/api/auth';
import { OIDC_ERROR_PARAM, OIDC_HANDOFF_PARAM, OIDC_PATHS } from '@portal/contracts/api/auth';
import type { Config } from '../../app/config.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Db, Queryable } from '../../db/db.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { NON_MEMBER_TYPE_MIN, type Accounts, type MemberRow } from '../auth/accounts-service.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';

const STATE_TTL_S = 10 * 60;
const HANDOFF_TTL_S = 2 * 60;
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

  /** The member of this (issuer, subject), created on first sign-in; concurrent first sign-ins end on one member. */
  async function memberFor(m: Merchant, issuer: string, claims: Record<string, unknown>, ip: string): Promise<MemberRow> {
    const sub = String(claims.sub);
    const find = async (q: Queryable) => (await q.query<MemberRow>(
      `SELECT mb.* FROM oidc_identities oi JOIN members mb ON mb.id = oi.member_id
       WHERE oi.merchant_code = $1 AND oi.issuer = $2 AND oi.subject = $3`, [m.code, issuer, sub])).rows[0] ?? null;
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
            `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, email, register_ip, profile)
             VALUES ($1, $2, lower($2), $3, 0, NULL, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING *`,
            [m.code, account, nickname, email, ip, JSON.stringify({ oidcIssuer: issuer })],
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
        const member = await memberFor(m, idClaims.iss, claims, ip);
        if (member.status !== 'active') throw new CallbackFailure(ErrorCode.ACCOUNT_DISABLED);
        if (member.type >= NON_MEMBER_TYPE_MIN) throw new CallbackFailure(ErrorCode.NON_MEMBER);
        const handoff = randomBytes(32).toString('base64url');
        await db.query('DELETE FROM oidc_handoffs WHERE expires_at < now()');
        await db.query(
          `INSERT INTO oidc_handoffs (code_hash, member_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
          [sha256(handoff), member.id, HANDOFF_TTL_S],
        );
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
      const r = await db.query<{ member_id: number }>(
        `UPDATE oidc_handoffs h SET used_at = now() FROM members mb
         WHERE h.code_hash = $1 AND h.used_at IS NULL AND h.expires_at > now() AND mb.id = h.member_id AND mb.merchant_code = $2
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
  };
}
export type Oidc = ReturnType<typeof createOidc>;

function isLoopbackHttp(issuer: string): boolean {
  const u = new URL(issuer);
  return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}
