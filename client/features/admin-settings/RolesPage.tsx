import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { IconButton } from '../../components/IconButton';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import type { Role, RoleBody } from '../../../shared/contracts/roles';
import type { PageProps } from '../../app/lazyPage';
import { ConfirmModal } from '../../components/ConfirmModal';
import { EntityFormModal, useEntityFormModal } from '../../components/EntityFormModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { ROLE_FORM } from './dialogChunks';
import { toastSuccess } from '../../components/toast';
import { useCreateRoleMutation, useDeleteRoleMutation, useDuplicateRoleMutation, useListRolesQuery, useUpdateRoleMutation } from './adminSettingsApi';
import { DataTable, type DataTableColumn } from '../../components/DataTable';

const FORM_ID = 'role-form';

const ROLE_COLUMNS: DataTableColumn<Role>[] = [
  { id: 'name', header: L.roles.name, cell: (r) => r.nombre },
  { id: 'adminCount', header: L.roles.adminCount, className: 'text-end', cell: (r) => r.adminCount.toLocaleString('es-MX') },
];

/** Roles (profiles): list, create, edit, duplicate, delete. */
export default function RolesPage({ title }: PageProps) {
  useIdlePrefetch(ROLE_FORM);
  const list = useListRolesQuery();
  const [deleting, setDeleting] = useState<Role | null>(null);
  const [createRole, createState] = useCreateRoleMutation();
  const [updateRole, updateState] = useUpdateRoleMutation();
  const [deleteRole, deleteState] = useDeleteRoleMutation();
  const [duplicateRole] = useDuplicateRoleMutation();
  const editor = useEntityFormModal<Role, RoleBody>({
    create: createRole,
    update: (role, body) => updateRole({ id: role.id, body }),
    onCreated: () => toastSuccess(L.roles.created),
    onUpdated: () => toastSuccess(L.roles.updated),
    loading: createState.isLoading || updateState.isLoading,
  });

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteRole(deleting.id);
    if ('error' in res) return res;
    toastSuccess(L.roles.deleted);
    setDeleting(null);
  };

  const onDuplicate = async (role: Role) => {
    const res = await duplicateRole(role.id);
    if ('data' in res) toastSuccess(L.roles.duplicated);
  };

  const rows = list.data?.data ?? [];
  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <Button onClick={editor.openNew}>
          <i className="bi bi-plus-lg me-2" aria-hidden="true" />
          {L.roles.create}
        </Button>
      </div>
      <DataTable
        columns={ROLE_COLUMNS}
        rows={rows}
        getRowId={(r) => r.id}
        rowAttributes={(r) => ({ 'data-testid': `role-row-${r.nombre}` })}
        caption={title}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        rowActions={(r) => (
          <ButtonGroup size="sm">
            <IconButton
              variant="outline-primary"
              icon="pencil"
              label={L.roles.editOf(r.nombre)}
              title={L.roles.edit}
              onClick={() => editor.openEdit(r)}
            />
            <IconButton
              variant="outline-secondary"
              icon="files"
              label={L.roles.duplicateOf(r.nombre)}
              title={L.roles.duplicate}
              onClick={() => void onDuplicate(r)}
            />
            <IconButton
              variant="outline-danger"
              icon="trash"
              label={L.roles.deleteOf(r.nombre)}
              title={L.roles.delete}
              onClick={() => setDeleting(r)}
            />
          </ButtonGroup>
        )}
      />
      <EntityFormModal {...editor.modal} size="lg" createTitle={L.roles.create} editTitle={L.roles.edit} formId={FORM_ID}>
        {(role) => <ROLE_FORM.Component formId={FORM_ID} role={role} onSubmit={editor.onSubmit} />}
      </EntityFormModal>
      <ConfirmModal
        show={deleting !== null}
        title={L.roles.delete}
        message={deleting && L.roles.confirmDelete(deleting.nombre)}
        confirmLabel={L.confirm}
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={onDelete}
      />
    </section>
  );
}
