/** Rows of a windowed grid to render for a viewport (pure, tested). */
export function gridWindow(o: {
  count: number;
  width: number;
  minColumnWidth: number;
  gap: number;
  rowHeight: (columnWidth: number) => number;
  /** Viewport top relative to the grid's top (negative above it). */
  viewportTop: number;
  viewportHeight: number;
  overscan?: number;
}) {
  const overscan = o.overscan ?? 2;
  const columns = Math.max(1, Math.floor((o.width + o.gap) / (o.minColumnWidth + o.gap)));
  const columnWidth = o.width > 0 ? (o.width - o.gap * (columns - 1)) / columns : o.minColumnWidth;
  const rowHeight = Math.ceil(o.rowHeight(columnWidth));
  const stride = rowHeight + o.gap;
  const rows = Math.ceil(o.count / columns);
  const startRow = Math.min(rows, Math.max(0, Math.floor(o.viewportTop / stride) - overscan));
  const endRow = Math.min(rows, Math.max(0, Math.ceil((o.viewportTop + o.viewportHeight) / stride) + overscan));
  return { columns, rowHeight, rows, startRow, endRow, offsetTop: startRow * stride, totalHeight: Math.max(0, rows * stride - o.gap) };
}
