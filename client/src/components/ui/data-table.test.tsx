import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type Column, columnOf, DataTable, nextSort, sortRows } from './data-table';

type Row = { id: string; name: string; amount: number | null };

const rows: Row[] = [
  { id: 'a', name: 'Item 10', amount: 300 },
  { id: 'b', name: 'item 2', amount: null },
  { id: 'c', name: 'Item 1', amount: 100 },
  { id: 'd', name: 'Item 3', amount: 100 },
];

const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name, rowHeader: true, sortValue: (row) => row.name },
  { id: 'amount', header: 'Amount', cell: (row) => row.amount, align: 'right', sortValue: (row) => row.amount },
  { id: 'actions', header: 'Actions', hideHeader: true, cell: () => null },
];

const ids = (list: Row[]) => list.map((row) => row.id).join('');

describe('sortRows', () => {
  it('keeps the rows as they are without a sort', () => {
    expect(sortRows(rows, columns, null)).toBe(rows);
  });

  it('orders text naturally and without regard to case', () => {
    expect(ids(sortRows(rows, columns, { column: 'name', direction: 'ascending' }))).toBe('cbda');
    expect(ids(sortRows(rows, columns, { column: 'name', direction: 'descending' }))).toBe('adbc');
  });

  it('orders numbers as numbers, keeps ties in their order and puts missing values last both ways', () => {
    expect(ids(sortRows(rows, columns, { column: 'amount', direction: 'ascending' }))).toBe('cdab');
    expect(ids(sortRows(rows, columns, { column: 'amount', direction: 'descending' }))).toBe('acdb');
  });
});

describe('nextSort', () => {
  it('goes ascending, descending, then back to the rows own order', () => {
    const first = nextSort(null, 'amount');
    expect(first).toEqual({ column: 'amount', direction: 'ascending' });
    const second = nextSort(first, 'amount');
    expect(second).toEqual({ column: 'amount', direction: 'descending' });
    expect(nextSort(second, 'amount')).toBeNull();
    expect(nextSort(second, 'name')).toEqual({ column: 'name', direction: 'ascending' });
  });
});

