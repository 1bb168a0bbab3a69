import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { DataTable, type Column } from './data-table';

type Row = { id: number; amount: number };
const columns: Column<Row>[] = [
  { key: 'id', label: 'Ref', cell: (r) => `R${r.id}` },
  { key: 'amount', label: 'Amount', num: true, tdClass: (r) => (r.amount < 0 ? 'out' : 'in'), cell: (r) => r.amount },
];

describe('DataTable (member-centre lists)', () => {
  it('labels each cell with its column, aligns number columns, and gives rows their attributes', () => {
    const html = renderToStaticMarkup(
      <DataTable testId="t" columns={columns} rows={[{ id: 1, amount: -5 }, { id: 2, amount: 7 }]} rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': `row-${r.id}` })} loaded emptyText="Nothing" />,
    );
    expect(html).toContain('<th>Ref</th><th class="cx-num">Amount</th>');
    expect(html).toContain('<tr data-testid="row-1"><td data-label="Ref">R1</td><td data-label="Amount" class="cx-num out">-5</td></tr>');
    expect(html).toContain('<td data-label="Amount" class="cx-num in">7</td>');
    expect(html).not.toContain('Nothing');
  });

  it('says the list is empty only once it has loaded', () => {
    const empty = (loaded: boolean) => renderToStaticMarkup(<DataTable testId="t" columns={columns} rows={[]} rowKey={(r) => r.id} loaded={loaded} emptyText="Nothing" />);
    expect(empty(true)).toContain('<p class="cx-empty">Nothing</p>');
    expect(empty(false)).not.toContain('Nothing');
  });
});
