import { useState } from 'react';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router-dom';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { DEVICE_TYPES } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { PATHS } from '../../../shared/constants/routes';
import { DEVICES_DEFAULT_PER_PAGE, SEARCH_MAX, type Device, type DeviceBody, type DeviceSort } from '../../../shared/contracts/devices';
import { refusal } from '../../../shared/deviceActionRules';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { AppModal } from '../../components/AppModal';
import { CopyText } from '../../components/CopyText';
import { displayValue } from '../../components/EmptyValue';
import { IconButton } from '../../components/IconButton';
import { ListPager } from '../../components/ListPager';
import { ListStatus } from '../../components/ListStatus';
import { SearchInput } from '../../components/SearchInput';
import { toastSuccess } from '../../components/toast';
import { useUrlQuery } from '../../components/useUrlQuery';
import { DeviceForm, deviceBodyOf, type SaveOutcome } from './DeviceForm';
import { GroupOptions } from './GroupOptions';
import { useDeleteDeviceMutation, useListDevicesQuery, useListGroupsQuery, useUpdateDeviceMutation, type DeviceListArgs } from './inventoryApi';
import { DEVICE_PER_PAGE_OPTIONS } from './useDeviceListQuery';
import { useGrantedActions } from './useGrantedActions';

const L = INVENTORY_LABELS.preEnrolled;
const EDIT_FORM_ID = 'pre-enrolled-edit-form';
const KEYS = ['search', 'groupId', 'sort', 'order'] as const;
type PreEnrolledSort = Extract<DeviceSort, 'createdAt' | 'imei'>;
/** The first order of each sortable column: IMEI ascending, newest first. */
const FIRST_ORDER: Record<PreEnrolledSort, 'asc' | 'desc'> = { imei: 'asc', createdAt: 'desc' };

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });
const typeLabel = (code: number) => DEVICE_TYPES.find((t) => t.code === code)?.label ?? String(code);
const brandModel = (d: Device) => [d.brand, d.model].filter(Boolean).join(' ') || null;

/** A sortable column header: a button naming the sort, and aria-sort on the header cell. */
function SortHeader({
  column,
  label,
  sort,
  order,
  onSort,
}: {
  column: PreEnrolledSort;
  label: string;
  sort: PreEnrolledSort;
  order: 'asc' | 'desc';
  onSort: (column: PreEnrolledSort) => void;
}) {
  const active = sort === column;
  const icon = !active ? 'arrow-down-up' : order === 'asc' ? 'sort-up' : 'sort-down';
  return (
    <th scope="col" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Button variant="link" className="p-0 text-reset fw-semibold text-decoration-none" onClick={() => onSort(column)} title={L.sortBy(label)}>
        {label}
        <i className={`bi bi-${icon} ms-1`} aria-hidden="true" />
      </Button>
    </th>
  );
}

