import { describe, expect, it } from 'vitest';
import type { TGameCategory, TVendor } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { activeNavId, buildNav, lotteryPath, uniqueVendors, vendorIcon, vendorPath } from './nav';

const vendor = (vassalage: string, gameType: GameType): TVendor => ({
  vassalage, gameType, gameCategory: gameType, displayName: vassalage, iconUrl: `/img/${vassalage}.png`, maintenance: false,
});
const lane = (gameType: GameType, names: string[]): TGameCategory => ({ gameType, vendors: names.map((n) => vendor(n, gameType)) });

describe('buildNav', () => {
  it('always shows HOME, JL, PROMO and DOWN, and categories only when they have vendors', () => {
    const nav = buildNav([lane('LIVE', ['EVO']), lane('FISH', [])]);
    expect(nav.map((n) => n.id)).toEqual(['HOME', 'JL', 'LIVE', 'PROMO', 'DOWN']);
  });

  it('shows up to 11 vendor cards and a more card from 11 vendors; none for HOME, JL, PROMO, DOWN', () => {
    const ten = buildNav([lane('RNG', Array.from({ length: 10 }, (_, i) => `V${i}`))]).find((n) => n.id === 'RNG');
    expect(ten?.dropVendors).toHaveLength(10);
    expect(ten?.hasMore).toBe(false);
    const eleven = buildNav([lane('RNG', Array.from({ length: 11 }, (_, i) => `V${i}`))]).find((n) => n.id === 'RNG');
    expect(eleven?.dropVendors).toHaveLength(11);
    expect(eleven?.hasMore).toBe(true);
    const many = buildNav([lane('RNG', Array.from({ length: 15 }, (_, i) => `V${i}`))]).find((n) => n.id === 'RNG');
    expect(many?.dropVendors).toHaveLength(11);
    const nav = buildNav([lane('RNG', ['A'])]);
    for (const id of ['HOME', 'JL', 'PROMO', 'DOWN']) expect(nav.find((n) => n.id === id)?.dropVendors).toEqual([]);
  });

  it('sends lottery entries by their first vendor', () => {
    const nav = buildNav([lane('LOTT', ['TCG_LOTTO_VN', 'X']), lane('ELOTT', ['TCG_SEA']), lane('RNG', ['A'])]);
    expect(nav.find((n) => n.id === 'LOTT')?.path).toBe('/vnLottery');
    expect(nav.find((n) => n.id === 'ELOTT')?.path).toBe('/seaLottery');
    expect(lotteryPath(vendor('OTHER', 'LOTT'))).toBe('/lottery');
  });
});

describe('activeNavId', () => {
  const nav = buildNav([lane('ELOTT', ['E1']), lane('LOTT', ['L1']), lane('LIVE', ['EVO'])]);
  it('highlights one entry when ELOTT and LOTT both lead to /lottery', () => {
    expect(nav.filter((n) => n.path === '/lottery').map((n) => n.id)).toEqual(['ELOTT', 'LOTT']);
    expect(activeNavId(nav, '/lottery', null, undefined)).toBe('ELOTT');
    expect(activeNavId(nav, '/lottery', null, 'LOTT')).toBe('LOTT');
    expect(activeNavId(nav, '/lottery', 'l1', undefined)).toBe('LOTT');
    expect(activeNavId(nav, '/lottery', null, 'LIVE')).toBe('ELOTT');
  });
  it('highlights the lottery entry that lists the vendor of /vnLottery or /seaLottery when that page is not its own path', () => {
    const mixed = buildNav([lane('ELOTT', ['E1', 'TCG_SEA']), lane('LOTT', ['L1', 'TCG_LOTTO_VN']), lane('LIVE', ['EVO'])]);
    expect(mixed.every((n) => n.path !== '/vnLottery' && n.path !== '/seaLottery')).toBe(true);
    expect(activeNavId(mixed, '/vnLottery', null, undefined)).toBe('LOTT');
    expect(activeNavId(mixed, '/seaLottery', null, undefined)).toBe('ELOTT');
    expect(activeNavId(nav, '/vnLottery', null, undefined)).toBeNull();
  });
  it('matches home exactly and other entries with their sub-paths', () => {
    expect(activeNavId(nav, '/', null, undefined)).toBe('HOME');
    expect(activeNavId(nav, '/live', 'EVO', undefined)).toBe('LIVE');
    expect(activeNavId(nav, '/Live/', null, undefined)).toBe('LIVE');
    expect(activeNavId(nav, '/member', null, 'HOME')).toBeNull();
  });
});

describe('vendor helpers', () => {
  it('routes vendors by game type; RNG to the lower-case gameListCenter', () => {
    expect(vendorPath(vendor('JDB', 'RNG'))).toBe('/gameListCenter/jdb/rng?vassalage=JDB');
    expect(vendorPath(vendor('EVO', 'LIVE'))).toBe('/live?vassalage=EVO');
    expect(vendorPath(vendor('TCG_SEA', 'LOTT'))).toBe('/seaLottery?vassalage=TCG_SEA');
  });
  it('lists each vendor once and hides the SEA lottery icon', () => {
    expect(uniqueVendors([lane('RNG', ['A', 'B']), lane('FISH', ['A', 'C'])]).map((v) => v.vassalage)).toEqual(['A', 'B', 'C']);
    expect(vendorIcon(vendor('TCG_SEA', 'LOTT'))).toBeNull();
    expect(vendorIcon(vendor('JDB', 'RNG'))).toBe('/img/JDB.png');
  });
});
