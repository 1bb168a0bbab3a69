import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { gridWindow } from './grid-window';

type VirtualGridProps<T> = {
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  minColumnWidth: number;
  gap: number;
  /** Row height for a column width (cards keep their aspect ratio). */
  rowHeight: (columnWidth: number) => number;
  /** Called when the last rows come into view (infinite scroll). */
  onEndReached?: () => void;
  testId?: string;
};

/**
 * A windowed grid: only the rows near the viewport are in the DOM, so thousands of loaded games
 * stay cheap. It follows the page scroll (any scrolling ancestor, via a capturing listener).
 */
export function VirtualGrid<T>({ items, itemKey, renderItem, minColumnWidth, gap, rowHeight, onEndReached, testId }: VirtualGridProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [viewport, setViewport] = useState({ top: 0, height: 800 });

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    setViewport((v) => (v.top === -rect.top && v.height === window.innerHeight ? v : { top: -rect.top, height: window.innerHeight }));
  }, []);

  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    };
    measure();
    document.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
    };
  }, [measure]);

  const w = gridWindow({ count: items.length, width, minColumnWidth, gap, rowHeight, viewportTop: viewport.top, viewportHeight: viewport.height });

  useEffect(() => {
    if (onEndReached && items.length > 0 && w.endRow >= w.rows - 2) onEndReached();
  }, [onEndReached, items.length, w.endRow, w.rows]);

  const visible = items.slice(w.startRow * w.columns, w.endRow * w.columns);
  return (
    <div ref={ref} className="virtual-grid" style={{ height: w.totalHeight }} data-testid={testId} data-count={items.length}>
      <div
        className="virtual-grid__rows"
        style={{
          transform: `translateY(${w.offsetTop}px)`,
          gridTemplateColumns: `repeat(${w.columns}, minmax(0, 1fr))`,
          gridAutoRows: w.rowHeight,
          gap,
        }}
      >
        {visible.map((item) => (
          <div key={itemKey(item)} className="virtual-grid__cell">{renderItem(item)}</div>
        ))}
      </div>
    </div>
  );
}