describe('DataTable', () => {
  const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) =>
    renderToStaticMarkup(
      // As a table unless a test asks for cards (rendered without a window, the screen counts as a phone).
      <DataTable caption="Things" columns={columns} rows={rows} rowKey={(row) => row.id} phone="scroll" {...props} />,
    );

  it('has a caption, column headers with scope, row headers and sortable headers with aria-sort and a button', () => {
    const html = render({ rowProps: (row) => ({ 'data-testid': 'thing', 'data-id': row.id }) });
    expect(html).toContain('<caption class="sr-only">Things</caption>');
    expect(html.match(/<th scope="col"/g)).toHaveLength(3);
    expect(html).toMatch(/<th scope="col" class="[^"]*" aria-sort="none"><button type="button"[^>]*>Name/);
    expect(html).toContain('<span class="sr-only">Actions</span>');
    expect(html.match(/<th scope="row"/g)).toHaveLength(4);
    expect(html.match(/data-testid="thing"/g)).toHaveLength(4);
    expect(html).toContain('data-id="c"');
  });

  it('has no sort buttons when the rows are only part of the list', () => {
    const html = render({ sortable: false });
    expect(html).not.toContain('aria-sort');
    expect(html).not.toContain('<button');
  });

  it('shows the order of rows sorted by the server on the headers it names, without sorting them again', () => {
    const html = render({
      serverSort: { columns: ['amount'], sort: { column: 'amount', direction: 'descending' }, onSort: () => {} },
    });
    // Only the named column sorts (Name has a sortValue but is not the server's), and its header says how.
    expect(html).toMatch(/<th scope="col" class="[^"]*">Name<\/th>/);
    expect(html).toMatch(/<th scope="col" class="[^"]*" aria-sort="descending"><button type="button"[^>]*>Amount/);
    expect(html.match(/<button/g)).toHaveLength(1);
    // The rows stay in the order they came in.
    expect(
      html.match(/<th scope="row"[^>]*>([^<]+)</g)?.map((cell) => cell.replace(/.*>/, '').replace('<', '')),
    ).toEqual(['Item 10', 'item 2', 'Item 1', 'Item 3']);
  });

  it('announces loading, with placeholder rows and no data rows', () => {
    const html = render({ loading: true, loadingRows: 2, rowProps: () => ({ 'data-testid': 'thing' }) });
    expect(html).toContain('<div role="status" aria-label="Loading"><span class="sr-only">Loading</span></div>');
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain('data-testid="thing"');
    expect(html.match(/<tr class="border-t">/g)).toHaveLength(2);
  });

  it('shows the empty state in the live region instead of the table', () => {
    const html = render({ rows: [], empty: <p>Nothing here</p> });
    expect(html).toBe('<div role="status"><p>Nothing here</p></div>');
  });

  it('adds a total row in the table foot', () => {
    const html = render({ total: { label: 'Total', value: '$400.00' } });
    expect(html).toMatch(
      /<tfoot><tr[^>]*><th scope="row" colSpan="2"[^>]*>Total<\/th><td[^>]*>\$400.00<\/td><\/tr><\/tfoot>/,
    );
  });

  it('is a table, not cards, when asked to scroll on a phone', () => {
    const html = render();
    expect(html).toContain('<table');
    expect(html).not.toContain('<ul');
  });

  it('puts the identity, amount, status and actions of a row where a card shows them', () => {
    const withRoles: Column<Row>[] = [
      { id: 'when', header: 'When', cell: () => 'Nov 1' },
      { id: 'name', header: 'Name', role: 'identity', cell: (row) => `name ${row.name}` },
      { id: 'amount', header: 'Amount due', role: 'amount', cell: (row) => `$${row.amount ?? 0}` },
      { id: 'status', header: 'Status', cell: () => 'Paid' },
      {
        id: 'actions',
        header: 'Actions',
        hideHeader: true,
        cell: (row) => <button type="button">Pay {row.id}</button>,
      },
    ];
    const html = renderToStaticMarkup(
      <DataTable caption="Things" columns={withRoles} rows={rows.slice(0, 1)} rowKey={(row) => row.id} />,
    );
    // The default on a phone (rendered without a window, the screen counts as narrow): cards.
    expect(html).not.toContain('<table');
    expect(html).toMatch(/<div class="[^"]*font-medium[^"]*">name Item 10<\/div>/);
    expect(html).toMatch(/data-card-role="status">Paid<\/div>/);
    expect(html).toMatch(/data-card-role="amount">.*\$300<\/div><div[^>]*>Amount due<\/div>/);
    expect(html).toMatch(/data-card-role="actions"><button type="button">Pay a<\/button>/);
    // The other columns are labelled facts; those with a place of their own are not repeated as facts.
    expect(html).toContain('<dt class="text-muted-foreground">When</dt>');
    expect(html.match(/<dt/g)).toHaveLength(1);
  });

  it("finds a role's column: the marked one, else the row header or first column, or the role's id", () => {
    const plain: Column<Row>[] = [
      { id: 'a', header: 'A', cell: () => null },
      { id: 'b', header: 'B', rowHeader: true, cell: () => null },
      { id: 'status', header: 'Status', cell: () => null },
      { id: 'actions', header: 'Actions', cell: () => null },
    ];
    expect(columnOf(plain, 'identity')?.id).toBe('b');
    expect(columnOf(plain.slice(2), 'identity')?.id).toBe('status');
    expect(columnOf(plain, 'status')?.id).toBe('status');
    expect(columnOf(plain, 'actions')?.id).toBe('actions');
    expect(columnOf(plain, 'amount')).toBeUndefined();
    expect(columnOf([...plain, { id: 'amount', header: 'Amount', cell: () => null }], 'amount')?.id).toBe('amount');
    const marked: Column<Row>[] = [
      { id: 'x', header: 'X', role: 'status', cell: () => null },
      { id: 'status', header: 'Status', cell: () => null },
      { id: 'y', header: 'Y', role: 'amount', cell: () => null },
    ];
    expect(columnOf(marked, 'status')?.id).toBe('x');
    expect(columnOf(marked, 'amount')?.id).toBe('y');
    // The first column marked with another role is not the identity by default.
    expect(columnOf(marked, 'identity')).toBeUndefined();
  });

  it('turns rows into labelled cards on a phone when asked to', () => {
    // Rendered without a window, the screen counts as narrow.
    const html = render({ phone: 'cards', rowProps: () => ({ 'data-testid': 'thing' }) });
    expect(html).not.toContain('<table');
    expect(html).toContain('<ul aria-label="Things"');
    expect(html.match(/<li class="[^"]*" data-testid="thing">/g)).toHaveLength(4);
    // The column of id "amount" is the card's amount, at the top right with its header under it.
    expect(html).toMatch(/data-card-role="amount"><div[^>]*>300<\/div><div[^>]*>Amount<\/div>/);
  });
});
