import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { AGENT_APPS_LABELS, appTypeLabel } from '../../../shared/constants/agentAppsLabels';
import { appVersionLabel } from '../../../shared/constants/domain';
import { DEVICE_TYPE, deviceTypeLabel, type DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import type { LockAppBody, LockAppVersion } from '../../../shared/contracts/agentSettings';
import { AGENT_SETTINGS_MESSAGES } from '../../../shared/areaMessages/agentSettings';
import type { PageProps } from '../../app/lazyPage';
import { AppModal } from '../../components/AppModal';
import { ConfirmModal } from '../../components/ConfirmModal';
import type { DataTableColumn } from '../../components/DataTable';
import { useEntityFormModal } from '../../components/EntityFormModal';
import { displayValue } from '../../components/EmptyValue';
import { IconButton } from '../../components/IconButton';
import { toastSuccess } from '../../components/toast';
import {
  useCreateLockAppMutation,
  useDeleteLockAppMutation,
  useListLockAppsQuery,
  useSetCurrentLockAppMutation,
  useUpdateLockAppMutation,
} from './agentSettingsApi';
import { AppRowActions, AppsPageHeader, AppsTable, ChangedCell, DeviceActionNote } from './agentAppsShared';
import { LockAppFormModal } from './LockAppFormModal';

const L = AGENT_APPS_LABELS.lockApp;
const C = AGENT_APPS_LABELS.common;
/** Release notes longer than this (or of several lines) show their start and a 'Ver notas' button. */
const NOTES_PREVIEW = 60;

/** The device type of a lock-app page: TV on /agent-settings-tv/app-lock-tv, else smartphones. */
export const deviceTypeOfPath = (path: string): DeviceTypeCode => (path === PATHS.appLockTv ? DEVICE_TYPE.TV : DEVICE_TYPE.SMARTPHONE);

const nameOf = (v: Pick<LockAppVersion, 'versionName' | 'versionApp'>) => appVersionLabel(v.versionName, v.versionApp);

/** The start of a text: its first line, at most NOTES_PREVIEW characters; null when the whole text fits. */
export function notesPreview(notes: string): string | null {
  const firstLine = notes.split(/\r?\n/, 1)[0]!;
  if (firstLine === notes && notes.length <= NOTES_PREVIEW) return null;
  return firstLine.length > NOTES_PREVIEW ? `${firstLine.slice(0, NOTES_PREVIEW).trimEnd()}…` : `${firstLine}…`;
}

/**
 * The agent (lock) app versions of the page's device type: list with the current one, create,
 * edit, mark as current (the agents are asked to update; for smartphones the sidebar footer
 * shows it) and delete (not the current one).
 */
export default function LockAppPage({ title, path }: PageProps) {
  const deviceType = deviceTypeOfPath(path);
  const typeLabel = deviceTypeLabel(deviceType);
  const list = useListLockAppsQuery(deviceType);
  // Ids: the dialogs read the row from the latest list (another administrator may have changed it).
  const [deletingId, setDeletingId] = useState<number | null>(null);
  const [markingId, setMarkingId] = useState<number | null>(null);
  const [notesOf, setNotesOf] = useState<LockAppVersion | null>(null);
  const [createVersion, createState] = useCreateLockAppMutation();
  const [updateVersion, updateState] = useUpdateLockAppMutation();
  const [deleteVersion, deleteState] = useDeleteLockAppMutation();
  const [setCurrent, currentState] = useSetCurrentLockAppMutation();

  const rows = list.data?.data ?? [];
  const current = rows.find((v) => v.isCurrent);
  const deleting = rows.find((v) => v.id === deletingId) ?? null;
  const marking = rows.find((v) => v.id === markingId) ?? null;

  const editor = useEntityFormModal<LockAppVersion, LockAppBody>({
    create: (body) => createVersion({ deviceType, body }),
    update: (version, body) => updateVersion({ deviceType, id: version.id, body }),
    onCreated: (version) => toastSuccess(L.createdDone(nameOf(version))),
    onUpdated: (version) => toastSuccess(L.updatedDone(nameOf(version))),
    loading: createState.isLoading || updateState.isLoading,
  });

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteVersion({ deviceType, id: deleting.id });
    // The error (409: it is the current version) is toasted by apiErrorMiddleware; the list is
    // reloaded and the dialog, still open, says why.
    if ('error' in res) return res;
    toastSuccess(L.deletedDone(nameOf(deleting)));
    setDeletingId(null);
  };

  const onMarkCurrent = async () => {
    if (!marking) return;
    const res = await setCurrent({ deviceType, id: marking.id });
    if ('error' in res) return res;
    toastSuccess(L.markedCurrentDone(nameOf(res.data)));
    setMarkingId(null);
  };

  const columns: DataTableColumn<LockAppVersion>[] = [
    {
      id: 'version',
      header: L.columns.version,
      cell: (v) => (
        <span className="d-inline-flex flex-wrap align-items-center gap-2">
          <span className="fw-semibold">{nameOf(v)}</span>
          {v.isCurrent && <span className="badge text-bg-success">{L.current}</span>}
        </span>
      ),
    },
    { id: 'appType', header: L.columns.appType, className: 'text-nowrap', cell: (v) => appTypeLabel(v.appType) },
    {
      id: 'devices',
      header: L.columns.devices,
      className: 'text-end',
      cell: (v) => <span title={L.devicesOf(v.devices)}>{v.devices.toLocaleString('es-MX')}</span>,
    },
    { id: 'created', header: L.columns.created, cell: (v) => <ChangedCell at={v.createdAt} by={v.createdBy} /> },
    {
      id: 'releaseNotes',
      header: L.columns.releaseNotes,
      className: 'text-break',
      cell: (v) => {
        if (!v.releaseNotes) return displayValue(v.releaseNotes);
        const preview = notesPreview(v.releaseNotes);
        if (preview === null) return v.releaseNotes;
        return (
          <>
            <span className="me-1">{preview}</span>
            <Button variant="link" size="sm" className="p-0 align-baseline" aria-label={L.notesShowOf(nameOf(v))} onClick={() => setNotesOf(v)}>
              {L.notesShow}
            </Button>
          </>
        );
      },
    },
  ];

  return (
    <section>
      <AppsPageHeader title={title} labels={L} onCreate={editor.openNew} />
      {list.data && rows.length > 0 && (
        <p className="mb-2" data-testid="lock-app-current">
          {current ? L.currentIs(nameOf(current)) : L.noCurrent}
        </p>
      )}
      <DeviceActionNote text={L.pushNote.before} action={L.pushNote.action} />
      <AppsTable
        list={list}
        labels={L}
        onCreate={editor.openNew}
        columns={columns}
        getRowId={(v) => v.id}
        rowAttributes={(v) => ({ 'data-testid': `lock-app-row-${nameOf(v)}`, 'data-current': String(v.isCurrent) })}
        caption={L.caption(typeLabel)}
        emptyTestId="lock-app-empty"
        rowActions={(v) => (
          <AppRowActions
            name={nameOf(v)}
            labels={L}
            deleteTitle={v.isCurrent ? L.cannotDeleteCurrent : C.delete}
            onEdit={() => editor.openEdit(v)}
            onDelete={() => setDeletingId(v.id)}
          >
            <IconButton
              variant="outline-success"
              icon="check2-circle"
              label={L.markCurrentOf(nameOf(v))}
              title={v.isCurrent ? L.alreadyCurrent : L.markCurrent}
              disabled={v.isCurrent}
              onClick={() => setMarkingId(v.id)}
            />
          </AppRowActions>
        )}
      />
      <LockAppFormModal deviceType={deviceType} {...editor.modal} onSubmit={editor.onSubmit} />
      <ConfirmModal
        show={marking !== null}
        title={L.markCurrentTitle}
        confirmLabel={L.markCurrent}
        confirmVariant="primary"
        loading={currentState.isLoading}
        onClose={() => setMarkingId(null)}
        onConfirm={onMarkCurrent}
      >
        {marking && (
          <>
            <p>{L.confirmMarkCurrent(nameOf(marking))}</p>
            <p className={deviceType === DEVICE_TYPE.SMARTPHONE ? undefined : 'mb-0'}>{L.markCurrentAgents(deviceType)}</p>
            {deviceType === DEVICE_TYPE.SMARTPHONE && <p className="mb-0">{L.markCurrentSidebar}</p>}
          </>
        )}
      </ConfirmModal>
      {/* The current version cannot be deleted: the dialog says so and only closes. */}
      <ConfirmModal
        show={deleting !== null}
        title={L.deleteTitle}
        confirmLabel={C.delete}
        loading={deleteState.isLoading}
        readOnly={deleting?.isCurrent ?? false}
        onClose={() => setDeletingId(null)}
        onConfirm={onDelete}
      >
        {deleting &&
          (deleting.isCurrent ? (
            <Alert variant="warning" className="mb-0" role="alert">
              {AGENT_SETTINGS_MESSAGES.lockApp.currentNotDeleted}
            </Alert>
          ) : (
            <>
              <p className={deleting.devices > 0 ? undefined : 'mb-0'}>{L.confirmDelete(nameOf(deleting))}</p>
              {deleting.devices > 0 && <p className="mb-0 text-body-secondary">{L.devicesOf(deleting.devices)}</p>}
            </>
          ))}
      </ConfirmModal>
      <AppModal show={notesOf !== null} title={notesOf ? L.notesTitle(nameOf(notesOf)) : ''} readOnly onClose={() => setNotesOf(null)}>
        <p className="mb-0" style={{ whiteSpace: 'pre-wrap' }} data-testid="lock-app-notes">
          {notesOf?.releaseNotes}
        </p>
      </AppModal>
    </section>
  );
}
