import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { Link } from 'react-router-dom';
import type { Group, GroupBody } from '../../../shared/contracts/groups';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { displayValue } from '../../components/EmptyValue';
import { useEntityFormModal } from '../../components/EntityFormModal';
import { IconButton } from '../../components/IconButton';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDate } from '../../components/formatDate';
import { toastSuccess } from '../../components/toast';
import { EnrollmentQrModal, type EnrollmentScope } from './EnrollmentQrModal';
import { GroupDeleteModal } from './GroupDeleteModal';
import { GroupFormModal } from './GroupFormModal';
import { useCreateGroupMutation, useDeleteGroupMutation, useUpdateGroupMutation } from './inventoryApi';
import { useListGroupsQuery } from '../../api/groupsApi';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { PATHS } from '../../../shared/constants/routes';

const L = INVENTORY_LABELS.groups;
const E = INVENTORY_LABELS.enrollment;

/** Device groups: list with device counts, create, rename, delete (moving the devices first), QR enrollment. */
export default function GroupsPage({ title }: PageProps) {
  const { allowed } = useCurrentUser();
  const canSeeDevices = allowed.has(PATHS.devices);
  const list = useListGroupsQuery();
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [enrolling, setEnrolling] = useState<EnrollmentScope | null>(null);
  const [createGroup, createState] = useCreateGroupMutation();
  const [updateGroup, updateState] = useUpdateGroupMutation();
  const [deleteGroup, deleteState] = useDeleteGroupMutation();
  const editor = useEntityFormModal<Group, GroupBody>({
    create: createGroup,
    update: (group, body) => updateGroup({ id: group.id, body }),
    onCreated: (group) => toastSuccess(L.createdDone(group.name)),
    onUpdated: (group) => toastSuccess(L.renamedDone(group.name)),
    loading: createState.isLoading || updateState.isLoading,
  });

  const onDelete = async (moveTo: number | undefined) => {
    if (!deleting) return;
    const res = await deleteGroup({ id: deleting.id, moveTo });
    if ('error' in res) return res;
    toastSuccess(L.deletedDone(deleting.name));
    setDeleting(null);
  };

  const rows = list.data?.data ?? [];
  const columns: DataTableColumn<Group>[] = [
    { id: 'name', header: L.name, cell: (g) => g.name },
    { id: 'description', header: L.description, cell: (g) => displayValue(g.description) },
    {
      id: 'devices',
      header: L.devices,
      className: 'text-end',
      cell: (g) => {
        const count = g.deviceCount.toLocaleString('es-MX');
        return canSeeDevices ? (
          <Link to={`${PATHS.devices}?groupId=${g.id}`} aria-label={L.viewDevices(g.deviceCount, g.name)}>
            {count}
          </Link>
        ) : (
          count
        );
      },
    },
    { id: 'created', header: L.created, className: 'text-nowrap', cell: (g) => formatDate(g.createdAt) },
  ];
  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <div className="d-flex flex-wrap gap-2">
          <Button variant="outline-dark" onClick={() => setEnrolling({ kind: 'noGroup' })}>
            <i className="bi bi-qr-code me-2" aria-hidden="true" />
            {E.noGroupAction}
          </Button>
          <Button onClick={editor.openNew}>
            <i className="bi bi-plus-lg me-2" aria-hidden="true" />
            {L.create}
          </Button>
        </div>
      </div>
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(g) => g.id}
        rowAttributes={(g) => ({ 'data-testid': `group-row-${g.name}` })}
        caption={title}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="groups-empty"
        empty={
          <>
            <p>{L.empty}</p>
            <Button variant="outline-primary" onClick={editor.openNew}>
              {L.create}
            </Button>
          </>
        }
        rowActions={(g) => (
          <ButtonGroup size="sm">
            <IconButton
              variant="outline-secondary"
              icon="qr-code"
              label={E.actionOfGroup(g.name)}
              title={E.action}
              onClick={() => setEnrolling({ kind: 'group', id: g.id, name: g.name })}
            />
            <IconButton variant="outline-primary" icon="pencil" label={L.renameOf(g.name)} title={L.rename} onClick={() => editor.openEdit(g)} />
            <IconButton variant="outline-danger" icon="trash" label={L.deleteOf(g.name)} title={L.delete} onClick={() => setDeleting(g)} />
          </ButtonGroup>
        )}
      />
      <GroupFormModal {...editor.modal} onSubmit={editor.onSubmit} />
      <GroupDeleteModal group={deleting} groups={rows} loading={deleteState.isLoading} onClose={() => setDeleting(null)} onConfirm={onDelete} />
      <EnrollmentQrModal scope={enrolling} onClose={() => setEnrolling(null)} />
    </section>
  );
}
