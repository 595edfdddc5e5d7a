import { Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { DEVICE_TYPES, type DeviceTypeCode, type LockType } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import type { BulkBodyInput } from '../../../shared/contracts/jobs';
import { useAppDispatch } from '../../app/hooks';
import type { PageProps } from '../../app/lazyPage';
import { ExportListHeader } from '../../components/ExportListHeader';
import { ListPager } from '../../components/ListPager';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import type { ActionRequest } from './ActionModal';
import { BulkActionBar, SelectAllBanner } from './BulkActionBar';
import type { CancelCommandRequest } from './CancelCommandModal';
import {
  ACTION_MODAL,
  BULK_ACTION_MODAL,
  CANCEL_COMMAND_MODAL,
  DELIVER_RELEASE_MODAL,
  DEVICE_DETAIL,
  DEVICE_OVERLAYS,
  OFFLINE_CODE_MODAL,
  REENROLLMENT_MODAL,
} from './dialogChunks';
import type { DeliverReleaseDevice } from './DeliverReleaseModal';
import { newIdempotencyKey } from './deviceActionItems';
import { DeviceFilters } from './DeviceFilters';
import { DevicesTable, type PageSelection } from './DevicesTable';
import { devicePollingInterval } from './inFlight';
import { inventoryApi, useExportDevicesMutation, useListDevicesQuery } from './inventoryApi';
import { useListGroupsQuery } from '../../api/groupsApi';
import type { ShownOfflineCode } from './OfflineCodeModal';
import type { ReenrollmentDevice } from './ReenrollmentModal';
import { DEVICE_PER_PAGE_OPTIONS, selectionFilter, useDeviceListQuery } from './useDeviceListQuery';
import { useGrantedActions } from './useGrantedActions';
import { useNow } from '../../components/useNow';

const L = INVENTORY_LABELS.devices;
const NO_ROWS: Device[] = [];
const NO_GROUPS: { id: number; name: string }[] = [];

/**
 * The selected devices: ids (of any page, each with its device type), or every device the filter
 * matches. Valid for one filter only.
 */
interface Selection {
  filterKey: string;
  mode: 'ids' | 'filter';
  ids: ReadonlyMap<number, DeviceTypeCode>;
}
const emptySelection = (filterKey: string): Selection => ({ filterKey, mode: 'ids', ids: new Map() });

interface BulkRequest {
  action: number;
  selection: BulkBodyInput['selection'];
  selectionText: string;
  /** The one device type the selection targets; undefined when mixed or unknown. */
  deviceType: DeviceTypeCode | undefined;
}

/** The device type a list of types all share; undefined when they differ (or there are none). */
function onlyType(types: Iterable<DeviceTypeCode>): DeviceTypeCode | undefined {
  const distinct = new Set(types);
  return distinct.size === 1 ? [...distinct][0] : undefined;
}

/**
 * Enrolled devices (/inventory-management/devices): the server-paged, sortable, filterable
 * list with its state in the URL; per-row action menus; the device detail; bulk actions on a
 * selection or on everything the filter matches; CSV export of the filtered set. While a device
 * of the page has a command in flight (inFlight.ts) the page refreshes every second.
 */
export default function DevicesPage({ title }: PageProps) {
  useIdlePrefetch(DEVICE_OVERLAYS);
  const idPrefix = useId();
  const q = useDeviceListQuery();
  const granted = useGrantedActions();
  const now = useNow();
  // Polled only while a row of this page has a command on its way (decided on the cached page).
  const cached = inventoryApi.endpoints.listDevices.useQueryState(q.args);
  const pollingInterval = devicePollingInterval(cached.data?.data ?? NO_ROWS, now);
  const list = useListDevicesQuery(q.args, { pollingInterval, skipPollingIfUnfocused: false });
  const groups = useListGroupsQuery();
  const [exportCsv, exportState] = useExportDevicesMutation();

  const [selectionState, setSelection] = useState<Selection>(() => emptySelection(q.filterKey));
  const [actionRequest, setActionRequest] = useState<ActionRequest | null>(null);
  const [offlineCode, setOfflineCode] = useState<ShownOfflineCode | null>(null);
  const [bulk, setBulk] = useState<BulkRequest | null>(null);
  const [cancelRequest, setCancelRequest] = useState<CancelCommandRequest | null>(null);
  const [deliverRequest, setDeliverRequest] = useState<DeliverReleaseDevice | null>(null);
  const [reenroll, setReenroll] = useState<ReenrollmentDevice | null>(null);
  const [searchKey, setSearchKey] = useState(0);

  const rows = list.data?.data ?? NO_ROWS;
  const dispatch = useAppDispatch();
  // The row the list holds draws the detail at once; the detail's own GET, made as it opens, refreshes it.
  const { openDevice } = q;
  const openDetail = useCallback(
    (id: number) => {
      const row = rows.find((d) => d.id === id);
      if (row) dispatch(inventoryApi.util.upsertQueryEntries([{ endpointName: 'getDevice', arg: id, value: row }]));
      openDevice(id);
    },
    [rows, dispatch, openDevice],
  );
  const total = list.data?.total ?? 0;
  const estimate = list.data?.totalIsEstimate ?? false;
  // A selection belongs to the filter it was made with: a new filter starts with none.
  const selection = selectionState.filterKey === q.filterKey ? selectionState : emptySelection(q.filterKey);
  const selectedOnPage = selection.mode === 'filter' ? rows.length : rows.filter((d) => selection.ids.has(d.id)).length;
  const pageSelection: PageSelection = rows.length === 0 || selectedOnPage === 0 ? 'none' : selectedOnPage === rows.length ? 'all' : 'some';
  const selectedCount = selection.mode === 'filter' ? total : selection.ids.size;

  const { filterKey, page, setPage } = q;
  // A page past the end (devices deleted, a hand-edited URL): back to the first page.
  useEffect(() => {
    if (list.data && list.data.data.length === 0 && page > 1 && !list.isFetching) setPage(1);
  }, [list.data, list.isFetching, page, setPage]);

  const clearSelection = useCallback(() => setSelection(emptySelection(filterKey)), [filterKey]);
  const isSelected = useCallback((id: number) => selection.mode === 'filter' || selection.ids.has(id), [selection]);
  const onToggleRow = useCallback(
    (device: Device) => {
      if (selection.mode === 'filter') {
        setSelection({ filterKey, mode: 'ids', ids: new Map(rows.filter((d) => d.id !== device.id).map((d) => [d.id, d.deviceType])) });
        return;
      }
      const ids = new Map(selection.ids);
      if (ids.has(device.id)) ids.delete(device.id);
      else ids.set(device.id, device.deviceType);
      setSelection({ filterKey, mode: 'ids', ids });
    },
    [selection, rows, filterKey],
  );
  const onTogglePage = useCallback(() => {
    if (selection.mode === 'filter') return setSelection(emptySelection(filterKey));
    const ids = new Map(selection.ids);
    if (pageSelection === 'all') for (const d of rows) ids.delete(d.id);
    else for (const d of rows) ids.set(d.id, d.deviceType);
    setSelection({ filterKey, mode: 'ids', ids });
  }, [selection, pageSelection, rows, filterKey]);

  const onAction = useCallback((device: Device, action: number, lockType?: LockType) => {
    // One Idempotency-Key per opened modal: a retried submit cannot act twice.
    const { id, imei, deviceType, groupId } = device;
    setActionRequest({ device: { id, imei, deviceType, groupId }, action, idempotencyKey: newIdempotencyKey(), lockType });
  }, []);

  const onCancelPending = useCallback((device: Device) => {
    const pending = device.pendingCommand;
    if (pending) setCancelRequest({ device: { id: device.id, imei: device.imei }, command: { id: pending.id, action: pending.action } });
  }, []);

  const onDeliverNow = useCallback(
    (device: Device) => setDeliverRequest({ id: device.id, imei: device.imei, customerName: device.customerName }),
    [],
  );

  const onReenroll = useCallback((device: Device) => setReenroll({ id: device.id, imei: device.imei, customerName: device.customerName }), []);

  const onBulkStart = (action: number) => {
    const byFilter = selection.mode === 'filter';
    const body: BulkBodyInput['selection'] = byFilter ? { filter: selectionFilter(q.filter) } : { ids: [...selection.ids.keys()] };
    // The filter's device type, or the one every selected device has.
    const deviceType = byFilter ? DEVICE_TYPES.find((t) => String(t.code) === q.filter.deviceType)?.code : onlyType(selection.ids.values());
    setBulk({ action, selection: body, selectionText: INVENTORY_LABELS.bulk.selected(selectedCount, byFilter && estimate), deviceType });
  };

  const clearFilters = () => {
    q.clearFilters();
    setSearchKey((k) => k + 1);
  };

  const groupOptions = useMemo(() => groups.data?.data.map((g) => ({ id: g.id, name: g.name })) ?? NO_GROUPS, [groups.data]);
  const pages = Math.max(1, Math.ceil(total / q.perPage));
  const showBanner = rows.length > 0 && (selection.mode === 'filter' || (pageSelection === 'all' && total > rows.length));

  return (
    <section>
      <ExportListHeader
        title={title}
        exportLabel={L.export}
        exportedMessage={L.exported}
        exporting={exportState.isLoading}
        onExport={() => exportCsv({ ...q.filter, sort: q.sort, order: q.order })}
      />

      <DeviceFilters
        idPrefix={idPrefix}
        filters={q.filters}
        groups={groupOptions}
        onChange={q.setFilter}
        searchKey={searchKey}
        filtersActive={q.filtersActive}
        onClear={clearFilters}
      />

      {selectedCount > 0 && (
        <BulkActionBar
          count={selectedCount}
          estimate={selection.mode === 'filter' && estimate}
          granted={granted}
          onClear={clearSelection}
          onStart={onBulkStart}
        />
      )}
      {showBanner && (
        <SelectAllBanner
          mode={selection.mode === 'filter' ? 'filter' : 'page'}
          pageCount={rows.length}
          total={total}
          estimate={estimate}
          onSelectAll={() => setSelection({ filterKey, mode: 'filter', ids: new Map() })}
          onClear={clearSelection}
        />
      )}

      <DevicesTable
        rows={rows}
        loading={list.isLoading}
        // A live refresh of the same page does not dim the rows every second.
        fetching={list.isFetching && !(pollingInterval > 0 && list.currentData !== undefined)}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        empty={
          <>
            <p className="mb-3">{q.filtersActive ? L.emptyFiltered : L.empty}</p>
            {q.filtersActive && (
              <Button variant="outline-primary" onClick={clearFilters}>
                {L.clearFilters}
              </Button>
            )}
          </>
        }
        placeholderRows={Math.min(q.perPage, 10)}
        sort={q.sort}
        order={q.order}
        onSort={q.toggleSort}
        isSelected={isSelected}
        onToggleRow={onToggleRow}
        pageSelection={pageSelection}
        onTogglePage={onTogglePage}
        granted={granted}
        now={now}
        onDetail={openDetail}
        onAction={onAction}
        onCancelPending={onCancelPending}
        onDeliverNow={onDeliverNow}
        onReenroll={onReenroll}
      />
      {list.data && total > 0 && (
        <ListPager
          page={q.page}
          perPage={q.perPage}
          total={total}
          perPageOptions={DEVICE_PER_PAGE_OPTIONS}
          labels={{ perPage: L.perPage, pagination: L.pagination }}
          summary={L.pageOf(Math.min(q.page, pages), pages, total, estimate)}
          onPage={q.setPage}
          onPerPage={q.setPerPage}
        />
      )}

      <Suspense fallback={null}>
        {q.device !== null && (
          <DEVICE_DETAIL.Component
            key={q.device}
            deviceId={q.device}
            granted={granted}
            onClose={q.closeDevice}
            onAction={onAction}
            onReenroll={onReenroll}
            openAction={q.openAction}
            onActionOpened={q.clearAction}
          />
        )}
        {actionRequest && (
          <ACTION_MODAL.Component
            key={actionRequest.idempotencyKey}
            request={actionRequest}
            onClose={() => setActionRequest(null)}
            onOfflineCode={setOfflineCode}
            onDeleted={(id) => {
              if (q.device === id) q.closeDevice();
            }}
          />
        )}
        {offlineCode && <OFFLINE_CODE_MODAL.Component shown={offlineCode} onClose={() => setOfflineCode(null)} />}
        {cancelRequest && <CANCEL_COMMAND_MODAL.Component request={cancelRequest} onClose={() => setCancelRequest(null)} />}
        {deliverRequest && <DELIVER_RELEASE_MODAL.Component device={deliverRequest} onClose={() => setDeliverRequest(null)} />}
        {reenroll && <REENROLLMENT_MODAL.Component key={reenroll.id} device={reenroll} onClose={() => setReenroll(null)} />}
        {bulk && (
          <BULK_ACTION_MODAL.Component
            action={bulk.action}
            selection={bulk.selection}
            selectionText={bulk.selectionText}
            deviceType={bulk.deviceType}
            onClose={() => setBulk(null)}
            onStarted={clearSelection}
          />
        )}
      </Suspense>
    </section>
  );
}
