import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { IconButton } from '../../components/IconButton';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { ADMIN_SORTS, type AdminSort } from '../../../shared/constants/admins';
import type { Admin, CreateAdminBody, CreatedAdmin, UpdateAdminBody } from '../../../shared/contracts/admins';
import type { PageProps } from '../../app/lazyPage';
import { ConfirmModal } from '../../components/ConfirmModal';
import { EntityFormModal, useEntityFormModal } from '../../components/EntityFormModal';
import { CopyText } from '../../components/CopyText';
import { displayValue } from '../../components/EmptyValue';
import { SearchInput } from '../../components/SearchInput';
import { toastSuccess } from '../../components/toast';
import {
  useCreateAdminMutation,
  useDeleteAdminMutation,
  useListAdminsQuery,
  useListRolesQuery,
  useResetAdminPasswordMutation,
  useSetAdminEnabledMutation,
  useUpdateAdminMutation,
} from './adminSettingsApi';
import { ListPager } from '../../components/ListPager';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { TemporaryPasswordModal } from './TemporaryPasswordModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { ADMIN_FORM } from './dialogChunks';
import { listParam, listParams, nextSort, PER_PAGE_OPTIONS, useListParams } from '../../components/useListParams';

const FORM_ID = 'admin-form';

type Confirm = { kind: 'disable' | 'enable' | 'reset' | 'delete'; admin: Admin };

/** The URL of the administrators list; bad values read as the defaults (by name, ascending). */
const adminsListParams = listParams({
  page: listParam.page(),
  perPage: listParam.perPage(PER_PAGE_OPTIONS),
  search: listParam.text(100),
  profileId: listParam.matching(/^[1-9]\d{0,9}$/),
  enabled: listParam.oneOf(['true', 'false']),
  sort: listParam.oneOf(ADMIN_SORTS),
  order: listParam.order(),
});

function fullName(a: Pick<Admin, 'nombres' | 'apellidos'>): string {
  return `${a.nombres} ${a.apellidos}`.trim();
}

