import type { BrowserContext } from 'playwright-core';
import type { GatewayProcess } from './gateway-process.ts';
import { devGet } from './portal-ui.ts';

/**
 * Sign in through the API (the login screens have their own suite) and hand the token to a browser
 * context the way the app keeps it: sessionStorage, never localStorage.
 */
export async function apiLogin(gw: GatewayProcess, username: string, password: string): Promise<string> {
  const c = await devGet<{ botId: string }>(gw, '/wps/botcheck');
  const { answer } = await devGet<{ answer: number }>(gw, `/wps/dev/botcheck/${c.botId}`);
  const v = await gw.post<{ token: string }>('/wps/session/login', { username, password, type: 'username', botId: c.botId, botAnswer: answer });
  return v.token;
}

export async function signInContext(context: BrowserContext, token: string) {
  await context.addInitScript((t) => {
    if (!sessionStorage.getItem('portal.token')) sessionStorage.setItem('portal.token', t);
  }, token);
}
