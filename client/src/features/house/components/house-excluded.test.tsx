import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { RgExclusionContext } from '../../../lib/rg-exclusion';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { HousePlayPage } from './house-play-page';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

describe('the house game page of an excluded player', () => {
  it('plays nothing, play money included: a bookmarked free-play link shows the exclusion, in EN and TY', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const html = await renderStatic(lang, (
        <RgExclusionContext.Provider value={{ kind: 'cooling', until: '2026-12-08T06:00:00.000Z' }}><HousePlayPage /></RgExclusionContext.Provider>
      ), { namespaces: ['house', 'rg'], url: '/house/play?game=SLOT1&mode=free' });
      expect(html).toContain('data-testid="house-excluded"');
      expect(html).toContain('data-testid="rg-closed-games"');
      expect(html).not.toContain('data-testid="house-balance"');
      expect(textOf(html).length).toBeGreaterThan(20);
    }
    const open = await renderStatic('EN', <RgExclusionContext.Provider value={null}><HousePlayPage /></RgExclusionContext.Provider>, { namespaces: ['house', 'rg'], url: '/house/play?game=SLOT1&mode=free' });
    expect(open).not.toContain('data-testid="house-excluded"');
    expect(open).toContain('data-testid="house-balance"');
  });
});
