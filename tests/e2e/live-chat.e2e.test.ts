import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * Live chat across two browsers: a player opens the chat room from the side bar's LIVECHAT entry and
 * writes; the operator, with /ops/chats open (TY), sees the chat arrive without a reload, opens it and
 * answers; the player's open room shows the answer without a reload. The console's fallback poll is
 * 30 s: both waits are far shorter, so they pass only through the events.
 * Screenshots: tests/artifacts/live-chat-player.png, live-chat-ops-ty.png.
 */
let gw: GatewayProcess;
let browser: Browser;
let op: DemoOperator;
beforeAll(async () => {
  gw = await GatewayProcess.start({ SEED_CATALOGUE: 'small' }, { bootTimeoutMs: 240_000 });
  browser = await launchBrowser();
  op = await DemoOperator.prepare(gw, 'Ops01-chat-pass-7');
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const PASSWORD = 'login12345';
const LIVE_MS = 10_000;

describe('live chat', () => {
  it('a player writes, the operator sees it live in /ops and answers, the player sees the answer live', async () => {
    await createMember(gw, { account: 'chatplayer1', password: PASSWORD });

    // The operator's console, in Tagalog, on the live chat page (its socket connected).
    const o = await newPage(browser, { lang: 'TY' });
    await op.signIn(o.page);
    await o.page.getByTestId('ops-nav-chats').click({ timeout: 20_000 });
    await o.page.locator('[data-testid="ops-chat-live"][data-live="true"]').waitFor({ timeout: 20_000 });

    // The player opens the chat room from the side bar and writes.
    const p = await newPage(browser, { lang: 'EN' });
    await signInContext(p.context, await apiLogin(gw, 'chatplayer1', PASSWORD), gw.url);
    await p.page.goto(`${gw.url}/`);
    await p.page.getByTestId('live-chat-button').click({ timeout: 20_000 });
    // an operator is using the console: the desk is online
    await p.page.locator('[data-testid="chat-desk"][data-online="true"]').waitFor();
    await p.page.getByTestId('chat-input').fill('Hi, my GCash deposit has not arrived yet');
    await p.page.getByTestId('chat-send').click();
    await p.page.getByTestId('chat-message').filter({ hasText: 'my GCash deposit' }).waitFor();
    expect(await p.page.getByTestId('chat-input').inputValue()).toBe('');

    // The operator sees it arrive, with its unread count, and answers.
    const row = o.page.locator('[data-testid^="ops-chat-row-"]').filter({ hasText: 'chatplayer1' });
    await row.waitFor({ timeout: LIVE_MS });
    expect(Number(await row.getAttribute('data-unread'))).toBe(1);
    await row.click();
    await o.page.getByTestId('ops-chat-message').filter({ hasText: 'my GCash deposit' }).waitFor();
    await o.page.getByTestId('ops-chat-input').fill('Hello! It was credited a minute ago, please check your balance.');
    await o.page.getByTestId('ops-chat-send').click();
    await o.page.getByTestId('ops-chat-message').filter({ hasText: 'please check your balance' }).waitFor();
    await snap(o.page, 'live-chat-ops-ty');

    // The player's open room shows the answer, from customer service.
    const answer = p.page.locator('[data-testid="chat-message"][data-sender="operator"]').filter({ hasText: 'please check your balance' });
    await answer.waitFor({ timeout: LIVE_MS });
    await snap(p.page, 'live-chat-player');
    await p.context.close();
    await o.context.close();
  });
});
