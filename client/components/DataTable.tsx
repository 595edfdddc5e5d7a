import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { createColumnHelper, FlexRender, tableFeatures, useTable, type RowData } from '@tanstack/react-table';
import { LoadError } from './LoadError';
import { DATA_TABLE_LABELS as L } from '../../shared/constants/labels';
import type { SortOrder } from './useListParams';

/** One column: its header, its cell, and the sort key when the list sorts by it. */
export interface DataTableColumn<T, S extends string = string> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortKey?: S;
  /** Classes of the header and the cells, e.g. 'text-end' or 'text-nowrap'. */
  className?: string;
  /**
   * A column that matters less: hidden below this Bootstrap breakpoint (and in the card layout of
   * narrow screens). Its value must be readable elsewhere: merged into another cell or in a detail view.
   */
  hideBelow?: HideBelow;
}

/** The breakpoints a column can be hidden below (Bootstrap's: 992, 1200 and 1400 px). */
export type HideBelow = 'lg' | 'xl' | 'xxl';

/** Whether the rows of the page are selected: none, some or all. */
export type PageSelection = 'none' | 'some' | 'all';

export interface DataTableSelection<T> {
  isSelected: (row: T) => boolean;
  onToggleRow: (row: T) => void;
  page: PageSelection;
  onTogglePage: () => void;
  /** The accessible names of the checkboxes. */
  rowLabel: (row: T) => string;
  pageLabel: string;
}

export interface DataTableProps<T, S extends string = string> {
  columns: readonly DataTableColumn<T, S>[];
  rows: readonly T[];
  getRowId: (row: T) => string | number;
  /** Extra attributes of a row (data-testid and the like). */
  rowAttributes?: (row: T) => Record<`data-${string}`, string>;
  /** The table's name for assistive technology. */
  caption: string;
  /** The first load: placeholder rows instead of data. */
  loading: boolean;
  /** What screen readers hear while loading (default 'Cargando...'). */
  loadingLabel?: string;
  /** A newer page is on its way (the current rows stay, marked busy). */
  fetching?: boolean;
  /** The list could not be loaded (and there is nothing to show): an alert with a retry button. */
  error?: boolean;
  onRetry?: () => void;
  /** What an empty list shows (default 'No hay resultados'). */
  empty?: ReactNode;
  emptyTestId?: string;
  placeholderRows?: number;
  /** The sort the list is in; the sortable headers call `onSort` with their `sortKey`. */
  sort?: {
    column: S | undefined;
    order: SortOrder | undefined;
    onSort: (column: S) => void;
  };
  selection?: DataTableSelection<T>;
  /** The last column: the row's actions (right-aligned, the header read by screen readers only). */
  rowActions?: (row: T) => ReactNode;
  size?: 'sm';
  testId?: string;
}

function PageCheckbox({ selection, disabled }: { selection: DataTableSelection<never>; disabled: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selection.page === 'some';
  }, [selection.page]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="form-check-input"
      aria-label={selection.pageLabel}
      checked={selection.page === 'all'}
      aria-checked={selection.page === 'some' ? 'mixed' : selection.page === 'all'}
      disabled={disabled}
      onChange={selection.onTogglePage}
    />
  );
}

const features = tableFeatures({});

const HIDE_BELOW: Record<HideBelow, string> = {
  lg: 'd-none d-lg-table-cell',
  xl: 'd-none d-xl-table-cell',
  xxl: 'd-none d-xxl-table-cell',
};

/** A column's classes, those hiding it below its breakpoint, and the layout's own. */
function cellClasses(className: string | undefined, hideBelow: HideBelow | undefined, own: string | undefined): string | undefined {
  return [className, hideBelow && HIDE_BELOW[hideBelow], own].filter(Boolean).join(' ') || undefined;
}

/**
 * The portal's one data table (over @tanstack/react-table): sortable headers with aria-sort,
 * row selection, a sticky header, loading placeholders, the error and empty states, a row
 * actions column, and columns that give way on smaller screens (`hideBelow`). Narrower than
 * 768 px each row reads as a card (portal.css): the first column as its title with the checkbox
 * and the actions beside it, every other cell under its column's name (`data-label`), the
 * sortable headers as a bar above the cards.
 */
