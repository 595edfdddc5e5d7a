import { useState } from 'react';
import { AGENT_APPS_LABELS, appTypeLabel } from '../../../shared/constants/agentAppsLabels';
import { appVersionLabel } from '../../../shared/constants/domain';
import type { BusinessApp, BusinessAppBody } from '../../../shared/contracts/agentSettings';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import type { PageProps } from '../../app/lazyPage';
import type { DataTableColumn } from '../../components/DataTable';
import type { SaveOutcome } from '../../components/serverFieldError';
import { toastSuccess } from '../../components/toast';
import {
  useCreateBusinessAppMutation,
  useDeleteBusinessAppMutation,
  useListBusinessAppsQuery,
  useUpdateBusinessAppMutation,
} from './agentSettingsApi';
import { BusinessAppFormModal } from './BusinessAppFormModal';
import { AppRowActions, AppsPageHeader, AppsTable, ChangedCell, DeleteAppModal, DeviceActionNote } from './agentAppsShared';

const L = AGENT_APPS_LABELS.businessApps;

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

  const columns: DataTableColumn<BusinessApp>[] = [
    { id: 'name', header: L.columns.name, cell: (a) => <span className="fw-semibold">{a.name}</span> },
    { id: 'packageName', header: L.columns.packageName, className: 'text-break', cell: (a) => <code className="text-body">{a.packageName}</code> },
    { id: 'version', header: L.columns.version, className: 'text-nowrap', cell: (a) => appVersionLabel(a.versionName, a.versionCode) },
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
      <AppsPageHeader title={title} labels={L} onCreate={() => setEditing('new')} />
      <DeviceActionNote text={L.pushNote.before} action={L.pushNote.action} />
      <AppsTable
        list={list}
        labels={L}
        onCreate={() => setEditing('new')}
        columns={columns}
        getRowId={(a) => a.id}
        rowAttributes={(a) => ({ 'data-testid': `business-app-row-${a.packageName}` })}
        caption={L.caption}
        emptyTestId="business-apps-empty"
        rowActions={(a) => <AppRowActions name={a.name} labels={L} onEdit={() => setEditing(a)} onDelete={() => setDeleting(a)} />}
      />
      <BusinessAppFormModal
        editing={editing}
        loading={createState.isLoading || updateState.isLoading}
        onClose={() => setEditing(null)}
        onSubmit={onSave}
      />
      <DeleteAppModal
        show={deleting !== null}
        title={L.deleteTitle}
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={() => void onDelete()}
      >
        <p className="mb-0">{deleting ? L.confirmDelete(deleting.name, deleting.packageName) : ''}</p>
      </DeleteAppModal>
    </section>
  );
}
