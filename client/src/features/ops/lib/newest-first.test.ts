import { describe, expect, it } from 'vitest';
import { fetchNewestFirst, type Page } from './newest-first';

/** An API over ids 1..n, oldest first. */
const api = (n: number) => async (pageNo: number, pageSize: number): Promise<Page<number>> => ({
  list: Array.from({ length: n }, (_, i) => i + 1).slice((pageNo - 1) * pageSize, pageNo * pageSize),
  pageNo,
  pageSize,
  total: n,
});

describe('fetchNewestFirst', () => {
  it('shows the newest rows first', async () => {
    expect((await fetchNewestFirst(api(120), 1, 50)).list).toEqual(Array.from({ length: 20 }, (_, i) => 120 - i));
    expect((await fetchNewestFirst(api(120), 2, 50)).list[0]).toBe(100);
    expect((await fetchNewestFirst(api(120), 3, 50)).list.at(-1)).toBe(1);
  });

  it('handles one page and no rows', async () => {
    expect((await fetchNewestFirst(api(3), 1, 50)).list).toEqual([3, 2, 1]);
    expect(await fetchNewestFirst(api(0), 1, 50)).toEqual({ list: [], pageNo: 1, pageSize: 50, total: 0 });
  });
});
