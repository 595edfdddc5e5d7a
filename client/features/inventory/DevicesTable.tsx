import { createContext, use, useEffect, useRef, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { createColumnHelper, FlexRender, tableFeatures, useTable } from '@tanstack/react-table';
import { DEVICE_TYPES, LOCK_TYPES } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device, DeviceSort } from '../../../shared/contracts/devices';
import { CopyText } from '../../components/CopyText';
import { displayValue } from '../../components/EmptyValue';
import { DeviceActionMenu } from './DeviceActionMenu';
import { formatDateTime, relativeTime } from './relativeTime';
import { statusBadgeClass, statusLabel } from './statusBadge';

const L = INVENTORY_LABELS.devices;
const C = L.columns;

/** Whether the rows of the page are selected: none, some or all. */
export type PageSelection = 'none' | 'some' | 'all';

export interface DevicesTableProps {
  rows: Device[];
  /** The first load: placeholder rows instead of data. */
  loading: boolean;
  /** A newer page is on its way (the current rows stay, marked busy). */
  fetching: boolean;
  /** How many placeholder rows to show while loading. */
  placeholderRows: number;
  sort: DeviceSort | undefined;
  order: 'asc' | 'desc' | undefined;
  onSort: (column: DeviceSort) => void;
  isSelected: (id: number) => boolean;
  onToggleRow: (device: Device) => void;
  pageSelection: PageSelection;
  onTogglePage: () => void;
  granted: ReadonlySet<number>;
  now: number | null;
  onDetail: (id: number) => void;
  onAction: (device: Device, code: number) => void;
}

/** Handlers and state the cells read (the column definitions stay at module scope). */
const TableContext = createContext<DevicesTableProps | null>(null);
const useTableContext = () => use(TableContext)!;

const deviceTypeLabel = (code: number) => DEVICE_TYPES.find((t) => t.code === code)?.label ?? String(code);
const lockTypeLabel = (key: string | null) => (key ? (LOCK_TYPES.find((t) => t.key === key)?.label ?? key) : null);

function PageCheckbox() {
  const { pageSelection, onTogglePage, rows, loading } = useTableContext();
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = pageSelection === 'some';
  }, [pageSelection]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="form-check-input"
      aria-label={L.selectPage}
      checked={pageSelection === 'all'}
      aria-checked={pageSelection === 'some' ? 'mixed' : pageSelection === 'all'}
      disabled={loading || rows.length === 0}
      onChange={onTogglePage}
    />
  );
}

function RowCheckbox({ device }: { device: Device }) {
  const { isSelected, onToggleRow } = useTableContext();
  return (
    <input
      type="checkbox"
      className="form-check-input"
      aria-label={L.selectRow(device.imei)}
      checked={isSelected(device.id)}
      onChange={() => onToggleRow(device)}
    />
  );
}

function ImeiCell({ device }: { device: Device }) {
  const { onDetail } = useTableContext();
  return (
    <CopyText text={device.imei} label={C.imei} className="text-nowrap">
      <Button variant="link" className="p-0 font-monospace text-decoration-none" aria-label={L.viewDetailOf(device.imei)} onClick={() => onDetail(device.id)}>
        {device.imei}
      </Button>
    </CopyText>
  );
}

function LastSeenCell({ at }: { at: string | null }) {
  const { now } = useTableContext();
  if (!at) return <>{L.neverSeen}</>;
  const absolute = formatDateTime(at);
  return (
    <time dateTime={at} title={absolute} className="text-nowrap">
      {/* A device clock (or ours) slightly ahead never reads as 'dentro de…'. */}
      {now === null ? absolute : relativeTime(at, Math.max(now, Date.parse(at)))}
    </time>
  );
}

function ActionsCell({ device }: { device: Device }) {
  const { granted, onAction, onDetail } = useTableContext();
  return <DeviceActionMenu device={device} granted={granted} onAction={(code) => onAction(device, code)} onDetail={() => onDetail(device.id)} />;
}

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Device>();

