import type { Page } from 'playwright-core';
import { enrolOperatorTotp, totpNow } from '@portal/gateway/testing/ops-totp';
import { opsCalls } from '@portal/contracts/api/ops';
import type { GatewayProcess } from './gateway-process.ts';
import { keepSessionCookie } from './session.ts';

/**
 * The demo operator (ops01) made ready for a test, as a person would: the default password changed,
 * then the authenticator enrolled (the second factor). Keeps the secret so later sign-ins (API or
 * browser) can give the current code.
 *
 * Codes are single-use per operator and one is good for 30 s (one step of drift allowed), so every
 * sign-in past the second within a step waited for the clock (ops-players waited about a minute). The
 * operator's session is therefore kept once made: token() answers it again, and signIn() goes through
 * the console's form (password, then code) the first time and afterwards opens /ops with the session
 * kept in the page's cookie, as a reload of a signed-in console does.
 */
export class DemoOperator {
  private session: string | null = null;
  private signedInByForm = false;
  private constructor(private readonly gw: GatewayProcess, readonly password: string, readonly secret: string) {}

  static async prepare(gw: GatewayProcess, password: string): Promise<DemoOperator> {
    const first = await gw.post<{ token: string }>('/ops/api/session/login', { username: 'ops01', password: '{secret}' });
    const r = await fetch(gw.url + '/ops/api/session/password', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first.token}` },
      body: JSON.stringify({ oldPassword: '{secret}', newPassword: password, confirmNewPassword: password }),
    });
    if (r.status !== 200) throw new Error(`ops01 password change: ${r.status}`);
    const secret = await enrolOperatorTotp(gw.url, first.token);
    return new DemoOperator(gw, password, secret);
  }

  /** The authenticator's current code (a code is accepted once: a test signing in by hand takes a new one). */
  code(): Promise<string> {
    return totpNow(this.secret);
  }

  /** The operator's session token: signed in through the API (password and code) the first time. */
  async token(): Promise<string> {
    this.session ??= (await this.gw.post<{ token: string }>('/ops/api/session/login', { username: 'ops01', password: this.password, totp: await this.code() })).token;
    return this.session;
  }

  /** /ops signed in on a browser page: the form (password, then the code it asks for) once, then the kept session. */
  async signIn(page: Page): Promise<void> {
    if (this.signedInByForm && this.session) {
      await keepSessionCookie(page.context(), { name: OPS_COOKIE, path: opsCalls.keepSession.path }, this.session, this.gw.url);
      await page.goto(this.gw.url + '/ops');
      return;
    }
    await page.goto(this.gw.url + '/ops');
    await page.getByTestId('ops-login-username').fill('ops01');
    await page.getByTestId('ops-login-password').fill(this.password);
    await page.getByTestId('ops-login-submit').click();
    await page.getByTestId('ops-login-totp').fill(await this.code());
    await page.getByTestId('ops-login-submit').click();
    // the session the console keeps (its HttpOnly cookie), for the next pages
    await page.getByTestId('ops-login-totp').waitFor({ state: 'detached' });
    const kept = await waitForCookie(page, OPS_COOKIE);
    if (kept) {
      this.session = kept;
      this.signedInByForm = true;
    }
  }
}

/** The console's session cookie (gateway ops-routes.ts OPS_COOKIE). */
const OPS_COOKIE = 'portal_ops';

async function waitForCookie(page: Page, name: string): Promise<string | null> {
  for (let i = 0; i < 100; i++) {
    const c = (await page.context().cookies()).find((x) => x.name === name);
    if (c) return c.value;
    await page.waitForTimeout(100);
  }
  return null;
}
