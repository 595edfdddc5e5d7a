/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataTable, type DataTableColumn, type DataTableProps } from './DataTable';

interface Item {
  id: number;
  name: string;
  size: number;
}
const ITEMS: Item[] = [
  { id: 1, name: 'Uno', size: 10 },
  { id: 2, name: 'Dos', size: 20 },
];
const COLUMNS: DataTableColumn<Item, 'name' | 'size'>[] = [
  { id: 'name', header: 'Nombre', sortKey: 'name', cell: (i) => i.name },
  { id: 'size', header: 'Tamaño', sortKey: 'size', className: 'text-end', cell: (i) => i.size },
  { id: 'plain', header: 'Sin orden', cell: () => '—' },
];

function renderTable(props: Partial<DataTableProps<Item, 'name' | 'size'>> = {}) {
  render(<DataTable columns={COLUMNS} rows={ITEMS} getRowId={(i) => i.id} caption="Elementos" loading={false} {...props} />);
  return userEvent.setup();
}

test('rows with their attributes; the table is named by its caption and its header sticks', () => {
  renderTable({ rowAttributes: (i) => ({ 'data-testid': `row-${i.name}` }) });
  const table = screen.getByRole('table', { name: 'Elementos' });
  expect(
    within(screen.getByTestId('row-Dos'))
      .getAllByRole('cell')
      .map((c) => c.textContent),
  ).toEqual(['Dos', '20', '—']);
  expect(table.parentElement!.className).toContain('portal-data-table');
  expect(screen.getByRole('columnheader', { name: /Tamaño/ }).className).toContain('text-end');
});

test('sortable headers: aria-sort on the sorted one, none on the others, nothing on a plain one; a click asks for its key', async () => {
  const onSort = jest.fn();
  const user = renderTable({ sort: { column: 'size', order: 'desc', onSort } });
  expect(screen.getByRole('columnheader', { name: /Tamaño/ }).getAttribute('aria-sort')).toBe('descending');
  expect(screen.getByRole('columnheader', { name: /Nombre/ }).getAttribute('aria-sort')).toBe('none');
  expect(screen.getByRole('columnheader', { name: 'Sin orden' }).hasAttribute('aria-sort')).toBe(false);
  await user.click(screen.getByRole('button', { name: 'Nombre' }));
  expect(onSort).toHaveBeenCalledWith('name');
  expect(screen.getByRole('button', { name: 'Nombre' }).title).toBe('Ordenar por Nombre');
});

test('selection: a checkbox per row and one for the page (mixed when some are selected)', async () => {
  const onToggleRow = jest.fn();
  const onTogglePage = jest.fn();
  const user = renderTable({
    selection: {
      isSelected: (i) => i.id === 1,
      onToggleRow,
      page: 'some',
      onTogglePage,
      rowLabel: (i) => `Seleccionar ${i.name}`,
      pageLabel: 'Seleccionar la página',
    },
  });
  const page = screen.getByRole('checkbox', { name: 'Seleccionar la página' }) as HTMLInputElement;
  expect(page.indeterminate).toBe(true);
  expect(page.getAttribute('aria-checked')).toBe('mixed');
  expect((screen.getByRole('checkbox', { name: 'Seleccionar Uno' }) as HTMLInputElement).checked).toBe(true);
  await user.click(screen.getByRole('checkbox', { name: 'Seleccionar Dos' }));
  expect(onToggleRow).toHaveBeenCalledWith(ITEMS[1]);
  await user.click(page);
  expect(onTogglePage).toHaveBeenCalled();
});

test('row actions: the last column, right-aligned, its header named for screen readers', () => {
  renderTable({ rowActions: (i) => <button type="button">{`Editar ${i.name}`}</button> });
  const header = screen.getByRole('columnheader', { name: 'Acciones' });
  expect(header.className).toContain('text-end');
  expect(screen.getByRole('button', { name: 'Editar Uno' }).closest('td')!.className).toContain('text-end');
});

