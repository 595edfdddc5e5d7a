import { Suspense, useState } from 'react';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { deviceTypeLabel } from '../../../shared/constants/domain';
import { ENROLLMENT_LABELS } from '../../../shared/constants/enrollmentLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { PATHS } from '../../../shared/constants/routes';
import type { Device, DeviceBody } from '../../../shared/contracts/devices';
import { refusal } from '../../../shared/deviceActionRules';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { AppModal } from '../../components/AppModal';
import { ConfirmModal } from '../../components/ConfirmModal';
import { EntityFormModal } from '../../components/EntityFormModal';
import { CopyText } from '../../components/CopyText';
import { displayValue } from '../../components/EmptyValue';
import { IconButton } from '../../components/IconButton';
import { ListPager } from '../../components/ListPager';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDateTime } from '../../components/formatDate';
import { SearchInput } from '../../components/SearchInput';
import { toastSuccess } from '../../components/toast';
import { listParam, listParams, nextSort, useListParams } from '../../components/useListParams';
import { deviceBodyOf } from './deviceBodyOf';
import type { SaveOutcome } from '../../components/serverFieldError';
import { DeviceSummary } from './DeviceSummary';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { DEVICE_FORM, ENROLLMENT_QR } from './dialogChunks';
import type { EnrollmentScope } from './EnrollmentQrModal';
import { GroupOptions } from './GroupOptions';
import { useDeleteDeviceMutation, useListDevicesQuery, useUpdateDeviceMutation, type DeviceListArgs } from './inventoryApi';
import { useListGroupsQuery } from '../../api/groupsApi';
import { DEVICE_PER_PAGE_OPTIONS, GROUP_FILTER_PATTERN } from './useDeviceListQuery';
import { useGrantedActions } from './useGrantedActions';
import { DEVICES_DEFAULT_PER_PAGE, SEARCH_MAX, type DeviceSort } from '../../../shared/constants/limits';

const L = INVENTORY_LABELS.preEnrolled;
const EDIT_FORM_ID = 'pre-enrolled-edit-form';
type PreEnrolledSort = Extract<DeviceSort, 'createdAt' | 'imei'>;
/** The first order of each sortable column: IMEI ascending, newest first. */
const FIRST_ORDER: Record<PreEnrolledSort, 'asc' | 'desc'> = { imei: 'asc', createdAt: 'desc' };

const brandModel = (d: Device) => [d.brand, d.model].filter(Boolean).join(' ') || null;

/** The URL of the pre-enrolled list; bad values read as the defaults (newest first). */
const preEnrolledParams = listParams({
  page: listParam.page(),
  perPage: listParam.perPage(DEVICE_PER_PAGE_OPTIONS, DEVICES_DEFAULT_PER_PAGE),
  sort: listParam.oneOf(['imei', 'createdAt']),
  order: listParam.order(),
  search: listParam.text(SEARCH_MAX),
  groupId: listParam.matching(GROUP_FILTER_PATTERN),
});

