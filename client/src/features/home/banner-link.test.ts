import { describe, expect, it } from 'vitest';
import { bannerImageSrc, bannerTarget } from './banner-link';

describe('bannerTarget', () => {
  it('goes nowhere without a linkage type or linkage', () => {
    expect(bannerTarget({ linkageType: null, linkage: 'https://x.test' })).toBeNull();
    expect(bannerTarget({ linkageType: 'URL', linkage: null })).toBeNull();
    expect(bannerTarget({ linkageType: 'URL', linkage: '  ' })).toBeNull();
  });
  it('opens only http(s) URLs', () => {
    expect(bannerTarget({ linkageType: 'URL', linkage: 'https://promo.example.com/a' })).toEqual({
      kind: 'external', href: 'https://promo.example.com/a',
    });
    expect(bannerTarget({ linkageType: 'URL', linkage: 'javascript:alert(1)' })).toBeNull();
    expect(bannerTarget({ linkageType: 'URL', linkage: 'not a url' })).toBeNull();
  });
  it('navigates to in-app routes only', () => {
    expect(bannerTarget({ linkageType: 'ROUTE', linkage: '/promotions' })).toEqual({ kind: 'route', path: '/promotions' });
    expect(bannerTarget({ linkageType: 'ROUTE', linkage: '//evil.test' })).toBeNull();
    expect(bannerTarget({ linkageType: 'ROUTE', linkage: 'https://evil.test' })).toBeNull();
  });
  it('sends games to their game type page', () => {
    expect(bannerTarget({ linkageType: 'GAME', linkage: 'LIVE' })).toEqual({ kind: 'route', path: '/live' });
    expect(bannerTarget({ linkageType: 'GAME', linkage: 'rng:JL:123' })).toEqual({
      kind: 'route', path: '/rng?vassalage=jl&gameCode=123',
    });
    expect(bannerTarget({ linkageType: 'GAME', linkage: 'LOTT' })).toEqual({ kind: 'route', path: '/lottery' });
    expect(bannerTarget({ linkageType: 'GAME', linkage: 'NOPE' })).toBeNull();
  });
});

describe('bannerImageSrc', () => {
  it("gives the demo banner art its tag line in the page's language", () => {
    expect(bannerImageSrc('/img/banner/welcome.svg?t=Welcome%20Bonus', 'DEMO NA PORTAL')).toBe('/img/banner/welcome.svg?t=Welcome%20Bonus&tag=DEMO%20NA%20PORTAL');
    expect(bannerImageSrc('/img/banner/slots.svg', 'DEMO PORTAL')).toBe('/img/banner/slots.svg?tag=DEMO%20PORTAL');
  });
  it("draws the demo art's title in the page's language: the banner's own title replaces the seeded one", () => {
    expect(bannerImageSrc('/img/banner/welcome.svg?t=Welcome%20Bonus%20100%25', 'DEMO NA PORTAL', 'Bonus sa Pagsalubong 100%'))
      .toBe('/img/banner/welcome.svg?t=Bonus%20sa%20Pagsalubong%20100%25&tag=DEMO%20NA%20PORTAL');
    expect(bannerImageSrc('/img/banner/slots.svg', '', '10,000 na Slot')).toBe('/img/banner/slots.svg?t=10%2C000%20na%20Slot');
  });
  it("leaves an operator's own images as they are", () => {
    for (const url of ['https://cdn.example.com/img/banner/a.svg', '/img/banner/a.png', '/uploads/banner.svg', '//evil.test/img/banner/a.svg']) {
      expect(bannerImageSrc(url, 'DEMO PORTAL', 'Title')).toBe(url);
    }
  });
});
