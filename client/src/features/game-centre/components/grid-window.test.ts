import { describe, expect, it } from 'vitest';
import { gridWindow } from './grid-window';

const base = { width: 1000, minColumnWidth: 180, gap: 16, rowHeight: (w: number) => w + 60, viewportHeight: 800 };

describe('grid window', () => {
  it('renders only the rows near the viewport out of thousands', () => {
    const w = gridWindow({ ...base, count: 10_000, viewportTop: 50_000 });
    expect(w.columns).toBe(5);
    expect(w.rows).toBe(2000);
    const rendered = (w.endRow - w.startRow) * w.columns;
    expect(rendered).toBeLessThan(60);
    expect(w.offsetTop).toBe(w.startRow * (w.rowHeight + 16));
    expect(w.startRow * (w.rowHeight + 16)).toBeLessThanOrEqual(50_000);
  });

  it('starts at the top and clamps at the end', () => {
    const top = gridWindow({ ...base, count: 12, viewportTop: -300 });
    expect(top.startRow).toBe(0);
    expect(top.endRow).toBe(3);
    expect(gridWindow({ ...base, count: 0, viewportTop: 0 }).totalHeight).toBe(0);
  });
});
