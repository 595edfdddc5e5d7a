import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { AGENT_APPS_LABELS, appTypeLabel, versionText } from '../../../shared/constants/agentAppsLabels';
import type { BusinessApp, BusinessAppBody } from '../../../shared/contracts/agentSettings';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import type { PageProps } from '../../app/lazyPage';
import { AppModal } from '../../components/AppModal';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { IconButton } from '../../components/IconButton';
import type { SaveOutcome } from '../../components/serverFieldError';
import { toastSuccess } from '../../components/toast';
import {
  useCreateBusinessAppMutation,
  useDeleteBusinessAppMutation,
  useListBusinessAppsQuery,
  useUpdateBusinessAppMutation,
} from './agentSettingsApi';
import { BusinessAppFormModal } from './BusinessAppFormModal';
import { ChangedCell, DeviceActionNote } from './agentAppsShared';

const L = AGENT_APPS_LABELS.businessApps;
const C = AGENT_APPS_LABELS.common;

/**
 * The business apps the agent installs on smartphones: list, create, edit and delete. Pushing
 * them to devices is the device action 'Actualizar apps de negocio' (UPDATE_APP_BUSINESS).
 */
export default function BusinessAppsPage({ title }: PageProps) {
  const list = useListBusinessAppsQuery();
  const [editing, setEditing] = useState<BusinessApp | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BusinessApp | null>(null);
  const [createApp, createState] = useCreateBusinessAppMutation();
  const [updateApp, updateState] = useUpdateBusinessAppMutation();
  const [deleteApp, deleteState] = useDeleteBusinessAppMutation();

  const onSave = async (body: BusinessAppBody): Promise<SaveOutcome> => {
    if (editing === null) return undefined;
    const res = editing === 'new' ? await createApp(body) : await updateApp({ id: editing.id, body });
    if ('error' in res) return { error: formErrorOf(res.error as ApiError) };
    toastSuccess(editing === 'new' ? L.createdDone(res.data.name) : L.updatedDone(res.data.name));
    setEditing(null);
    return undefined;
  };

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteApp(deleting.id);
    // The error is toasted (apiErrorMiddleware); the dialog stays open.
    if ('error' in res) return;
    toastSuccess(L.deletedDone(deleting.name));
    setDeleting(null);
  };

  const rows = list.data?.data ?? [];
  const columns: DataTableColumn<BusinessApp>[] = [
    { id: 'name', header: L.columns.name, cell: (a) => <span className="fw-semibold">{a.name}</span> },
    { id: 'packageName', header: L.columns.packageName, className: 'text-break', cell: (a) => <code className="text-body">{a.packageName}</code> },
    { id: 'version', header: L.columns.version, className: 'text-nowrap', cell: (a) => versionText(a.versionName, a.versionCode) },
    { id: 'appType', header: L.columns.appType, className: 'text-nowrap', cell: (a) => appTypeLabel(a.appType) },
    {
      id: 'groups',
      header: L.columns.groups,
      cell: (a) => (a.groups.length === 0 ? <span className="fst-italic">{L.allSmartphones}</span> : a.groups.map((g) => g.name).join(', ')),
    },
    { id: 'updated', header: L.columns.updated, cell: (a) => <ChangedCell at={a.updatedAt} by={a.updatedBy} /> },
  ];

  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <Button onClick={() => setEditing('new')}>
          <i className="bi bi-plus-lg me-2" aria-hidden="true" />
          {L.create}
        </Button>
      </div>
      <DeviceActionNote text={L.pushNote.before} action={L.pushNote.action} />
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(a) => a.id}
        rowAttributes={(a) => ({ 'data-testid': `business-app-row-${a.packageName}` })}
        caption={L.caption}
        loading={list.isLoading}
        loadingLabel={L.loading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="business-apps-empty"
        empty={
          <>
            <p className="mb-1">{L.empty}</p>
            <p className="text-body-secondary">{L.emptyHelp}</p>
            {/* Solid: the outline variant lacks contrast on the page's tertiary background. */}
            <Button variant="primary" onClick={() => setEditing('new')}>
              {L.create}
            </Button>
          </>
        }
        placeholderRows={3}
        rowActions={(a) => (
          <ButtonGroup size="sm">
            <IconButton variant="outline-primary" icon="pencil" label={L.editOf(a.name)} title={C.edit} onClick={() => setEditing(a)} />
            <IconButton variant="outline-danger" icon="trash" label={L.deleteOf(a.name)} title={C.delete} onClick={() => setDeleting(a)} />
          </ButtonGroup>
        )}
      />
      <BusinessAppFormModal
        editing={editing}
        loading={createState.isLoading || updateState.isLoading}
        onClose={() => setEditing(null)}
        onSubmit={onSave}
      />
      <AppModal
        show={deleting !== null}
        title={L.deleteTitle}
        confirmLabel={C.delete}
        confirmVariant="danger"
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={() => void onDelete()}
      >
        <p className="mb-0">{deleting ? L.confirmDelete(deleting.name, deleting.packageName) : ''}</p>
      </AppModal>
    </section>
  );
}
