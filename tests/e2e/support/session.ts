import type { BrowserContext, Page } from 'playwright-core';
import type { GatewayProcess } from './gateway-process.ts';
import { devGet } from './portal-ui.ts';

/**
 * Sign in through the API (the login screens have their own suite).
 */
export async function apiLogin(gw: GatewayProcess, username: string, password: string): Promise<string> {
  const c = await devGet<{ botId: string }>(gw, `/wps/botcheck?account=${encodeURIComponent(username)}`);
  const { answer, answerY } = await devGet<{ answer: number; answerY: number }>(gw, `/wps/dev/botcheck/${c.botId}`);
  const v = await gw.post<{ token: string }>('/wps/session/login', { username, password, type: 'username', botId: c.botId, botAnswer: answer, botAnswerY: answerY });
  return v.token;
}

/**
 * Hand a session to a browser context the way a reload finds it: the gateway's HttpOnly cookie
 * (portal_session, path /wps/session/keep), which the page trades for the token it keeps in memory.
 */
export async function signInContext(context: BrowserContext, token: string, url = 'http://127.0.0.1') {
  const { hostname } = new URL(url);
  await context.addCookies([{ name: 'portal_session', value: token, domain: hostname, path: '/wps/session/keep', httpOnly: true, sameSite: 'Strict' }]);
}

/** The session token a reload of this page would get back (the gateway reads its HttpOnly cookie), or null. */
export async function keptToken(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const r = await fetch('/wps/session/keep');
    return ((await r.json()) as { value?: { token: string | null } }).value?.token ?? null;
  });
}
