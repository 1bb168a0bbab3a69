import { describe, expect, it } from 'vitest';
import type { TWinner } from '@portal/contracts/api/games';
import { LIMITS } from '@portal/contracts/domain/constants';
import { freshWinnerIds, mergeWinners, nextScrollOffset, winnerDisplayName } from './winner-list';

const w = (id: string): TWinner => ({
  id, iconUrl: null, winAmount: 123456, gameName: 'Fortune Gems', customerName: 'juan', at: '2025-01-01T00:00:00Z',
});
const ids = (list: TWinner[]) => list.map((x) => x.id);

describe('mergeWinners', () => {
  it('prepends new winners and keeps the order', () => {
    expect(ids(mergeWinners([w('b'), w('a')], [w('c')]))).toEqual(['c', 'b', 'a']);
  });
  it('drops duplicates, keeping the incoming copy', () => {
    const fresh = { ...w('b'), winAmount: 1 };
    const merged = mergeWinners([w('b'), w('a')], [fresh]);
    expect(ids(merged)).toEqual(['b', 'a']);
    expect(merged[0]?.winAmount).toBe(1);
  });
  it('keeps at most 20', () => {
    const current = Array.from({ length: 20 }, (_, i) => w(`old${i}`));
    const merged = mergeWinners(current, [w('new')]);
    expect(merged).toHaveLength(LIMITS.WINNER_BOARD_LIMIT);
    expect(merged[0]?.id).toBe('new');
    expect(merged.at(-1)?.id).toBe('old18');
  });
});

describe('freshWinnerIds', () => {
  it('highlights nothing on the first load', () => {
    expect(freshWinnerIds(undefined, [w('a')])).toEqual([]);
  });
  it('finds winners that arrived since the last render', () => {
    expect(freshWinnerIds([w('a')], [w('c'), w('b'), w('a')])).toEqual(['c', 'b']);
    expect(freshWinnerIds([w('a')], [w('a')])).toEqual([]);
  });
});

describe('nextScrollOffset', () => {
  it('advances by the step and wraps after one copy of the list', () => {
    expect(nextScrollOffset(0, LIMITS.WINNER_SCROLL_STEP, 100)).toBe(0.5);
    expect(nextScrollOffset(99.5, 0.5, 100)).toBe(0);
    expect(nextScrollOffset(99.8, 0.5, 100)).toBeCloseTo(0.3);
    expect(nextScrollOffset(40, 0.5, 0)).toBe(0);
  });
});

describe('winnerDisplayName', () => {
  it('masks full names and keeps names the server masked', () => {
    expect(winnerDisplayName('juanito')).toBe('j****o');
    expect(winnerDisplayName('Ja***n')).toBe('Ja***n');
    expect(winnerDisplayName('al')).toBe('a*');
  });
});
