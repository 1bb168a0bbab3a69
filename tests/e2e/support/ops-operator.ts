import type { Page } from 'playwright-core';
import { enrolOperatorTotp, totpNow } from '@portal/gateway/testing/ops-totp';
import type { GatewayProcess } from './gateway-process.ts';

/**
 * The demo operator (ops01) made ready for a test, as a person would: the default password changed,
 * then the authenticator enrolled (the second factor). Keeps the secret so later sign-ins (API or
 * browser) can give the current code.
 */
export class DemoOperator {
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

  /** The authenticator's current code. */
  code(): Promise<string> {
    return totpNow(this.secret);
  }

  /** An operator token through the API (password and code). */
  async token(): Promise<string> {
    return (await this.gw.post<{ token: string }>('/ops/api/session/login', { username: 'ops01', password: this.password, totp: await this.code() })).token;
  }

  /** Sign in on /ops in a browser page: password, then the code the console asks for. */
  async signIn(page: Page): Promise<void> {
    await page.goto(this.gw.url + '/ops');
    await page.getByTestId('ops-login-username').fill('ops01');
    await page.getByTestId('ops-login-password').fill(this.password);
    await page.getByTestId('ops-login-submit').click();
    await page.getByTestId('ops-login-totp').fill(await this.code());
    await page.getByTestId('ops-login-submit').click();
  }
}
