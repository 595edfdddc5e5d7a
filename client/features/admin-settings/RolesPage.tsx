import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { IconButton } from '../../components/IconButton';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import type { Role, RoleBody } from '../../../shared/contracts/roles';
import type { PageProps } from '../../app/lazyPage';
import { AppModal } from '../../components/AppModal';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import type { SaveOutcome } from '../../components/serverFieldError';
import { RoleForm } from './RoleForm';
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
  const list = useListRolesQuery();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const [createRole, createState] = useCreateRoleMutation();
  const [updateRole, updateState] = useUpdateRoleMutation();
  const [deleteRole, deleteState] = useDeleteRoleMutation();
  const [duplicateRole] = useDuplicateRoleMutation();

  const onSave = async (body: RoleBody): Promise<SaveOutcome> => {
    if (editing === null) return undefined;
    const res = editing === 'new' ? await createRole(body) : await updateRole({ id: editing.id, body });
    if ('error' in res) return { error: formErrorOf(res.error as ApiError) };
    toastSuccess(editing === 'new' ? L.roles.created : L.roles.updated);
    setEditing(null);
    return undefined;
  };

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteRole(deleting.id);
    if ('error' in res) return;
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
        <Button onClick={() => setEditing('new')}>
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
            <IconButton variant="outline-primary" icon="pencil" label={L.roles.editOf(r.nombre)} title={L.roles.edit} onClick={() => setEditing(r)} />
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
      <AppModal
        show={editing !== null}
        size="lg"
        title={editing === 'new' ? L.roles.create : L.roles.edit}
        formId={FORM_ID}
        loading={createState.isLoading || updateState.isLoading}
        onClose={() => setEditing(null)}
      >
        {editing !== null && (
          <RoleForm key={editing === 'new' ? 'new' : editing.id} formId={FORM_ID} role={editing === 'new' ? undefined : editing} onSubmit={onSave} />
        )}
      </AppModal>
      <AppModal
        show={deleting !== null}
        title={L.roles.delete}
        confirmLabel={L.confirm}
        confirmVariant="danger"
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={() => void onDelete()}
      >
        <p className="mb-0">{deleting ? L.roles.confirmDelete(deleting.nombre) : ''}</p>
      </AppModal>
    </section>
  );
}
