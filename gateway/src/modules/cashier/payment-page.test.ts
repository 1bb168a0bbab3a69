import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { checkLedger } from '../wallet/ledger.ts';
import { PAY_PAGE_TEXTS } from './payment-provider.ts';

/**
 * The payment simulator's pay page speaks the player's language: the portal opens it with `lang=ty`
 * (or `en`) from the player's language, and the form's answer page keeps it.
 */
let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

const call = apiOn(() => t.url);
let n = 0;
const newMember = testMembers(() => t.url, { account: () => `pp${Date.now().toString(36)}${n++}` });

async function payUrl(channelCode: string, amount: number) {
  const { token } = await newMember(0);
  const order = await call<{ payUrl: string }>('/wps/v2/deposit/orders', { token, body: { channelCode, amount, requestId: `req_${randomBytes(6).toString('hex')}` } });
  expect(order.status).toBe(200);
  return order.json!.value!.payUrl;
}
const get = async (path: string) => (await fetch(t.url + path)).text();
const post = async (action: string, outcome: string) =>
  (await fetch(t.url + action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` })).text();
/** The page's visible text: the markup's text nodes and its title. */
const visible = (html: string) => html.replace(/<style>[^<]*<\/style>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
/** Its words (3 letters or more), the order's reference left out: a random hex code ('DFDF9DC3...') that a letter run of could match. */
const words = (text: string) => new Set(text.replace(/\b[0-9A-F]{8,}\b/g, ' ').toLowerCase().match(/\p{L}{3,}/gu) ?? []);
const actionOf = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');

describe('the payment simulator page in Tagalog', () => {
  it('every text of the pay page and its answer is Tagalog with lang=ty; amounts keep their currency format', async () => {
    const url = await payUrl('MAYA', 500_00);
    const en = await get(url);
    const ty = await get(`${url}?lang=ty`);
    expect(en).toContain('<html lang="en">');
    expect(ty).toContain('<html lang="tl">');
    for (const html of [en, ty]) expect(html).toContain('₱500.00');
    const T = PAY_PAGE_TEXTS.ty;
    for (const s of [T.title, T.pay, T.fail]) expect(ty).toContain(s);
    // No English word of the EN page is left on the TY page, but the channel's name (Maya) and "simulator",
    // the portal's own Tagalog word ("Simulator ng vendor", client/src/i18n/locales/ty/ops.json).
    const english = [...words(visible(ty))].filter((w) => words(visible(en)).has(w) && !['maya', 'simulator'].includes(w));
    expect(english, visible(ty)).toEqual([]);
    expect(ty).not.toMatch(/Payment simulator|Pay order|>Pay<|>Fail</);

    // The form posts back in Tagalog; the answer and its back link are Tagalog too.
    const action = actionOf(ty);
    expect(action).toMatch(/\?lang=ty$/);
    expect(actionOf(en)).not.toContain('lang=');
    const paid = await post(action, 'paid');
    expect(paid).toContain('<html lang="tl">');
    expect(paid).toContain(T.paid);
    expect(paid).toContain(T.back);
    expect(visible(paid)).not.toMatch(/Payment|Back to the site|successful/);
    // Opened again once paid.
    expect(await get(`${url}?lang=ty`)).toContain(T.alreadyPaid);
  });

  it('a failed payment and a refused form answer in Tagalog too; without lang (or another) the page is English', async () => {
    const url = await payUrl('GCASH', 200_00);
    const failed = await post(actionOf(await get(`${url}?lang=ty`)), 'failed');
    expect(failed).toContain(PAY_PAGE_TEXTS.ty.failed);
    expect(await post(`${url}?lang=ty`, 'maybe')).toContain(PAY_PAGE_TEXTS.ty.choose);
    expect(await get('/pay/sim/SIMNOSUCHORDER?lang=ty')).toContain(PAY_PAGE_TEXTS.ty.orderNotFound);
    const other = await get(`${url}?lang=xx`);
    expect(other).toContain('<html lang="en">');
    expect(other).toContain('Payment simulator');
  });
});
