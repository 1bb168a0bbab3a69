import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { acceptedEncodings } from './static-files.ts';

const JS = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
const HTML = '<!doctype html><html><head><script type="module" src="/assets/index-AbCd1234.js"></script></head><body><div id="root"></div></body></html>';

/** A build as client/build/precompress.ts leaves it: hashed assets with .br and .gz beside them. */
function fakeDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-static-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  const put = (rel: string, body: string | Buffer) => writeFileSync(path.join(dir, rel), body);
  put('index.html', HTML);
  put('index.html.gz', gzipSync(HTML));
  put('assets/index-AbCd1234.js', JS);
  put('assets/index-AbCd1234.js.br', brotliCompressSync(JS));
  put('assets/index-AbCd1234.js.gz', gzipSync(JS));
  put('assets/app-Zz_9-yX1.css', 'body{color:red}');
  put('theme-boot.js', 'document.documentElement.dataset.theme="dark";');
  put('.vite/manifest.json', '{"index.html":{}}');
  return dir;
}

/** Raw HTTP (fetch would decode the body and hide Content-Encoding handling). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('built client files', () => {
  let t: TestPortal;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await startTestPortal({ NODE_ENV: 'production', SEED: 'none', CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  const asset = () => t.url + '/assets/index-AbCd1234.js';

  it('sends brotli to a browser that accepts it, with immutable caching and Vary', async () => {
    const res = await get(asset(), { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.body).toString()).toBe(JS);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(JS.length / 4);
  });

  it('sends gzip when brotli is not accepted (or refused with q=0)', async () => {
    for (const ae of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const res = await get(asset(), { 'accept-encoding': ae });
      expect(res.headers['content-encoding'], ae).toBe('gzip');
      expect(res.headers['vary'], ae).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control'], ae).toBe('public, max-age=31536000, immutable');
      expect(gunzipSync(res.body).toString(), ae).toBe(JS);
    }
  });

  it('falls back to the file itself without Accept-Encoding, still with Vary', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Array<Record<string, string>>) {
      const res = await get(asset(), headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toMatch(/accept-encoding/i);
      expect(res.body.toString()).toBe(JS);
    }
  });

  it('answers HEAD with the headers of the chosen variant and no body', async () => {
    const res = await get(asset(), { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body.length).toBe(0);
  });

  it('serves a hashed file without variants as itself, immutable, without Vary', async () => {
    const res = await get(t.url + '/assets/app-Zz_9-yX1.css', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['vary'] ?? '').not.toMatch(/accept-encoding/i);
  });

  it('serves index.html (and every page path) with no-cache, gzip when it can', async () => {
    for (const p of ['/', '/member', '/index.html']) {
      const res = await get(t.url + p, { 'accept-encoding': 'gzip, br' });
      expect(res.status, p).toBe(200);
      expect(res.headers['cache-control'], p).toBe('no-cache');
      expect(res.headers['content-type'], p).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], p).toBe('gzip');
      expect(res.headers['vary'], p).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.body).toString(), p).toBe(HTML);
      // The CSP stays on the page.
      expect(res.headers['content-security-policy'], p).toContain("script-src 'self'");
    }
    const plain = await get(t.url + '/');
    expect(plain.body.toString()).toBe(HTML);
  });

  it('revalidates a file whose name has no hash', async () => {
    const res = await get(t.url + '/theme-boot.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const etag = res.headers['etag'] as string;
    expect(etag).toBeTruthy();
    expect((await get(t.url + '/theme-boot.js', { 'if-none-match': etag })).status).toBe(304);
  });

  it('answers a missing asset (a chunk of an older build) with a 404 envelope, not the page', async () => {
    for (const p of ['/assets/index-0ld0ld00.js', '/assets/index-0ld0ld00.js.br']) {
      const res = await get(t.url + p, { 'accept-encoding': 'br, gzip' });
      expect(res.status, p).toBe(404);
      expect(res.headers['content-encoding'], p).toBeUndefined();
      expect(JSON.parse(res.body.toString()), p).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });

  it('answers a path under an API prefix that nothing serves with an envelope, not the page', async () => {
    for (const p of ['/wps/nothing', '/lgw/vn/nothing', '/lotto/lgw/nothing']) {
      const res = await get(t.url + p, { 'accept-encoding': 'gzip' });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(res.headers['content-type'], p).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()), p).toMatchObject({ success: false });
    }
    // /lotto alone is not an API prefix: a page path.
    expect((await get(t.url + '/lotto')).headers['content-type']).toMatch(/^text\/html/);
  });

  it('does not serve dotfiles or anything outside the build', async () => {
    const manifest = await get(t.url + '/.vite/manifest.json');
    expect(manifest.body.toString()).not.toContain('"index.html":{}');
    const outside = await get(t.url + '/assets/..%2f..%2fetc%2fpasswd');
    expect(outside.body.toString()).not.toContain('root:');
  });
});

describe('acceptedEncodings', () => {
  it('reads codings and drops those with q=0', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedEncodings('br;q=0, gzip;q=0.5')]).toEqual(['gzip']);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
    expect([...acceptedEncodings('*')]).toEqual(['*']);
  });
});
