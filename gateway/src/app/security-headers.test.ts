import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as ioClient } from 'socket.io-client';
import { startProductionTestPortal, startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { isAllowedOrigin } from '../realtime/realtime.ts';
import { styleHash } from './security-headers.ts';
import { SIM_PAGE_STYLE } from '../modules/cashier/payment-provider.ts';

/** A built client of our own: index.html, one asset and its source map. */
function fakeDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>');
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map\n');
  writeFileSync(path.join(dir, 'assets', 'app.js.map'), '{"version":3,"sources":["src/secret.ts"],"mappings":""}');
  return dir;
}

/** Every kind of answer the portal gives, with the method that reaches it. */
const RESPONSES: Array<{ what: string; method: string; path: string; status?: number }> = [
  { what: 'the SPA page', method: 'GET', path: '/member' },
  { what: 'the back-office page', method: 'GET', path: '/ops' },
  { what: 'the house game page', method: 'GET', path: '/house/play' },
  { what: 'a static file', method: 'GET', path: '/assets/app.js' },
  { what: 'generated art', method: 'GET', path: '/img/logo.svg' },
  { what: 'an API call', method: 'GET', path: '/wps/system/status' },
  { what: 'an API error', method: 'GET', path: '/wps/member/info', status: 401 },
  { what: 'an unknown API path', method: 'GET', path: '/wps/nothing/here', status: 404 },
  { what: 'the back-office API', method: 'GET', path: '/ops/api/session/keep' },
  { what: 'the house API', method: 'POST', path: '/house/api/state' },
  { what: 'a POST to a page path', method: 'POST', path: '/member', status: 404 },
  { what: 'the health check', method: 'GET', path: '/healthz', status: 200 },
];

function expectSecurityHeaders(h: Headers, what: string) {
  const csp = h.get('content-security-policy') ?? '';
  if (csp.startsWith("default-src 'none'")) {
    // Generated SVG art: nothing may load or run at all (its inline style is the picture's own).
    expect(csp, what).not.toContain('script-src');
  } else {
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toContain("script-src 'self'");
    expect(csp, what).toContain("object-src 'none'");
  }
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, what).not.toMatch(/'unsafe-eval'/);
  expect(csp, what).toContain("frame-ancestors 'self'");
  expect(h.get('x-content-type-options'), what).toBe('nosniff');
  expect(h.get('x-frame-options'), what).toBe('SAMEORIGIN');
  expect(h.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(h.get('x-powered-by'), what).toBeNull();
}

