import type { HTMLAttributes, ReactNode } from 'react';

/** One column of a DataTable: its header, its cell, and the cell's classes (`num` aligns both right). */
export type Column<R> = {
  key: string;
  label: string;
  num?: boolean;
  /** Extra classes of the cell (besides cx-num), fixed or per row. */
  tdClass?: string | ((row: R) => string);
  cell: (row: R) => ReactNode;
};

/**
 * The member centre's list table (cx-table): a header row, one row per item with each cell labelled
 * by its column (data-label: phones show the rows as cards), and the empty note once the list has
 * loaded with nothing in it.
 */
export function DataTable<R>({ columns, rows, rowKey, rowProps, testId, loaded, emptyText }: {
  columns: ReadonlyArray<Column<R>>;
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  /** Attributes of each row (data-testid, data-status, ...). */
  rowProps?: (row: R) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  testId: string;
  loaded: boolean;
  emptyText: string;
}) {
  return (
    <div className="cx-table-wrap">
      <table className="cx-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => <th key={c.key} className={c.num ? 'cx-num' : undefined}>{c.label}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} {...rowProps?.(r)}>
              {columns.map((c) => {
                const extra = typeof c.tdClass === 'function' ? c.tdClass(r) : c.tdClass;
                const cls = [c.num ? 'cx-num' : '', extra ?? ''].filter(Boolean).join(' ');
                return <td key={c.key} data-label={c.label} className={cls || undefined}>{c.cell(r)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {loaded && rows.length === 0 && <p className="cx-empty">{emptyText}</p>}
    </div>
  );
}

/** A card's title with its refresh button beside it. */
export function RefreshHead({ title, onRefresh, label, testId }: { title: ReactNode; onRefresh: () => void; label: string; testId: string }) {
  return (
    <div className="cx-head">
      <h2 className="mc-subtitle">{title}</h2>
      <button type="button" className="btn btn--ghost btn--sm" onClick={onRefresh} data-testid={testId}>
        {label}
      </button>
    </div>
  );
}
