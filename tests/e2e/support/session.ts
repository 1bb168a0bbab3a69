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
 * A session token in the HttpOnly cookie the gateway keeps it in (app/token-cookie.ts), scoped to the
 * call that trades it back for the token the page keeps in memory: as a reload of a signed-in page finds it.
 */
export async function keepSessionCookie(context: BrowserContext, cookie: { name: string; path: string }, token: string, url: string) {
  const { hostname } = new URL(url);
  await context.addCookies([{ name: cookie.name, value: token, domain: hostname, path: cookie.path, httpOnly: true, sameSite: 'Strict' }]);
}

/** Hand a member's session to a browser context the way a reload finds it (portal_session, path /wps/session/keep). */
export async function signInContext(context: BrowserContext, token: string, url = 'http://127.0.0.1') {
  await keepSessionCookie(context, { name: 'portal_session', path: '/wps/session/keep' }, token, url);
}

/** The session token a reload of this page would get back (the gateway reads its HttpOnly cookie), or null. */
export async function keptToken(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const r = await fetch('/wps/session/keep');
    return ((await r.json()) as { value?: { token: string | null } }).value?.token ?? null;
  });
}
