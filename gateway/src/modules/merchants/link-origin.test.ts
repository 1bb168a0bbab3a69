import { describe, expect, it } from 'vitest';
import type { Merchant } from './merchant-directory.ts';
import { isLoopbackHost, linkOrigin, returnOrigin } from './link-origin.ts';

const merchant = (domains: string[], mainDomain: string) => ({ code: 'M1', domains, mainDomain }) as unknown as Merchant;
const req = (host: string, protocol = 'http') => ({ host, hostname: host.replace(/:\d+$/, ''), protocol });
const prod = { isProduction: true };
const dev = { isProduction: false };

describe('linkOrigin: where the links a merchant sends point', () => {
  it('is https://<main_domain> for a request to any of the merchant\'s domains', () => {
    const m = merchant(['www.lucky.ph', 'lucky.ph'], 'lucky.ph');
    expect(linkOrigin(m, req('www.lucky.ph'), prod)).toBe('https://lucky.ph');
    expect(linkOrigin(m, req('LUCKY.PH:8080'), prod)).toBe('https://lucky.ph');
    expect(linkOrigin(merchant([], 'lucky.ph:8443'), req('lucky.ph'), prod)).toBe('https://lucky.ph:8443');
  });

  it('refuses any other host in production, loopback included', () => {
    const m = merchant(['lucky.ph'], 'lucky.ph');
    for (const host of ['evil.example', 'evil.example:8080', 'lucky.ph.evil.example', 'localhost:8080', '127.0.0.1:8080', '']) {
      expect(() => linkOrigin(m, req(host), prod), host).toThrow(expect.objectContaining({ code: 'UNKNOWN_MERCHANT', status: 400 }));
    }
    // a merchant without a main domain cannot send links
    expect(() => linkOrigin(merchant(['lucky.ph'], ''), req('lucky.ph'), prod)).toThrow(expect.objectContaining({ code: 'UNKNOWN_MERCHANT' }));
  });

  it('outside production links a loopback request back to itself, and nothing else', () => {
    const m = merchant([], 'luckypeso.example');
    expect(linkOrigin(m, req('localhost:8080'), dev)).toBe('http://localhost:8080');
    expect(linkOrigin(m, req('127.0.0.1:5173'), dev)).toBe('http://127.0.0.1:5173');
    expect(() => linkOrigin(m, req('evil.example:8080'), dev)).toThrow(expect.objectContaining({ code: 'UNKNOWN_MERCHANT' }));
    // a hostname that only claims loopback while the Host says otherwise is refused
    expect(() => linkOrigin(m, { host: 'evil.example', hostname: 'localhost', protocol: 'http' }, dev)).toThrow(expect.objectContaining({ code: 'UNKNOWN_MERCHANT' }));
    // A merchant whose own domain is a loopback name (the second demo site): the port it was reached on.
    const vn = merchant(['vn.localhost'], 'vn.localhost');
    expect(linkOrigin(vn, req('vn.localhost:8711'), dev)).toBe('http://vn.localhost:8711');
    expect(linkOrigin(vn, req('vn.localhost:8711'), prod)).toBe('https://vn.localhost');
  });

  it('knows loopback names', () => {
    for (const h of ['localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '[::1]', '[::1]:8080']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['localhost.evil.example', '128.0.0.1', '10.0.0.1', 'evil.example']) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('returnOrigin: where a vendor game page links back to', () => {
  it("is the host the player is on when it is one of the merchant's, else the main domain", () => {
    const m = merchant(['www.lucky.ph', 'lucky.ph', 'm.lucky.ph'], 'lucky.ph');
    expect(returnOrigin(m, req('m.lucky.ph'), prod)).toBe('https://m.lucky.ph');
    expect(returnOrigin(m, req('WWW.Lucky.PH:8443'), prod)).toBe('https://www.lucky.ph:8443');
    expect(returnOrigin(m, req('m.lucky.ph'), dev)).toBe('http://m.lucky.ph');
    expect(returnOrigin(m, req('m.lucky.ph', 'https'), dev)).toBe('https://m.lucky.ph');
    for (const host of ['evil.example', 'evil.example:8080', 'lucky.ph.evil.example', '']) expect(returnOrigin(m, req(host), prod), host).toBe('https://lucky.ph');
    // a hostname that claims the merchant's host while the Host header says otherwise
    expect(returnOrigin(m, { host: 'evil.example', hostname: 'm.lucky.ph', protocol: 'https' }, prod)).toBe('https://lucky.ph');
    expect(returnOrigin(merchant([], 'lucky.ph:8443'), req('evil.example'), prod)).toBe('https://lucky.ph:8443');
  });

  it('keeps a loopback origin outside production only', () => {
    const m = merchant([], 'luckypeso.example');
    expect(returnOrigin(m, req('127.0.0.1:8383'), dev)).toBe('http://127.0.0.1:8383');
    expect(returnOrigin(m, req('localhost:8383'), dev)).toBe('http://localhost:8383');
    expect(returnOrigin(m, req('127.0.0.1:8383'), prod)).toBe('https://luckypeso.example');
    expect(returnOrigin(m, req('evil.example:8383'), dev)).toBe('https://luckypeso.example');
    expect(returnOrigin(m, { host: 'evil.example', hostname: 'localhost', protocol: 'http' }, dev)).toBe('https://luckypeso.example');
  });

  it('is null when there is no main domain to fall back to', () => {
    expect(returnOrigin(merchant(['lucky.ph'], ''), req('evil.example'), prod)).toBeNull();
    expect(returnOrigin(merchant(['lucky.ph'], 'bad host/x'), req('evil.example'), prod)).toBeNull();
  });
});