const columns = helper.columns([
  helper.display({ id: 'select', header: () => <PageCheckbox />, cell: ({ row }) => <RowCheckbox device={row.original} /> }),
  helper.accessor('imei', { header: C.imei, cell: ({ row }) => <ImeiCell device={row.original} /> }),
  helper.accessor('deviceType', { header: C.type, cell: ({ getValue }) => deviceTypeLabel(getValue()) }),
  helper.accessor('brand', {
    header: C.brandModel,
    cell: ({ row }) => displayValue([row.original.brand, row.original.model].filter(Boolean).join(' ')),
  }),
  helper.accessor('status', {
    header: C.status,
    cell: ({ getValue }) => <span className={statusBadgeClass(getValue())}>{statusLabel(getValue())}</span>,
  }),
  helper.accessor('lockType', { header: C.lockType, cell: ({ getValue }) => displayValue(lockTypeLabel(getValue())) }),
  helper.accessor('groupName', { header: C.group, cell: ({ getValue }) => displayValue(getValue()) }),
  helper.display({
    id: 'customer',
    header: C.customer,
    cell: ({ row }) => (
      <>
        <span className="d-block">{displayValue(row.original.customerName)}</span>
        {row.original.creditReference && <small className="d-block text-body-secondary">{row.original.creditReference}</small>}
      </>
    ),
  }),
  helper.accessor('lastSeenAt', { header: C.lastSeen, cell: ({ getValue }) => <LastSeenCell at={getValue()} /> }),
  helper.accessor('agentVersion', { header: C.agentVersion, cell: ({ getValue }) => displayValue(getValue()) }),
  helper.display({ id: 'actions', header: () => <span className="visually-hidden">{C.actions}</span>, cell: ({ row }) => <ActionsCell device={row.original} /> }),
]);

/** The columns the API sorts by, with their names (the header of the others is plain text). */
const SORT_OF: Partial<Record<string, { sort: DeviceSort; label: string }>> = {
  imei: { sort: 'imei', label: C.imei },
  lastSeenAt: { sort: 'lastSeenAt', label: C.lastSeen },
};

function SortHeader({ column, label, children }: { column: DeviceSort; label: string; children: ReactNode }) {
  const { sort, order, onSort } = useTableContext();
  const active = sort === column;
  const icon = !active ? 'bi-arrow-down-up' : order === 'desc' ? 'bi-sort-down' : 'bi-sort-up';
  return (
    <Button variant="link" className="p-0 fw-semibold text-body text-decoration-none text-nowrap" title={L.sortBy(label)} onClick={() => onSort(column)}>
      {children}
      <i className={`bi ${icon} ms-1`} aria-hidden="true" />
    </Button>
  );
}

const getRowId = (d: Device) => String(d.id);

/** The enrolled devices table: one row per device, sortable headers, selection and row menus. */
export function DevicesTable(props: DevicesTableProps) {
  const { rows, loading, fetching, placeholderRows, sort, order } = props;
  const table = useTable({ features, columns, data: rows, getRowId });
  return (
    <TableContext value={props}>
      <Table responsive hover size="sm" className="align-middle" aria-busy={loading || fetching || undefined} data-testid="devices-table">
        <caption className="visually-hidden">{L.tableCaption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sortable = SORT_OF[header.column.id];
                const ariaSort = sortable ? (sort === sortable.sort ? (order === 'desc' ? 'descending' : 'ascending') : 'none') : undefined;
                return (
                  <th key={header.id} scope="col" aria-sort={ariaSort} className="text-nowrap">
                    {sortable ? (
                      <SortHeader column={sortable.sort} label={sortable.label}>
                        <FlexRender header={header} />
                      </SortHeader>
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
            ? Array.from({ length: placeholderRows }, (_, i) => (
                <tr key={`placeholder-${i}`} aria-hidden="true" className="placeholder-glow">
                  {columns.map((c, j) => (
                    <td key={c.id ?? j}>
                      <span className="placeholder col-8" />
                    </td>
                  ))}
                </tr>
              ))
            : table.getRowModel().rows.map((row) => (
                <tr key={row.id} data-testid="device-row" data-imei={row.original.imei}>
                  {row.getAllCells().map((cell) => (
                    <td key={cell.id}>
                      <FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </Table>
    </TableContext>
  );
}