/** Pre-enrolled devices (status 25): search, group filter, edit, assign a group, QR enrollment, delete. */
export default function PreEnrolledPage({ title, path }: PageProps) {
  useIdlePrefetch(ENROLLMENT_QR);
  useIdlePrefetch(DEVICE_FORM);
  const { allowed } = useCurrentUser();
  const granted = useGrantedActions();
  const canEdit = allowed.has(path);
  const canAdd = allowed.has(PATHS.addDevice);

  const { params, set } = useListParams(preEnrolledParams);
  const { page, perPage, search } = params;
  const sort: PreEnrolledSort = params.sort ?? 'createdAt';
  const order = params.order ?? FIRST_ORDER[sort];
  const groupId = params.groupId ?? '';
  const args: DeviceListArgs = { stage: 'preEnrolled', search: search || undefined, groupId: groupId || undefined, sort, order, page, perPage };
  const filtersActive = Boolean(search || groupId);

  const list = useListDevicesQuery(args);
  const groups = useListGroupsQuery();
  const groupOptions = groups.data?.data ?? [];

  const [editing, setEditing] = useState<Device | null>(null);
  const [assigning, setAssigning] = useState<{ device: Device; groupId: string } | null>(null);
  const [deleting, setDeleting] = useState<Device | null>(null);
  const [enrolling, setEnrolling] = useState<EnrollmentScope | null>(null);
  const [updateDevice, updateState] = useUpdateDeviceMutation();
  const [deleteDevice, deleteState] = useDeleteDeviceMutation();

  const onSort = (column: PreEnrolledSort) => set(nextSort({ sort, order }, column, { firstOrder: FIRST_ORDER[column] }));

  const onEdit = async (body: DeviceBody): Promise<SaveOutcome> => {
    if (!editing) return undefined;
    const res = await updateDevice({ id: editing.id, body });
    if ('error' in res) return { error: formErrorOf(res.error as ApiError) };
    toastSuccess(L.updated(res.data.imei));
    setEditing(null);
    return undefined;
  };

  const onAssign = async () => {
    if (!assigning) return;
    const { device, groupId: chosen } = assigning;
    const res = await updateDevice({ id: device.id, body: deviceBodyOf(device, { groupId: chosen ? Number(chosen) : null }) });
    if ('error' in res) return;
    toastSuccess(L.groupAssigned(device.imei));
    setAssigning(null);
  };

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteDevice(deleting.id);
    if ('error' in res) return res;
    toastSuccess(L.deleted(deleting.imei));
    setDeleting(null);
  };

  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  const columns: DataTableColumn<Device, PreEnrolledSort>[] = [
    {
      id: 'imei',
      header: L.imei,
      sortKey: 'imei',
      cell: (d) => (
        <>
          <CopyText text={d.imei} label={L.imei} className="text-nowrap" />
          <DeviceSummary device={d} />
        </>
      ),
    },
    // Below 1400 px the type and brand / model read under the IMEI (DeviceSummary).
    { id: 'deviceType', header: L.type, hideBelow: 'xxl', cell: (d) => deviceTypeLabel(d.deviceType) },
    { id: 'brandModel', header: L.brandModel, hideBelow: 'xxl', cell: (d) => displayValue(brandModel(d)) },
    { id: 'group', header: L.group, cell: (d) => displayValue(d.groupName) },
    { id: 'customer', header: L.customer, cell: (d) => displayValue(d.customerName) },
    { id: 'reference', header: L.reference, cell: (d) => displayValue(d.creditReference) },
    { id: 'createdAt', header: L.registered, sortKey: 'createdAt', className: 'text-nowrap', cell: (d) => formatDateTime(d.createdAt) },
  ];
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        {canAdd && (
          <Link to={PATHS.addDevice} className="btn btn-primary">
            <i className="bi bi-plus-lg me-2" aria-hidden="true" />
            {L.register}
          </Link>
        )}
      </div>
      <Row className="g-2 mb-3">
        <Col md={8}>
          <SearchInput ariaLabel={L.search} placeholder={L.searchPlaceholder} initialValue={search} onSearch={(text) => set({ search: text })} />
        </Col>
        <Col md={4}>
          <Form.Select aria-label={L.filterGroup} value={groupId} onChange={(e) => set({ groupId: e.target.value })}>
            <option value="">{L.groupAll}</option>
            <option value="none">{INVENTORY_LABELS.deviceForm.noGroup}</option>
            <GroupOptions groups={groupOptions} />
          </Form.Select>
        </Col>
      </Row>

      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(d) => d.id}
        rowAttributes={(d) => ({ 'data-testid': `pre-enrolled-row-${d.imei}` })}
        caption={title}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="pre-enrolled-empty"
        empty={
          <>
            <p className={canAdd && !filtersActive && total === 0 ? undefined : 'mb-0'}>{filtersActive || total > 0 ? L.noResults : L.empty}</p>
            {canAdd && !filtersActive && total === 0 && (
              <Link to={PATHS.addDevice} className="btn btn-outline-primary">
                {L.register}
              </Link>
            )}
          </>
        }
        placeholderRows={Math.min(perPage, 10)}
        sort={{ column: sort, order, onSort }}
        rowActions={(d) => {
          const deleteRefusal = refusal(
            { status: d.status, lockType: d.lockType, pendingAction: d.pendingCommand?.action ?? null },
            DEVICE_ACTION.DELETE_DEVICE,
            granted,
          );
          return (
            <ButtonGroup size="sm">
              <IconButton
                variant="outline-primary"
                icon="pencil"
                label={L.editOf(d.imei)}
                title={L.edit}
                disabled={!canEdit}
                onClick={() => setEditing(d)}
              />
              <IconButton
                variant="outline-secondary"
                icon="collection"
                label={L.assignGroupOf(d.imei)}
                title={L.assignGroup}
                disabled={!canEdit}
                onClick={() => setAssigning({ device: d, groupId: d.groupId === null ? '' : String(d.groupId) })}
              />
              <IconButton
                variant="outline-secondary"
                icon="qr-code"
                label={ENROLLMENT_LABELS.actionOfDevice(d.imei)}
                title={ENROLLMENT_LABELS.action}
                disabled={!canEdit}
                onClick={() => setEnrolling({ kind: 'device', id: d.id, imei: d.imei })}
              />
              <IconButton
                variant="outline-danger"
                icon="trash"
                label={L.deleteOf(d.imei)}
                title={deleteRefusal?.reason ?? L.delete}
                disabled={deleteRefusal !== null}
                onClick={() => setDeleting(d)}
              />
            </ButtonGroup>
          );
        }}
      />
      {list.data && total > 0 && (
        <ListPager
          page={page}
          perPage={perPage}
          total={total}
          perPageOptions={DEVICE_PER_PAGE_OPTIONS}
          labels={{ perPage: INVENTORY_LABELS.devices.perPage, pagination: INVENTORY_LABELS.devices.pagination }}
          summary={INVENTORY_LABELS.devices.pageOf(Math.min(page, pages), pages, total, list.data.totalIsEstimate)}
          onPage={(p) => set({ page: p })}
          onPerPage={(n) => set({ perPage: n })}
        />
      )}

      <EntityFormModal
        editing={editing}
        size="lg"
        editTitle={L.editTitle}
        formId={EDIT_FORM_ID}
        loading={updateState.isLoading}
        onClose={() => setEditing(null)}
      >
        {(device) => <DEVICE_FORM.Component formId={EDIT_FORM_ID} device={device} groups={groupOptions} onSubmit={onEdit} />}
      </EntityFormModal>
      <AppModal
        show={assigning !== null}
        title={L.assignGroup}
        loading={updateState.isLoading}
        onClose={() => setAssigning(null)}
        onConfirm={() => void onAssign()}
      >
        {assigning && (
          <Form.Group controlId="pre-enrolled-assign-group">
            <Form.Label>{L.assignGroupText(assigning.device.imei)}</Form.Label>
            <Form.Select value={assigning.groupId} onChange={(e) => setAssigning({ ...assigning, groupId: e.target.value })}>
              <option value="">{INVENTORY_LABELS.deviceForm.noGroup}</option>
              <GroupOptions groups={groupOptions} />
            </Form.Select>
          </Form.Group>
        )}
      </AppModal>
      <ConfirmModal
        show={deleting !== null}
        title={L.deleteTitle}
        message={deleting && L.confirmDelete(deleting.imei)}
        confirmLabel={L.delete}
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={onDelete}
      />
      {enrolling !== null && (
        <Suspense fallback={null}>
          <ENROLLMENT_QR.Component scope={enrolling} onClose={() => setEnrolling(null)} />
        </Suspense>
      )}
    </section>
  );
}