/** Administrators: list, search, filters, create, edit, disable/enable, reset password, delete. */
export default function AdminsPage({ title }: PageProps) {
  useIdlePrefetch(ADMIN_FORM);
  const { params, set } = useListParams(adminsListParams);
  const { page, perPage, search } = params;
  const sort: AdminSort = params.sort ?? 'nombres';
  const order = params.order ?? 'asc';
  const args = {
    page,
    perPage,
    search: search || undefined,
    profileId: params.profileId ? Number(params.profileId) : undefined,
    enabled: params.enabled === undefined ? undefined : params.enabled === 'true',
    sort: params.sort,
    order: params.order,
  };
  const list = useListAdminsQuery(args);
  const roles = useListRolesQuery();
  const roleOptions = roles.data?.data ?? [];

  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [password, setPassword] = useState<{ correo: string; password?: string } | null>(null);

  const [createAdmin, createState] = useCreateAdminMutation();
  const [updateAdmin, updateState] = useUpdateAdminMutation();
  const [deleteAdmin, deleteState] = useDeleteAdminMutation();
  const [setEnabled, enableState] = useSetAdminEnabledMutation();
  const [resetPassword, resetState] = useResetAdminPasswordMutation();

  const editor = useEntityFormModal<Admin, CreateAdminBody | UpdateAdminBody, CreatedAdmin, Admin>({
    create: (values) => createAdmin(values as CreateAdminBody),
    update: (admin, values) => updateAdmin({ id: admin.id, body: values as UpdateAdminBody }),
    onCreated: (created) => {
      toastSuccess(L.admins.created);
      setPassword({ correo: created.correo, password: created.temporaryPassword });
    },
    onUpdated: () => toastSuccess(L.admins.updated),
    loading: createState.isLoading || updateState.isLoading,
  });

  const onConfirm = async () => {
    if (!confirm) return;
    const { kind, admin } = confirm;
    if (kind === 'delete') {
      const res = await deleteAdmin(admin.id);
      if ('error' in res) return res;
      toastSuccess(L.admins.deleted);
    } else if (kind === 'reset') {
      const res = await resetPassword(admin.id);
      if ('error' in res) return res;
      if (!res.data) return;
      setPassword({ correo: admin.correo, password: res.data.temporaryPassword });
    } else {
      const res = await setEnabled({ id: admin.id, enabled: kind === 'enable' });
      if ('error' in res) return res;
      toastSuccess(kind === 'enable' ? L.admins.enabledDone : L.admins.disabledDone);
    }
    setConfirm(null);
  };

  const rows = list.data?.data ?? [];
  const columns: DataTableColumn<Admin, AdminSort>[] = [
    { id: 'name', header: L.admins.name, sortKey: 'nombres', cell: (a) => displayValue(fullName(a)) },
    { id: 'email', header: L.admins.email, sortKey: 'correo', cell: (a) => <CopyText text={a.correo} label={L.admins.email} /> },
    { id: 'profile', header: L.admins.profile, sortKey: 'profile', cell: (a) => displayValue(a.profileNombre) },
    {
      id: 'state',
      header: L.admins.state,
      cell: (a) => <Badge bg={a.enabled ? 'success' : 'secondary'}>{a.enabled ? L.admins.active : L.admins.disabled}</Badge>,
    },
  ];
  const confirmText = confirm
    ? {
        disable: L.admins.confirmDisable,
        enable: L.admins.confirmEnable,
        reset: L.admins.confirmReset,
        delete: L.admins.confirmDelete,
      }[confirm.kind](confirm.admin.correo)
    : '';
  const confirmTitle = confirm
    ? { disable: L.admins.disable, enable: L.admins.enable, reset: L.admins.resetPassword, delete: L.admins.delete }[confirm.kind]
    : '';

  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <Button onClick={editor.openNew}>
          <i className="bi bi-person-plus me-2" aria-hidden="true" />
          {L.admins.create}
        </Button>
      </div>
      <Row className="g-2 mb-3">
        <Col md={6}>
          <SearchInput
            ariaLabel={L.admins.search}
            placeholder={L.admins.searchPlaceholder}
            initialValue={search}
            onSearch={(text) => set({ search: text })}
          />
        </Col>
        <Col md={3}>
          <Form.Select aria-label={L.admins.filterProfile} value={params.profileId ?? ''} onChange={(e) => set({ profileId: e.target.value })}>
            <option value="">{`${L.admins.profile}: ${L.all}`}</option>
            {roleOptions.map((r) => (
              <option key={r.id} value={r.id}>
                {r.nombre}
              </option>
            ))}
          </Form.Select>
        </Col>
        <Col md={3}>
          <Form.Select aria-label={L.admins.filterState} value={params.enabled ?? ''} onChange={(e) => set({ enabled: e.target.value })}>
            <option value="">{`${L.admins.state}: ${L.all}`}</option>
            <option value="true">{L.admins.active}</option>
            <option value="false">{L.admins.disabled}</option>
          </Form.Select>
        </Col>
      </Row>

      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(a) => a.id}
        rowAttributes={(a) => ({ 'data-testid': `admin-row-${a.correo}` })}
        caption={title}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        sort={{ column: sort, order, onSort: (column) => set(nextSort({ sort, order }, column)) }}
        rowActions={(a) => {
          const name = fullName(a) || a.correo;
          return (
            <ButtonGroup size="sm">
              <IconButton
                variant="outline-primary"
                icon="pencil"
                label={L.admins.editOf(name)}
                title={L.admins.edit}
                onClick={() => editor.openEdit(a)}
              />
              <IconButton
                variant="outline-secondary"
                icon={a.enabled ? 'person-slash' : 'person-check'}
                label={a.enabled ? L.admins.disableOf(name) : L.admins.enableOf(name)}
                title={a.enabled ? L.admins.disable : L.admins.enable}
                onClick={() => setConfirm({ kind: a.enabled ? 'disable' : 'enable', admin: a })}
              />
              <IconButton
                variant="outline-secondary"
                icon="key"
                label={L.admins.resetPasswordOf(name)}
                title={L.admins.resetPassword}
                onClick={() => setConfirm({ kind: 'reset', admin: a })}
              />
              <IconButton
                variant="outline-danger"
                icon="trash"
                label={L.admins.deleteOf(name)}
                title={L.admins.delete}
                onClick={() => setConfirm({ kind: 'delete', admin: a })}
              />
            </ButtonGroup>
          );
        }}
      />
      {list.data && (
        <ListPager page={page} perPage={perPage} total={list.data.total} onPage={(p) => set({ page: p })} onPerPage={(n) => set({ perPage: n })} />
      )}

      <EntityFormModal {...editor.modal} createTitle={L.admins.create} editTitle={L.admins.edit} formId={FORM_ID}>
        {(admin) => <ADMIN_FORM.Component formId={FORM_ID} admin={admin} roles={roleOptions} onSubmit={editor.onSubmit} />}
      </EntityFormModal>
      <ConfirmModal
        show={confirm !== null}
        title={confirmTitle}
        message={confirmText}
        confirmLabel={L.confirm}
        confirmVariant={confirm?.kind === 'delete' || confirm?.kind === 'disable' ? 'danger' : 'primary'}
        loading={deleteState.isLoading || enableState.isLoading || resetState.isLoading}
        onClose={() => setConfirm(null)}
        onConfirm={onConfirm}
      />
      <TemporaryPasswordModal shown={password} onClose={() => setPassword(null)} />
    </section>
  );
}
