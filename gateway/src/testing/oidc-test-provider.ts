/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';

/** What the test provider says about a subject; the login name typed on its form is the subject. */
export type TestClaims = { sub: string; email?: string; email_verified?: boolean; name?: string; preferred_username?: string };

export type OidcTestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_* variables for a gateway that uses this provider. */
  env: Record<string, string>;
  /** Register the gateway's callback URL (known once the gateway listens); the provider answers from then on. */
  register(redirectUris: string[]): void;
  stop(): Promise<void>;
};

/** Default claims: `alice` -> alice@example.test (verified), "Alice Test". */
export function defaultClaims(sub: string): TestClaims {
  return { sub, preferred_username: sub, email: `${sub}@example.test`, email_verified: true, name: `${sub.charAt(0).toUpperCase()}${sub.slice(1)} Test` };
}

/**
 * A real OpenID provider (the oidc-provider package) on 127.0.0.1 and a free port, with its
 * development login and consent pages. The client secret and signing key are made per run.
 */
export async function startOidcTestProvider(opts: { claims?: (sub: string) => TestClaims; providerName?: string } = {}): Promise<OidcTestProvider> {
  const claimsOf = opts.claims ?? defaultClaims;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end('provider not configured yet');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `portal-test-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const jwk = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };

  return {
    issuer, clientId, clientSecret,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_PROVIDER_NAME: opts.providerName ?? 'TestID' },
    register(redirectUris: string[]) {
      const provider = new Provider(issuer, {
        clients: [{
          client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris,
          grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
        }],
        async findAccount(_ctx, id) {
          const claims = claimsOf(id);
          return { accountId: id, claims: async () => claims };
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
        cookies: { keys: [randomBytes(32).toString('hex')] },
        jwks: { keys: [jwk] },
        features: { devInteractions: { enabled: true } },
        pkce: { required: () => true },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      });
      handler = provider.callback();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A cookie jar for fetch: name=value per host, paths ignored (enough for one provider and one gateway). */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();
  store(url: string, res: Response) {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(host, jar);
  }
  header(url: string): string {
    return [...(this.jars.get(new URL(url).host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Follow a sign-in like a browser would, without one: redirects by hand, the provider's cookies
 * carried along, its login form filled with `login` and its consent form confirmed. Stops at the
 * first redirect back to the portal that is not its callback: returns it, and the callback URL seen.
 */
export async function signInWithProvider(startUrl: string, login: string, jar = new CookieJar()): Promise<{ landed: URL; callback: URL | null }> {
  const portalOrigin = new URL(startUrl).origin;
  let callback: URL | null = null;
  let url = startUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header(url) } });
    jar.store(url, res);
    init = {};
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location') ?? '', url);
      await res.body?.cancel();
      if (next.origin === portalOrigin && !next.pathname.startsWith('/wps/')) return { landed: next, callback };
      if (next.origin === portalOrigin && next.pathname.endsWith('/oidc/callback')) callback = next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`unexpected ${res.status} at ${url}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no form at ${url}: ${html.slice(0, 300)}`);
    const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any-password' } : { prompt });
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    init = { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('too many hops');
}
