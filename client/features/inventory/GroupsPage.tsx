import { Suspense, useState } from 'react';
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
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { ENROLLMENT_QR } from './dialogChunks';
import type { EnrollmentScope } from './EnrollmentQrModal';
import { GroupDeleteModal } from './GroupDeleteModal';
import { GroupFormModal } from './GroupFormModal';
import { useCreateGroupMutation, useDeleteGroupMutation, useUpdateGroupMutation } from './inventoryApi';
import { useListGroupsQuery } from '../../api/groupsApi';
import { ENROLLMENT_LABELS } from '../../../shared/constants/enrollmentLabels';
import { GROUP_LABELS } from '../../../shared/constants/groupLabels';
import { PATHS } from '../../../shared/constants/routes';

const L = GROUP_LABELS;

/** A row of the page: a group, or the devices in none (*Sin grupo*). */
type GroupRow =
  | { kind: 'group'; id: number; group: Group; enrolledCount: number; preEnrolledCount: number }
  | { kind: 'none'; id: 'none'; enrolledCount: number; preEnrolledCount: number };
const E = ENROLLMENT_LABELS;

/** Device groups: list with device counts, create, rename, delete (moving the devices first), QR enrollment. */
export default function GroupsPage({ title }: PageProps) {
  useIdlePrefetch(ENROLLMENT_QR);
  const { allowed } = useCurrentUser();
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

  const groups = list.data?.data ?? [];
  // The devices in no group close the list, so every device is counted in one row.
  const ungrouped = list.data?.ungrouped;
  const rows: GroupRow[] = [
    ...groups.map((g) => ({ kind: 'group' as const, id: g.id, group: g, enrolledCount: g.enrolledCount, preEnrolledCount: g.preEnrolledCount })),
    ...(ungrouped && groups.length > 0 ? [{ kind: 'none' as const, id: 'none' as const, ...ungrouped }] : []),
  ];
  const whose = (r: GroupRow) => (r.kind === 'group' ? L.ofGroup(r.group.name) : L.withoutGroup);
  /** A count that opens the list totalling it (plain text when that page is not granted). */
  const countLink = (r: GroupRow, count: number, page: typeof PATHS.devices | typeof PATHS.preEnrolled) => {
    const text = count.toLocaleString('es-MX');
    if (!allowed.has(page)) return text;
    const label = page === PATHS.devices ? L.viewEnrolled(count, whose(r)) : L.viewPreEnrolled(count, whose(r));
    return (
      <Link to={`${page}?groupId=${r.id}`} aria-label={label}>
        {text}
      </Link>
    );
  };
  const columns: DataTableColumn<GroupRow>[] = [
    { id: 'name', header: L.name, cell: (r) => (r.kind === 'group' ? r.group.name : <em>{L.noGroup}</em>) },
    {
      id: 'description',
      header: L.description,
      cell: (r) => (r.kind === 'group' ? displayValue(r.group.description) : <span className="text-body-secondary">{L.noGroupDescription}</span>),
    },
    { id: 'enrolled', header: L.enrolled, className: 'text-end', cell: (r) => countLink(r, r.enrolledCount, PATHS.devices) },
    { id: 'preEnrolled', header: L.preEnrolled, className: 'text-end', cell: (r) => countLink(r, r.preEnrolledCount, PATHS.preEnrolled) },
    {
      id: 'created',
      header: L.created,
      className: 'text-nowrap',
      cell: (r) => (r.kind === 'group' ? formatDate(r.group.createdAt) : displayValue(null)),
    },
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
        getRowId={(r) => r.id}
        rowAttributes={(r) => ({ 'data-testid': r.kind === 'group' ? `group-row-${r.group.name}` : 'group-row-none' })}
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
        rowActions={(r) => {
          if (r.kind === 'none') {
            return (
              <IconButton
                size="sm"
                variant="outline-secondary"
                icon="qr-code"
                label={E.noGroupAction}
                title={E.action}
                onClick={() => setEnrolling({ kind: 'noGroup' })}
              />
            );
          }
          const g = r.group;
          return (
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
          );
        }}
      />
      <GroupFormModal {...editor.modal} onSubmit={editor.onSubmit} />
      <GroupDeleteModal group={deleting} groups={groups} loading={deleteState.isLoading} onClose={() => setDeleting(null)} onConfirm={onDelete} />
      {enrolling !== null && (
        <Suspense fallback={null}>
          <ENROLLMENT_QR.Component scope={enrolling} onClose={() => setEnrolling(null)} />
        </Suspense>
      )}
    </section>
  );
}