describe('security headers (development mode)', () => {
  let t: TestPortal;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await startTestPortal({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  for (const r of RESPONSES) {
    it(`on ${r.what} (${r.method} ${r.path})`, async () => {
      const res = await fetch(t.url + r.path, { method: r.method, redirect: 'manual', ...(r.method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
      if (r.status) expect(res.status).toBe(r.status);
      expectSecurityHeaders(res.headers, r.what);
      // No HSTS on plain HTTP and never outside production.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    });
  }

  it('answers a missing built file with a 404 envelope, not the page', async () => {
    const res = await fetch(t.url + '/assets/app-0ld.js');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('answers a POST to a page path with the envelope, not an HTML error page', async () => {
    const res = await fetch(t.url + '/member', { method: 'POST' });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('allows the payment simulator page its one inline style block by hash, and nothing else inline', async () => {
    const res = await fetch(t.url + '/healthz');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(new RegExp(`style-src 'self' '${styleHash(SIM_PAGE_STYLE).replace(/[+/]/g, '\\$&')}'`));
    expect(csp).not.toContain("'unsafe-inline'");
  });
});

describe('security headers (production mode)', () => {
  let t: TestPortal;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await startTestPortal({ NODE_ENV: 'production', SEED: 'none', CLIENT_DIST: dist, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends HSTS on requests that reached the proxy over HTTPS, and asks browsers to upgrade', async () => {
    for (const r of RESPONSES) {
      const res = await fetch(t.url + r.path, { method: r.method, headers: { 'x-forwarded-proto': 'https' } });
      expectSecurityHeaders(res.headers, r.what);
      expect(res.headers.get('strict-transport-security'), r.what).toBe('max-age=31536000; includeSubDomains');
      if (!r.path.startsWith('/img/')) expect(res.headers.get('content-security-policy'), r.what).toContain('upgrade-insecure-requests');
    }
  });

  it('sends no HSTS and asks for no upgrade over plain HTTP', async () => {
    for (const r of RESPONSES) {
      const res = await fetch(t.url + r.path, { method: r.method });
      expect(res.headers.get('strict-transport-security'), r.what).toBeNull();
      // upgrade-insecure-requests on a plain-HTTP page sends its own assets to https:// (nothing loads)
      expect(res.headers.get('content-security-policy') ?? '', r.what).not.toContain('upgrade-insecure-requests');
    }
  });

  it('does not serve source maps', async () => {
    const asset = await fetch(t.url + '/assets/app.js');
    expect(asset.status).toBe(200);
    const map = await fetch(t.url + '/assets/app.js.map');
    expect(map.status).toBe(404);
    expect(await map.text()).not.toContain('secret.ts');
  });
});

/** The bootstrap calls, whose cache hits are written before Express (boot-cache.ts). */
const BOOTSTRAP = [
  '/wps/system/status', '/wps/system/whitelabel', '/wps/system/domainRoute', '/wps/system/setting/register',
  '/wps/system/helpCenter?lang=EN', '/lgw/games/game_menus?pageSize=20', '/wps/relay/GCSGAME_gameVendor',
  '/wps/relay/GCSGAME_hotGamesV2', '/wps/relay/GCSGAME_getRankList?limitNum=20', '/wps/relay/MCSFE_getListAnnouncements?types=B,PL,PU,PR',
];

describe('security headers on bootstrap answers served from memory', () => {
  for (const mode of ['development', 'production'] as const) {
    it(`are the same as through Express (${mode} mode, plain HTTP and behind an HTTPS proxy)`, async () => {
      const t = mode === 'production' ? await startProductionTestPortal({ TRUST_PROXY: '1' }) : await startTestPortal({ TRUST_PROXY: '1' });
      try {
        for (const p of BOOTSTRAP) {
          for (const proto of ['http', 'https']) {
            const headers = { 'x-forwarded-proto': proto };
            const first = await fetch(t.url + p, { headers });
            expect(first.status, p).toBe(200);
            // Through Express, with the same request headers.
            const viaExpress = await fetch(t.url + '/healthz', { headers });
            const hits = t.portal.bootCache.stats.hits;
            const hit = await fetch(t.url + p, { headers });
            expect(t.portal.bootCache.stats.hits, `${p} was a cache hit`).toBe(hits + 1);
            expect(await hit.text()).toBe(await first.text());
            expectSecurityHeaders(hit.headers, `${p} from memory`);
            for (const h of ['content-security-policy', 'strict-transport-security', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']) {
              expect(hit.headers.get(h), `${p} ${h} over ${proto}`).toBe(viaExpress.headers.get(h));
            }
            expect(hit.headers.get('strict-transport-security') !== null, `${p} HSTS over ${proto}`).toBe(mode === 'production' && proto === 'https');
          }
        }
      } finally {
        await t.stop();
      }
    });
  }
});

describe('requests Node refuses before the app', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers an oversized URL with a 431 envelope', async () => {
    const { status, body, type } = await new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      const req = httpRequest(`${t.url}/wps/system/status?x=${'a'.repeat(20_000)}`, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(type).toMatch(/application\/json/);
    expect(JSON.parse(body)).toMatchObject({ success: false, code: 'HEADERS_TOO_LARGE' });
  });
});

describe('Socket.IO origin check', () => {
  it('accepts the same host, the merchant domains and non-browser clients; refuses other pages', () => {
    expect(isAllowedOrigin(undefined, 'portal.test', [])).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:8080', '127.0.0.1:8080', [])).toBe(true);
    expect(isAllowedOrigin('https://www.luckypeso.ph', 'api.luckypeso.ph', ['www.luckypeso.ph'])).toBe(true);
    expect(isAllowedOrigin('https://evil.example', '127.0.0.1:8080', ['www.luckypeso.ph'])).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:9999', '127.0.0.1:8080', [])).toBe(false);
    expect(isAllowedOrigin('null', '127.0.0.1:8080', [])).toBe(false);
    expect(isAllowedOrigin('file://x', '127.0.0.1:8080', [])).toBe(false);
  });

  it('refuses a socket opened from a foreign page, over both transports', async () => {
    const t = await startTestPortal();
    try {
      for (const transports of [['websocket'], ['polling']] as const) {
        const connect = (origin: string) =>
          new Promise<'hello' | 'refused'>((resolve) => {
            const s = ioClient(t.url, { transports: [...transports], reconnection: false, forceNew: true, extraHeaders: { origin } });
            s.once('hello', () => {
              s.close();
              resolve('hello');
            });
            s.once('connect_error', () => {
              s.close();
              resolve('refused');
            });
          });
        expect(await connect('https://evil.example'), transports[0]).toBe('refused');
        expect(await connect(t.url), transports[0]).toBe('hello');
      }
    } finally {
      await t.stop();
    }
  });
});
