import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import express from 'express';
import { z } from 'zod';
import { DEPOSIT_ORDER_TTL_MINUTES, PAY_SIM_PATH, SIM_SIGNATURE_HEADER, paymentCallbackPath } from '@portal/contracts/api/cashier';
import { currencyExponent, formatMinor } from '@portal/contracts/domain/money';
import type { Db } from '../../db/db.ts';
import { isLocalRequest } from '../dev/local-only.ts';

/** The pay page's one inline style block: the CSP allows exactly this text by its hash (app/security-headers.ts). */
export const SIM_PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px;color:#1b1b1b}' +
  '.card{border:1px solid #ddd;border-radius:12px;padding:20px}.amt{font-size:28px;font-weight:700;margin:8px 0 20px}' +
  'button{font-size:16px;padding:10px 18px;border-radius:8px;border:0;margin-right:8px;cursor:pointer}.pay{background:#0a7cff;color:#fff}.fail{background:#eee}' +
  'small{color:#777}';

/**
 * The pay page's words in the portal's languages: the portal adds `lang=en|ty` to the pay URL (from the
 * player's language); anything else is English. Tagalog follows the portal's own words (client locales).
 */
export const PAY_PAGE_TEXTS = {
  en: {
    title: 'Payment simulator', payment: 'Payment', payOrder: 'Pay order {ref}', pay: 'Pay', fail: 'Fail',
    paid: 'Payment successful', failed: 'Payment failed', notNotified: 'The merchant was not notified yet.', back: 'Back to the site',
    alreadyPaid: 'Already paid', notFound: 'Not found', orderNotFound: 'Order not found', choose: 'Choose Pay or Fail', unchangeable: 'This order cannot be changed',
    expired: 'This payment has expired. Make a new deposit on the site.',
  },
  ty: {
    title: 'Simulator ng pagbabayad', payment: 'Pagbabayad', payOrder: 'Bayaran ang deposito {ref}', pay: 'Magbayad', fail: 'Biguin ang bayad',
    paid: 'Matagumpay ang pagbabayad', failed: 'Nabigo ang pagbabayad', notNotified: 'Hindi pa naaabisuhan ang site.', back: 'Bumalik sa site',
    alreadyPaid: 'Bayad na', notFound: 'Hindi nahanap', orderNotFound: 'Hindi nahanap ang deposito', choose: 'Piliin ang Magbayad o Biguin ang bayad', unchangeable: 'Hindi na mababago ang depositong ito',
    expired: 'Nag-expire na ang bayad na ito. Gumawa ng bagong deposito sa site.',
  },
} as const;
export type TPayPageLang = keyof typeof PAY_PAGE_TEXTS;
const langOf = (req: Request): TPayPageLang => (req.query.lang === 'ty' ? 'ty' : 'en');

/** The pay page's currency signs (another currency shows its code). */
const CURRENCY_SIGNS: Record<string, string> = { PHP: '₱', VND: '₫' };

/** What a provider tells us about one of its orders, once its signature checked out. */
export type PaymentNotification = {
  providerOrderId: string;
  /** Our order reference, echoed by the provider. */
  merchantOrderId: string;
  status: 'paid' | 'failed';
  amount: number;
  currency: string;
};

export type CreateOrderInput = { merchantOrderId: string; amount: number; currency: string; channel: string; returnUrl: string };

/**
 * The interface every payment provider adapter implements: the built-in simulator now, a real
 * GCash/Maya/InstaPay aggregator later. Orders are created server to server; the player is sent
 * to `payUrl`; the provider calls back POST /wps/payment/callback/:code with a signed body.
 */
export type PaymentProvider = {
  readonly code: string;
  createOrder(input: CreateOrderInput): Promise<{ providerOrderId: string; payUrl: string }>;
  /** Check the signature over the raw body and parse it; a refusal names why (logged, never credited). */
  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): { ok: true; notification: PaymentNotification } | { ok: false; reason: string };
  /**
   * The provider's order query (server to server): the order's outcome when it has one, else null. The
   * deposit job asks it about orders still pending, so one whose callback never arrived (the node that
   * would take it died, or the call failed) is credited all the same.
   */
  queryOrder?(providerOrderId: string): Promise<PaymentNotification | null>;
};

const SIM_TOLERANCE_S = 300;
const ZSimNotification = z
  .object({
    orderId: z.string().min(1).max(64),
    merchantOrderId: z.string().min(1).max(64),
    status: z.enum(['paid', 'failed']),
    amount: z.number().int().positive(),
    currency: z.string().max(8),
    at: z.string(),
  })
  .strict();

export function signSim(secret: string, rawBody: string, t = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return `t=${t},v1=${mac}`;
}