export function DataTable<T extends RowData, S extends string = string>(props: DataTableProps<T, S>) {
  const { columns, rows, getRowId, rowAttributes, caption, loading, fetching = false, error = false, onRetry, sort, selection, rowActions } = props;

  const defs = useMemo(() => {
    const helper = createColumnHelper<typeof features, T>();
    const select = selection
      ? [
          helper.display({
            id: '__select',
            header: () => <PageCheckbox selection={selection as DataTableSelection<never>} disabled={loading || rows.length === 0} />,
            cell: ({ row }) => (
              <input
                type="checkbox"
                className="form-check-input"
                aria-label={selection.rowLabel(row.original)}
                checked={selection.isSelected(row.original)}
                onChange={() => selection.onToggleRow(row.original)}
              />
            ),
          }),
        ]
      : [];
    const own = columns.map((c) =>
      helper.display({
        id: c.id,
        header: c.header,
        cell: ({ row }) => c.cell(row.original),
      }),
    );
    const actions = rowActions
      ? [
          helper.display({
            id: '__actions',
            header: () => <span className="visually-hidden">{L.actions}</span>,
            cell: ({ row }) => rowActions(row.original),
          }),
        ]
      : [];
    return helper.columns([...select, ...own, ...actions]);
  }, [columns, selection, rowActions, loading, rows.length]);

  const table = useTable({
    features,
    columns: defs,
    data: rows as T[],
    getRowId: (row: T) => String(getRowId(row)),
  });
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const primaryId = columns[0]?.id;
  const classOf = (id: string): string | undefined => {
    if (id === '__actions') return 'text-end portal-cell-actions';
    if (id === '__select') return 'portal-cell-select';
    const column = byId.get(id);
    return cellClasses(column?.className, column?.hideBelow, id === primaryId ? 'portal-cell-primary' : undefined);
  };
  // Narrow screens keep the headers that do something (sorting, selecting the page) as a bar.
  const headerBar = selection !== undefined || (sort !== undefined && columns.some((c) => c.sortKey !== undefined));

  if (error && rows.length === 0) return <LoadError onRetry={onRetry} />;
  if (!loading && !fetching && rows.length === 0)
    return (
      <div className="py-4 text-center" data-testid={props.emptyTestId}>
        {props.empty ?? <p className="mb-0">{L.noResults}</p>}
      </div>
    );

  return (
    <>
      {loading && (
        <span className="visually-hidden" role="status">
          {props.loadingLabel ?? L.loading}
        </span>
      )}
      <div className="table-responsive portal-data-table">
        <Table hover size={props.size} className="align-middle mb-0" aria-busy={loading || fetching || undefined} data-testid={props.testId}>
          <caption className="visually-hidden">{caption}</caption>
          <thead className={headerBar ? 'portal-header-bar' : undefined}>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const column = byId.get(header.column.id);
                  const sortKey = sort ? column?.sortKey : undefined;
                  const active = sortKey !== undefined && sort?.column === sortKey;
                  const order = sort?.order ?? 'asc';
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={['text-nowrap', classOf(header.column.id)].filter(Boolean).join(' ')}
                      aria-sort={sortKey ? (active ? (order === 'desc' ? 'descending' : 'ascending') : 'none') : undefined}
                    >
                      {sortKey && column && sort ? (
                        <Button
                          variant="link"
                          className="p-0 fw-semibold text-body text-decoration-none text-nowrap"
                          title={L.sortBy(column.header)}
                          onClick={() => sort.onSort(sortKey)}
                        >
                          <FlexRender header={header} />
                          <i
                            className={`bi ${!active ? 'bi-arrow-down-up' : order === 'desc' ? 'bi-sort-down' : 'bi-sort-up'} ms-1`}
                            aria-hidden="true"
                          />
                        </Button>
                      ) : (
                        <FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className={fetching && !loading ? 'opacity-50' : undefined}>
            {loading
              ? Array.from({ length: props.placeholderRows ?? 10 }, (_, i) => (
                  <tr key={`placeholder-${i}`} aria-hidden="true" className="placeholder-glow">
                    {defs.map((c, j) => (
                      <td key={c.id ?? j} className={c.id ? classOf(c.id) : undefined}>
                        <span className="placeholder col-8" />
                      </td>
                    ))}
                  </tr>
                ))
              : table.getRowModel().rows.map((row) => (
                  <tr key={row.id} {...rowAttributes?.(row.original)}>
                    {row.getAllCells().map((cell) => {
                      const column = byId.get(cell.column.id);
                      // A cell of the card layout reads under its column's name (but the title).
                      const label = column && column.id !== primaryId ? column.header : undefined;
                      return (
                        <td key={cell.id} className={classOf(cell.column.id)} data-label={label}>
                          <FlexRender cell={cell} />
                        </td>
                      );
                    })}
                  </tr>
                ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}
