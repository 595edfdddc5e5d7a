import { useMemo, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { deviceTypeLabel, lockTypeLabel } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import { CopyText } from '../../components/CopyText';
import { DataTable, type DataTableColumn, type PageSelection } from '../../components/DataTable';
import { displayValue } from '../../components/EmptyValue';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { formatDateTime } from '../../components/formatDate';
import { DeviceActionMenu } from './DeviceActionMenu';
import { TimeAgo } from '../../components/TimeAgo';
import { DeviceSummary, brandModel } from './DeviceSummary';
import { statusBadgeClass, statusLabel } from '../../components/statusBadge';
import type { DeviceSort } from '../../../shared/constants/limits';

export type { PageSelection };

const L = INVENTORY_LABELS.devices;
const C = L.columns;

export interface DevicesTableProps {
  rows: Device[];
  /** The first load: placeholder rows instead of data. */
  loading: boolean;
  /** A newer page is on its way (the current rows stay, marked busy). */
  fetching: boolean;
  /** The list could not be loaded: an alert with a retry button. */
  error: boolean;
  onRetry: () => void;
  /** What an empty list shows. */
  empty: ReactNode;
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
  /** 'Cancelar comando pendiente' of a row's menu. */
  onCancelPending: (device: Device) => void;
  /** 'Entregar ahora' of a row's menu (a scheduled release). */
  onDeliverNow: (device: Device) => void;
  onReenroll: (device: Device) => void;
}

function LastSeenCell({ at, now }: { at: string | null; now: number | null }) {
  if (!at) return <>{L.neverSeen}</>;
  return <TimeAgo at={at} now={now} className="text-nowrap" notAhead />;
}

/** The status badge; under 'Liberando', when the release reaches the device (the end of its cancel window). */
function StatusCell({ device }: { device: Device }) {
  const pending = device.pendingCommand;
  const release = pending && pending.action === DEVICE_ACTION.RELEASE && pending.deliveredAt === null ? pending : null;
  return (
    <>
      <span className={statusBadgeClass(device.status)}>{statusLabel(device.status)}</span>
      {release && (
        <small className="d-block text-body-secondary text-nowrap" data-testid="release-from">
          {L.releaseFrom(formatDateTime(release.deliverAfter))}
        </small>
      )}
    </>
  );
}

const getRowId = (d: Device) => d.id;
const rowAttributes = (d: Device) => ({
  'data-testid': 'device-row',
  'data-imei': d.imei,
});

/** The enrolled devices table: one row per device, sortable headers, selection and row menus. */
export function DevicesTable(props: DevicesTableProps) {
  const {
    now,
    onDetail,
    granted,
    onAction,
    onCancelPending,
    onDeliverNow,
    onReenroll,
    isSelected,
    onToggleRow,
    pageSelection,
    onTogglePage,
    onSort,
  } = props;
  const columns = useMemo<DataTableColumn<Device, DeviceSort>[]>(
    () => [
      {
        id: 'imei',
        header: C.imei,
        sortKey: 'imei',
        cell: (d) => (
          <>
            <CopyText text={d.imei} label={C.imei} className="text-nowrap">
              <Button
                variant="link"
                className="p-0 font-monospace text-decoration-none"
                aria-label={L.viewDetailOf(d.imei)}
                onClick={() => onDetail(d.id)}
              >
                {d.imei}
              </Button>
            </CopyText>
            <DeviceSummary device={d} />
          </>
        ),
      },
      {
        id: 'deviceType',
        header: C.type,
        hideBelow: 'xxl',
        cell: (d) => deviceTypeLabel(d.deviceType),
      },
      {
        id: 'brand',
        header: C.brandModel,
        hideBelow: 'xxl',
        cell: (d) => displayValue(brandModel(d)),
      },
      {
        id: 'status',
        header: C.status,
        cell: (d) => <StatusCell device={d} />,
      },
      {
        id: 'lockType',
        header: C.lockType,
        cell: (d) => displayValue(lockTypeLabel(d.lockType)),
      },
      {
        id: 'groupName',
        header: C.group,
        cell: (d) => displayValue(d.groupName),
      },
      {
        id: 'customer',
        header: C.customer,
        cell: (d) => (
          <>
            <span className="d-block">{displayValue(d.customerName)}</span>
            {d.creditReference && <small className="d-block text-body-secondary">{d.creditReference}</small>}
          </>
        ),
      },
      {
        id: 'lastSeenAt',
        header: C.lastSeen,
        sortKey: 'lastSeenAt',
        cell: (d) => <LastSeenCell at={d.lastSeenAt} now={now} />,
      },
      {
        id: 'agentVersion',
        header: C.agentVersion,
        // Below 1400 px in the detail panel only.
        hideBelow: 'xxl',
        cell: (d) => displayValue(d.agentVersion),
      },
    ],
    [now, onDetail],
  );
  const selection = useMemo(
    () => ({
      isSelected: (d: Device) => isSelected(d.id),
      onToggleRow,
      page: pageSelection,
      onTogglePage,
      rowLabel: (d: Device) => L.selectRow(d.imei),
      pageLabel: L.selectPage,
    }),
    [isSelected, onToggleRow, pageSelection, onTogglePage],
  );
  const sort = useMemo(() => ({ column: props.sort, order: props.order, onSort }), [props.sort, props.order, onSort]);
  const rowActions = useMemo(
    () => (d: Device) => (
      <DeviceActionMenu
        device={d}
        granted={granted}
        onAction={(code) => onAction(d, code)}
        onDetail={() => onDetail(d.id)}
        onCancelPending={() => onCancelPending(d)}
        onDeliverNow={() => onDeliverNow(d)}
        onReenroll={() => onReenroll(d)}
        now={now}
      />
    ),
    [granted, onAction, onDetail, onCancelPending, onDeliverNow, onReenroll, now],
  );
  return (
    <DataTable
      columns={columns}
      rows={props.rows}
      getRowId={getRowId}
      rowAttributes={rowAttributes}
      caption={L.tableCaption}
      loading={props.loading}
      loadingLabel={L.loading}
      fetching={props.fetching}
      error={props.error}
      onRetry={props.onRetry}
      empty={props.empty}
      emptyTestId="devices-empty"
      placeholderRows={props.placeholderRows}
      sort={sort}
      selection={selection}
      rowActions={rowActions}
      size="sm"
      testId="devices-table"
    />
  );
}