test('loading: placeholder rows hidden from assistive technology and a status message', () => {
  renderTable({ rows: [], loading: true, placeholderRows: 3, loadingLabel: 'Cargando elementos' });
  expect(screen.getByRole('status').textContent).toBe('Cargando elementos');
  expect(screen.getByRole('table', { name: 'Elementos' }).getAttribute('aria-busy')).toBe('true');
  expect(document.querySelectorAll('tbody tr[aria-hidden="true"]')).toHaveLength(3);
});

test('error: an alert with a retry button instead of the table', async () => {
  const onRetry = jest.fn();
  const user = renderTable({ rows: [], error: true, onRetry });
  expect(screen.queryByRole('table')).toBeNull();
  expect(screen.getByRole('alert').textContent).toContain('No se pudo cargar la información');
  await user.click(screen.getByRole('button', { name: 'Reintentar' }));
  expect(onRetry).toHaveBeenCalled();
});

test("empty: the default text, or the page's own content", () => {
  renderTable({ rows: [] });
  expect(screen.getByText('No hay resultados')).toBeTruthy();
  renderTable({ rows: [], empty: <p>Nada aquí</p>, emptyTestId: 'items-empty' });
  expect(screen.getByTestId('items-empty').textContent).toBe('Nada aquí');
});

test('a column hidden below a breakpoint: its header, cells and placeholders carry the classes that hide it', () => {
  const columns: DataTableColumn<Item, 'name' | 'size'>[] = [COLUMNS[0]!, { ...COLUMNS[1]!, hideBelow: 'xxl' }];
  renderTable({ columns });
  const header = screen.getByRole('columnheader', { name: /Tamaño/ });
  expect(header.className.split(' ')).toEqual(expect.arrayContaining(['text-end', 'd-none', 'd-xxl-table-cell']));
  expect(screen.getByRole('cell', { name: '20' }).className.split(' ')).toEqual(expect.arrayContaining(['text-end', 'd-none', 'd-xxl-table-cell']));
  expect(screen.getByRole('columnheader', { name: /Nombre/ }).className).not.toContain('d-none');

  renderTable({ columns, rows: [], loading: true, placeholderRows: 1 });
  const placeholder = document.querySelector('tbody tr[aria-hidden="true"]')!;
  expect([...placeholder.querySelectorAll('td')].map((td) => td.className.includes('d-xxl-table-cell'))).toEqual([false, true]);
});

test('the card layout of narrow screens: the first column is the title, the others carry their name, the checkbox and actions their place', () => {
  renderTable({
    selection: {
      isSelected: () => false,
      onToggleRow: jest.fn(),
      page: 'none',
      onTogglePage: jest.fn(),
      rowLabel: (i) => i.name,
      pageLabel: 'Página',
    },
    rowActions: (i) => <button type="button">{`Editar ${i.name}`}</button>,
    rowAttributes: (i) => ({ 'data-testid': `row-${i.name}` }),
  });
  const cells = [...screen.getByTestId('row-Uno').querySelectorAll('td')];
  expect(cells.map((td) => td.getAttribute('data-label'))).toEqual([null, null, 'Tamaño', 'Sin orden', null]);
  expect(cells.map((td) => td.className.split(' ').find((c) => c.startsWith('portal-cell-')) ?? null)).toEqual([
    'portal-cell-select',
    'portal-cell-primary',
    null,
    null,
    'portal-cell-actions',
  ]);
  // The headers stay as a bar of the cards when they do something (select the page, sort).
  expect(document.querySelector('thead')!.className).toBe('portal-header-bar');
});

test('no header bar for the cards when no header sorts or selects', () => {
  renderTable();
  expect(document.querySelector('thead')!.className).toBe('');
  renderTable({ sort: { column: undefined, order: undefined, onSort: jest.fn() } });
  expect(document.querySelectorAll('thead')[1]!.className).toBe('portal-header-bar');
});
