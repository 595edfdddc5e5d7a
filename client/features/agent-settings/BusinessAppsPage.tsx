import { useState } from 'react';
import { AGENT_APPS_LABELS, appTypeLabel } from '../../../shared/constants/agentAppsLabels';
import { appVersionLabel } from '../../../shared/constants/domain';
import type { BusinessApp, BusinessAppBody } from '../../../shared/contracts/agentSettings';
import type { PageProps } from '../../app/lazyPage';
import { ConfirmModal } from '../../components/ConfirmModal';
import type { DataTableColumn } from '../../components/DataTable';
import { useEntityFormModal } from '../../components/EntityFormModal';
import { toastSuccess } from '../../components/toast';
import {
  useCreateBusinessAppMutation,
  useDeleteBusinessAppMutation,
  useListBusinessAppsQuery,
  useUpdateBusinessAppMutation,
} from './agentSettingsApi';
import { BusinessAppFormModal } from './BusinessAppFormModal';
import { AppRowActions, AppsPageHeader, AppsTable, ChangedCell, DeviceActionNote } from './agentAppsShared';

const L = AGENT_APPS_LABELS.businessApps;

/**
 * The business apps the agent installs on smartphones: list, create, edit and delete. Pushing
 * them to devices is the device action 'Actualizar apps de negocio' (UPDATE_APP_BUSINESS).
 */
export default function BusinessAppsPage({ title }: PageProps) {
  const list = useListBusinessAppsQuery();
  const [deleting, setDeleting] = useState<BusinessApp | null>(null);
  const [createApp, createState] = useCreateBusinessAppMutation();
  const [updateApp, updateState] = useUpdateBusinessAppMutation();
  const [deleteApp, deleteState] = useDeleteBusinessAppMutation();
  const editor = useEntityFormModal<BusinessApp, BusinessAppBody>({
    create: createApp,
    update: (app, body) => updateApp({ id: app.id, body }),
    onCreated: (app) => toastSuccess(L.createdDone(app.name)),
    onUpdated: (app) => toastSuccess(L.updatedDone(app.name)),
    loading: createState.isLoading || updateState.isLoading,
  });

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteApp(deleting.id);
    // The error is toasted (apiErrorMiddleware) and shown in the dialog, which stays open.
    if ('error' in res) return res;
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
      <AppsPageHeader title={title} labels={L} onCreate={editor.openNew} />
      <DeviceActionNote text={L.pushNote.before} action={L.pushNote.action} />
      <AppsTable
        list={list}
        labels={L}
        onCreate={editor.openNew}
        columns={columns}
        getRowId={(a) => a.id}
        rowAttributes={(a) => ({ 'data-testid': `business-app-row-${a.packageName}` })}
        caption={L.caption}
        emptyTestId="business-apps-empty"
        rowActions={(a) => <AppRowActions name={a.name} labels={L} onEdit={() => editor.openEdit(a)} onDelete={() => setDeleting(a)} />}
      />
      <BusinessAppFormModal {...editor.modal} onSubmit={editor.onSubmit} />
      <ConfirmModal
        show={deleting !== null}
        title={L.deleteTitle}
        message={deleting && L.confirmDelete(deleting.name, deleting.packageName)}
        confirmLabel={AGENT_APPS_LABELS.common.delete}
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={onDelete}
      />
    </section>
  );
}
