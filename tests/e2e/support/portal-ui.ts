import type { Page } from 'playwright-core';
import type { GatewayProcess } from './gateway-process.ts';

/** Things a QA person does through the dev tools of a non-production gateway. */
export async function devGet<T>(gw: GatewayProcess, path: string): Promise<T> {
  const r = await fetch(gw.url + path);
  const j = (await r.json()) as { success: boolean; value: T; message?: string };
  if (!j.success) throw new Error(`${path}: ${j.message}`);
  return j.value;
}

export async function createMember(gw: GatewayProcess, body: { account: string; password: string; type?: number; email?: string; mobileNum?: string }) {
  return gw.post<{ memberId: number }>('/wps/dev/members', body);
}

/** Newest SMS or e-mail text captured by the dev sink for this address. */
export async function lastMessage(gw: GatewayProcess, to: string): Promise<string> {
  const v = await devGet<{ list: Array<{ body: string }> }>(gw, `/wps/dev/outbox?to=${encodeURIComponent(to)}`);
  return v.list[0]?.body ?? '';
}

/** Solve the slider bot check the way a person does: drag the piece until it covers the hole (across and up or down). */
export async function solveSlider(page: Page, gw: GatewayProcess): Promise<void> {
  const box = page.getByTestId('bot-check');
  await box.waitFor({ timeout: 30_000 });
  const botId = await box.getAttribute('data-bot-id');
  const { answer, answerY } = await devGet<{ answer: number; answerY: number }>(gw, `/wps/dev/botcheck/${botId}`);
  const img = box.locator('img').first();
  await img.waitFor();
  const scale = await img.evaluate((el) => (el as HTMLImageElement).clientWidth / ((el as HTMLImageElement).naturalWidth || 280));
  const piece = page.getByTestId('bot-piece');
  const pb = (await piece.boundingBox())!;
  const ib = (await img.boundingBox())!;
  const x0 = pb.x + pb.width / 2;
  const y0 = pb.y + pb.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  const dx = answer * scale - (pb.x - ib.x);
  const dy = answerY * scale - (pb.y - ib.y);
  for (let i = 1; i <= 10; i++) await page.mouse.move(x0 + (dx * i) / 10, y0 + (dy * i) / 10);
  await page.mouse.up();
}

/** Fill a captcha field from the dev answer for the key the page shows. */
export async function solveCaptcha(page: Page, gw: GatewayProcess, imageSelector: string, inputSelector: string): Promise<void> {
  const image = page.locator(imageSelector).first();
  await image.waitFor();
  let key = '';
  for (let i = 0; i < 50 && !key; i++) {
    key = (await image.getAttribute('data-captcha-key')) ?? '';
    if (!key) await page.waitForTimeout(100);
  }
  const { answer } = await devGet<{ answer: string }>(gw, `/wps/dev/captcha/${key}`);
  await page.locator(inputSelector).first().fill(answer);
}

export async function loginThroughPopup(page: Page, gw: GatewayProcess, username: string, password: string, opts: { remember?: boolean } = {}) {
  await page.getByTestId('login-button').click();
  const form = page.getByTestId('login-form');
  await form.waitFor();
  await form.getByTestId('login-username').fill(username);
  await form.getByTestId('login-password').fill(password);
  if (opts.remember) await page.getByTestId('login-remember').check();
  await page.getByTestId('login-submit').click();
}

export async function realtimeConnected(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __portalRealtime?: { connected: boolean } }).__portalRealtime?.connected === true);
}