/**
 * The payment simulator: a provider living inside the gateway with its own book of orders
 * (payment_sim_orders), a pay page with 'Pay' and 'Fail' buttons, and HMAC-SHA256-signed callbacks
 * sent over real HTTP to the gateway's own callback endpoint, exactly as an outside provider would.
 */
export function createSimProvider(db: Db, secret: string, log: { warn(o: unknown, m?: string): void }) {
  const provider: PaymentProvider = {
    code: 'sim',
    async createOrder(input) {
      const id = `SIM${randomBytes(12).toString('hex').toUpperCase()}`;
      await db.query(
        `INSERT INTO payment_sim_orders (id, merchant_order_id, amount, currency, channel, notify_url, return_url) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, input.merchantOrderId, input.amount, input.currency, input.channel, paymentCallbackPath('sim'), input.returnUrl],
      );
      return { providerOrderId: id, payUrl: `${PAY_SIM_PATH}/${id}` };
    },
    verifyCallback(headers, rawBody) {
      const header = headers[SIM_SIGNATURE_HEADER];
      const value = Array.isArray(header) ? header[0] : header;
      const m = value ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(value) : null;
      if (!m) return { ok: false, reason: 'missing or malformed signature' };
      const t = Number(m[1]);
      if (Math.abs(Date.now() / 1000 - t) > SIM_TOLERANCE_S) return { ok: false, reason: 'signature timestamp out of tolerance' };
      const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
      const given = Buffer.from(m[2]!, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature mismatch' };
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { ok: false, reason: 'body is not JSON' };
      }
      const n = ZSimNotification.safeParse(json);
      if (!n.success) return { ok: false, reason: 'body does not match the notification schema' };
      return { ok: true, notification: { providerOrderId: n.data.orderId, merchantOrderId: n.data.merchantOrderId, status: n.data.status, amount: n.data.amount, currency: n.data.currency } };
    },
  };

  type SimOrder = { id: string; merchant_order_id: string; amount: number; currency: string; channel: string; notify_url: string; return_url: string; status: string; created_at: Date | string };
  provider.queryOrder = async (providerOrderId) => {
    const o = (await db.query<SimOrder>('SELECT * FROM payment_sim_orders WHERE id = $1', [providerOrderId])).rows[0];
    if (!o || (o.status !== 'paid' && o.status !== 'failed')) return null;
    return { providerOrderId: o.id, merchantOrderId: o.merchant_order_id, status: o.status, amount: Number(o.amount), currency: o.currency };
  };
  const simExpired = (o: SimOrder) => o.status !== 'paid' && Date.now() - new Date(o.created_at).getTime() >= DEPOSIT_ORDER_TTL_MINUTES * 60_000;
  const page = (lang: TPayPageLang, title: string, body: string) =>
    `<!doctype html><html lang="${lang === 'ty' ? 'tl' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${esc(title)}</title><style>${SIM_PAGE_STYLE}</style></head><body><div class="card">${body}</div></body></html>`;

  /** Where this very gateway listens, from the pay page request's own socket: the simulator calls back the node it runs on. */
  function selfOrigin(req: Request): string {
    let host = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    if (host === '::' || host === '0.0.0.0') host = '127.0.0.1';
    if (host.includes(':')) host = `[${host}]`;
    return `http://${host}:${req.socket.localPort}`;
  }

  async function notify(req: Request, o: SimOrder, status: 'paid' | 'failed'): Promise<boolean> {
    const raw = JSON.stringify({ orderId: o.id, merchantOrderId: o.merchant_order_id, status, amount: o.amount, currency: o.currency, at: new Date().toISOString() });
    try {
      const res = await fetch(selfOrigin(req) + o.notify_url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIM_SIGNATURE_HEADER]: signSim(secret, raw) },
        body: raw,
        signal: AbortSignal.timeout(10_000),
      });
      return res.ok;
    } catch (err) {
      log.warn({ err, order: o.id }, 'payment simulator: callback failed');
      return false;
    }
  }

  /** Outside this machine the pages do not exist: whoever reaches Pay credits the order, so it is a development helper. */
  const notLocal = (req: Request, res: Response) => {
    if (isLocalRequest(req)) return false;
    const lang = langOf(req);
    res.status(404).set('Cache-Control', 'no-store').type('html').send(page(lang, PAY_PAGE_TEXTS[lang].payment, `<h2>${PAY_PAGE_TEXTS[lang].notFound}</h2>`));
    return true;
  };

  /** The pay page (GET) and its form post (POST): not the SPA, a small self-contained page; loopback clients only. */
  function mountPages(app: Express) {
    app.get(`${PAY_SIM_PATH}/:id`, async (req: Request, res: Response, next) => {
      try {
        if (notLocal(req, res)) return;
        const lang = langOf(req);
        const T = PAY_PAGE_TEXTS[lang];
        const o = (await db.query<SimOrder>('SELECT * FROM payment_sim_orders WHERE id = $1', [String(req.params.id)])).rows[0];
        res.set('Cache-Control', 'no-store').set('X-Frame-Options', 'DENY').set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
        if (!o) return res.status(404).type('html').send(page(lang, T.payment, `<h2>${T.orderNotFound}</h2>`));
        if (o.status === 'paid') return res.type('html').send(page(lang, T.payment, `<h2>${T.alreadyPaid}</h2><p><a href="${esc(o.return_url)}">${T.back}</a></p>`));
        // A provider's order lives as long as the portal's (DEPOSIT_ORDER_TTL_MINUTES): then it cannot be paid.
        if (simExpired(o)) return res.status(410).type('html').send(page(lang, T.payment, `<h2>${T.expired}</h2><p><a href="${esc(o.return_url)}">${T.back}</a></p>`));
        // The form posts back with the page's language, so the answer page speaks it too.
        const action = `${PAY_SIM_PATH}/${encodeURIComponent(o.id)}${lang === 'en' ? '' : `?lang=${lang}`}`;
        res.type('html').send(page(lang, T.title, `<small>${T.title} · ${esc(o.channel)}</small><h2>${esc(T.payOrder.replace('{ref}', o.merchant_order_id))}</h2>` +
          `<div class="amt">${esc(formatMinor(o.amount, CURRENCY_SIGNS[o.currency] ?? `${o.currency} `, currencyExponent(o.currency)))}</div>` +
          `<form method="post" action="${esc(action)}"><button class="pay" name="outcome" value="paid">${T.pay}</button>` +
          `<button class="fail" name="outcome" value="failed">${T.fail}</button></form>`));
      } catch (err) {
        next(err);
      }
    });
    app.post(`${PAY_SIM_PATH}/:id`, express.urlencoded({ extended: false, limit: '2kb' }), async (req: Request, res: Response, next) => {
      try {
        if (notLocal(req, res)) return;
        const lang = langOf(req);
        const T = PAY_PAGE_TEXTS[lang];
        const outcome = (req.body as Record<string, unknown> | undefined)?.outcome;
        if (outcome !== 'paid' && outcome !== 'failed') return res.status(400).type('html').send(page(lang, T.payment, `<h2>${T.choose}</h2>`));
        // The simulator's own book: an open or failed order may be paid (a retry); a paid one stays paid.
        const r = await db.query<SimOrder>(
          `UPDATE payment_sim_orders SET status = $2 WHERE id = $1 AND status <> 'paid' AND created_at > now() - make_interval(mins => $3) RETURNING *`,
          [String(req.params.id), outcome, DEPOSIT_ORDER_TTL_MINUTES],
        );
        const o = r.rows[0];
        if (!o) {
          const open = (await db.query<SimOrder>(`SELECT * FROM payment_sim_orders WHERE id = $1 AND status <> 'paid'`, [String(req.params.id)])).rows[0];
          if (open && simExpired(open)) return res.status(410).set('Cache-Control', 'no-store').type('html').send(page(lang, T.payment, `<h2>${T.expired}</h2><p><a href="${esc(open.return_url)}">${T.back}</a></p>`));
          // A paid order (the answer page reloaded, which posts the form again): say so, with the way back,
          // and send its callback again as a provider retries one (the first may never have arrived).
          const paid = (await db.query<SimOrder>(`SELECT * FROM payment_sim_orders WHERE id = $1 AND status = 'paid'`, [String(req.params.id)])).rows[0];
          if (paid) {
            await notify(req, paid, 'paid');
            return res.status(409).set('Cache-Control', 'no-store').type('html').send(page(lang, T.payment, `<h2>${T.alreadyPaid}</h2><p><a href="${esc(paid.return_url)}">${T.back}</a></p>`));
          }
          return res.status(409).type('html').send(page(lang, T.payment, `<h2>${T.unchangeable}</h2>`));
        }
        const delivered = await notify(req, o, outcome);
        res.set('Cache-Control', 'no-store').type('html').send(page(lang, T.payment,
          `<h2>${outcome === 'paid' ? T.paid : T.failed}</h2>` +
          (delivered ? '' : `<p><small>${T.notNotified}</small></p>`) +
          `<p><a href="${esc(o.return_url)}">${T.back}</a></p>`));
      } catch (err) {
        next(err);
      }
    });
  }

  return { provider, mountPages };
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
