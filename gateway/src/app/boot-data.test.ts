import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// A shared machine can be slow (an operator sign-in hashes a password).
vi.setConfig({ testTimeout: 120_000 });
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { TBootData } from '@portal/contracts/domain/boot-data';
import { bootUrl, homeAnnouncementsQuery, hotGamesQuery, scriptSafeJson } from '@portal/contracts/domain/boot-data';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../testing/test-portal.ts';
import { apiOn } from '../testing/test-members.ts';
import { OPS_TOTP_SECRET, totpNow } from '../testing/ops-totp.ts';

const HTML = '<!doctype html><html><head><script type="module" src="/assets/index-AbCd1234.js"></script></head><body><div id="root"></div></body></html>';

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** index.html as a browser gets it, and its boot data. */
async function page(url: string) {
  const res = await get(url, { 'accept-encoding': 'gzip, br' });
  const html = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body).toString() : res.body.toString();
  const m = /<script type="application\/json" id="boot-data">([\s\S]*?)<\/script>/.exec(html);
  return { res, html, data: m ? (JSON.parse(m[1]!) as TBootData) : null };
}

type Envelope<T> = { success: boolean; value: T };
type Ann = { notices: Array<{ title: string; content: string }> };

let t: TestPortal;
let dist: string;
const call = apiOn(() => t.url);
let opsToken = '';
const sockets: TestSocket[] = [];

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'portal-boot-'));
  writeFileSync(path.join(dist, 'index.html'), HTML);
  t = await startTestPortal({ CLIENT_DIST: dist });
  await t.portal.cashier.operators.createOperator('DEMO', 'bd_content', 'Content12345', ['content'], { totpSecret: OPS_TOTP_SECRET });
  opsToken = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'bd_content', password: 'Content12345', totp: await totpNow() } })).json!.value!.token;
}, 240_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('index.html boot data', () => {
  it('carries the merchant\'s bootstrap answers, as the API sends them, before </head>', async () => {
    const { res, html, data } = await page(t.url + '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(String(res.headers['vary'])).toMatch(/accept-encoding/i);
    expect(String(res.headers['vary'])).toMatch(/host/i);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(html.indexOf('id="boot-data"')).toBeLessThan(html.indexOf('</head>'));
    expect(data).not.toBeNull();
    expect(Object.keys(data!.seq)).toEqual(['merchant:DEMO']);
    for (const [url, body] of Object.entries(data!.calls)) {
      // each answer is byte for byte what the API answers this visitor (same address, same host)
      const api = await fetch(t.url + url);
      expect(body, url).toEqual(await api.json());
    }
    const wl = data!.calls['/wps/system/whitelabel'] as Envelope<{ merchantCode: string }>;
    expect(wl.value.merchantCode).toBe('DEMO');
    for (const lang of ['EN', 'TY'] as const) {
      const ann = data!.calls[bootUrl('/wps/relay/MCSFE_getListAnnouncements', homeAnnouncementsQuery(lang))] as Envelope<Ann>;
      expect(ann.success).toBe(true);
      expect(ann.value.notices.length).toBeGreaterThan(0);
      expect(data!.calls[bootUrl('/wps/relay/GCSGAME_hotGamesV2', hotGamesQuery(lang))]).toBeDefined();
    }
    // every page path gets it, /index.html too
    for (const p of ['/fish', '/index.html']) expect((await page(t.url + p)).data, p).not.toBeNull();
  });

  it('revalidates with an ETag of the body sent', async () => {
    const first = await page(t.url + '/');
    const etag = first.res.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await get(t.url + '/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('escapes operator text, follows an operator\'s edit at once, and the socket catches up from its seq', async () => {
    const before = await page(t.url + '/');
    const seqBefore = before.data!.seq['merchant:DEMO']!;
    const evil = '</script><script>alert(1)</script><!-- \u2028 & end';
    const r = await call('/ops/api/content/announcements', {
      token: opsToken,
      body: {
        kind: 'PL', execution: null, promotionType: null, startAt: new Date(Date.now() - 60_000).toISOString(), endAt: null, sort: -9, published: true,
        en: { title: evil, content: 'Boot data escape test.' }, ty: { title: `TY ${evil}`, content: 'Pagsubok.' },
      },
    });
    expect(r.status).toBe(200);
    const after = await page(t.url + '/');
    // the element still ends where it should: the operator's text adds no tag
    expect(after.html.split('</script>').length).toBe(before.html.split('</script>').length);
    expect(after.html).not.toContain('<script>alert');
    const ann = after.data!.calls[bootUrl('/wps/relay/MCSFE_getListAnnouncements', homeAnnouncementsQuery('EN'))] as Envelope<Ann>;
    expect(ann.value.notices.map((n) => n.title)).toContain(evil);
    expect(after.res.headers['etag']).not.toBe(before.res.headers['etag']);
    expect(after.data!.seq['merchant:DEMO']).toBeGreaterThan(seqBefore);

    // a page that got the old boot data and connects now is sent the change (and so re-reads it)
    const s = await connectSocket(t.url, { last: { 'merchant:DEMO': seqBefore } });
    sockets.push(s);
    await waitFor(() => s.received.some((e) => e.type === 'content.published' && e.seq > seqBefore), 'the change sent on connect');
  });

  it('writes JSON that cannot end its script element', () => {
    const text = scriptSafeJson({ a: '</script><!--<b>&\u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ a: '</script><!--<b>&\u2028\u2029' });
  });
});