/** Pre-enrolled devices (status 25): search, group filter, edit, assign a group, delete. */
export default function PreEnrolledPage({ title, path }: PageProps) {
  const { allowed } = useCurrentUser();
  const granted = useGrantedActions();
  const canEdit = allowed.has(path);
  const canAdd = allowed.has(PATHS.addDevice);

  const { page, perPage, filters, update } = useUrlQuery(KEYS, { perPageOptions: DEVICE_PER_PAGE_OPTIONS, defaultPerPage: DEVICES_DEFAULT_PER_PAGE });
  const sort: PreEnrolledSort = filters.sort === 'imei' ? 'imei' : 'createdAt';
  const order = filters.order === 'asc' || filters.order === 'desc' ? filters.order : FIRST_ORDER[sort];
  const search = filters.search.trim().slice(0, SEARCH_MAX);
  const groupId = filters.groupId === 'none' || /^[1-9]\d{0,9}$/.test(filters.groupId) ? filters.groupId : '';
  const args: DeviceListArgs = { stage: 'preEnrolled', search: search || undefined, groupId: groupId || undefined, sort, order, page, perPage };
  const filtersActive = Boolean(search || groupId);

  const list = useListDevicesQuery(args);
  const groups = useListGroupsQuery();
  const groupOptions = groups.data?.data ?? [];

  const [editing, setEditing] = useState<Device | null>(null);
  const [assigning, setAssigning] = useState<{ device: Device; groupId: string } | null>(null);
  const [deleting, setDeleting] = useState<Device | null>(null);
  const [updateDevice, updateState] = useUpdateDeviceMutation();
  const [deleteDevice, deleteState] = useDeleteDeviceMutation();

  const onSort = (column: PreEnrolledSort) =>
    update(sort === column ? { sort: column, order: order === 'asc' ? 'desc' : 'asc' } : { sort: column, order: FIRST_ORDER[column] });

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
    if ('error' in res) return;
    toastSuccess(L.deleted(deleting.imei));
    setDeleting(null);
  };

  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
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
          <SearchInput ariaLabel={L.search} placeholder={L.searchPlaceholder} initialValue={filters.search} onSearch={(q) => update({ search: q })} />
        </Col>
        <Col md={4}>
          <Form.Select aria-label={L.filterGroup} value={groupId} onChange={(e) => update({ groupId: e.target.value })}>
            <option value="">{L.groupAll}</option>
            <option value="none">{INVENTORY_LABELS.deviceForm.noGroup}</option>
            <GroupOptions groups={groupOptions} />
          </Form.Select>
        </Col>
      </Row>

      <ListStatus loading={list.isLoading} error={list.isError && !list.data} empty={false} onRetry={() => void list.refetch()} />
      {list.data && rows.length === 0 && (
        <div className="py-4 text-center" data-testid="pre-enrolled-empty">
          <p className={canAdd && !filtersActive && total === 0 ? undefined : 'mb-0'}>{filtersActive || total > 0 ? L.noResults : L.empty}</p>
          {canAdd && !filtersActive && total === 0 && (
            <Link to={PATHS.addDevice} className="btn btn-outline-primary">
              {L.register}
            </Link>
          )}
        </div>
      )}
      {rows.length > 0 && (
        <Table responsive hover className="align-middle" aria-busy={list.isFetching || undefined}>
          <thead>
            <tr>
              <SortHeader column="imei" label={L.imei} sort={sort} order={order} onSort={onSort} />
              <th scope="col">{L.type}</th>
              <th scope="col">{L.brandModel}</th>
              <th scope="col">{L.group}</th>
              <th scope="col">{L.customer}</th>
              <th scope="col">{L.reference}</th>
              <SortHeader column="createdAt" label={L.registered} sort={sort} order={order} onSort={onSort} />
              <th scope="col" className="text-end">
                {L.actions}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => {
              const deleteRefusal = refusal({ status: d.status, lockType: d.lockType, pendingAction: d.pendingCommand?.action ?? null }, DEVICE_ACTION.DELETE_DEVICE, granted);
              return (
                <tr key={d.id} data-testid={`pre-enrolled-row-${d.imei}`}>
                  <td className="text-nowrap">
                    <CopyText text={d.imei} label={L.imei} />
                  </td>
                  <td>{typeLabel(d.deviceType)}</td>
                  <td>{displayValue(brandModel(d))}</td>
                  <td>{displayValue(d.groupName)}</td>
                  <td>{displayValue(d.customerName)}</td>
                  <td>{displayValue(d.creditReference)}</td>
                  <td className="text-nowrap">{dateFormat.format(new Date(d.createdAt))}</td>
                  <td className="text-end">
                    <ButtonGroup size="sm">
                      <IconButton variant="outline-primary" icon="pencil" label={L.editOf(d.imei)} title={L.edit} disabled={!canEdit} onClick={() => setEditing(d)} />
                      <IconButton
                        variant="outline-secondary"
                        icon="collection"
                        label={L.assignGroupOf(d.imei)}
                        title={L.assignGroup}
                        disabled={!canEdit}
                        onClick={() => setAssigning({ device: d, groupId: d.groupId === null ? '' : String(d.groupId) })}
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
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {list.data && total > 0 && (
        <ListPager
          page={page}
          perPage={perPage}
          total={total}
          perPageOptions={DEVICE_PER_PAGE_OPTIONS}
          labels={{ perPage: INVENTORY_LABELS.devices.perPage, pagination: INVENTORY_LABELS.devices.pagination }}
          summary={INVENTORY_LABELS.devices.pageOf(Math.min(page, pages), pages, total, list.data.totalIsEstimate)}
          onPage={(p) => update({ page: p })}
          onPerPage={(n) => update({ perPage: n })}
        />
      )}

      <AppModal show={editing !== null} size="lg" title={L.editTitle} formId={EDIT_FORM_ID} loading={updateState.isLoading} onClose={() => setEditing(null)}>
        {editing && <DeviceForm key={editing.id} formId={EDIT_FORM_ID} device={editing} groups={groupOptions} onSubmit={onEdit} />}
      </AppModal>
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
      <AppModal
        show={deleting !== null}
        title={L.deleteTitle}
        confirmLabel={L.delete}
        confirmVariant="danger"
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={() => void onDelete()}
      >
        <p className="mb-0">{deleting ? L.confirmDelete(deleting.imei) : ''}</p>
      </AppModal>
    </section>
  );
}
