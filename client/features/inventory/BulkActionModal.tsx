import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { DEVICE_TYPE, type DeviceTypeCode } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { ActionPayloadInput } from '../../../shared/contracts/deviceActions';
import type { BulkBodyInput, BulkPreview, Job } from '../../../shared/contracts/jobs';
import { actionLabel } from '../../../shared/deviceActionRules';
import { SPEC_TEXT } from '../../../shared/messages';
import { useAppDispatch } from '../../app/hooks';
import { LoadingButton } from '../../components/LoadingButton';
import { toastSuccess } from '../../components/toast';
import { ActionPayloadForm, proposedLockType } from './ActionPayloadForm';
import { BulkSummary } from './BulkSummary';
import { newIdempotencyKey } from './deviceActionItems';
import { commandsInFlight, jobPollingInterval } from './inFlight';
import {
  inventoryApi,
  useBulkPreviewMutation,
  useDownloadJobResultsMutation,
  useGetJobQuery,
  useLockDefaultsQuery,
  useStartBulkActionMutation,
} from './inventoryApi';

const L = INVENTORY_LABELS.bulk;
const n = (v: number) => v.toLocaleString('es-MX');
const FINISHED: readonly Job['status'][] = ['completed', 'failed'];

/**
 * A job's progress, polled every second until it has finished, then its result and the CSV; then
 * where its commands are, polled every two seconds while some are on their way to the devices
 * (until the user stops following them).
 */
export function BulkJobProgress({ jobId }: { jobId: number }) {
  const [following, setFollowing] = useState(true);
  // The interval is decided on the cached answer (inFlight.ts).
  const cached = inventoryApi.endpoints.getJob.useQueryState(jobId);
  const { data: job } = useGetJobQuery(jobId, { pollingInterval: jobPollingInterval(cached.data, following), skipPollingIfUnfocused: false });
  const [download, downloadState] = useDownloadJobResultsMutation();
  const dispatch = useAppDispatch();
  const done = job !== undefined && FINISHED.includes(job.status);
  // Once the job has finished, polling stops and the devices list and counters refetch, once.
  const invalidated = useRef(false);
  useEffect(() => {
    if (!done || invalidated.current) return;
    invalidated.current = true;
    dispatch(inventoryApi.util.invalidateTags(['Devices', 'Groups']));
  }, [done, dispatch]);
  if (!job) return null;
  const percent = job.total > 0 ? Math.round((job.processed / job.total) * 100) : done ? 100 : 0;
  const onDownload = async () => {
    const res = await download(job.id);
    if ('data' in res) toastSuccess(L.downloaded);
  };
  return (
    <div data-testid="bulk-job">
      <p className="mb-1 d-flex justify-content-between">
        <span>{L.jobStatuses[job.status]}</span>
        <span>{L.progressText(job.processed, job.total)}</span>
      </p>
      {/* The inner bar carries role=progressbar: it gets the accessible name and value text. */}
      <ProgressBar className="mb-3">
        <ProgressBar
          now={percent}
          label={`${percent}%`}
          visuallyHidden
          animated={!done}
          striped={!done}
          variant={job.status === 'failed' ? 'danger' : done ? 'success' : undefined}
          aria-label={L.progress}
          aria-valuetext={`${percent}% (${L.progressText(job.processed, job.total)})`}
        />
      </ProgressBar>
      {done && (
        <>
          <dl className="row mb-3" data-testid="bulk-result">
            <dt className="col-7">{L.succeeded}</dt>
            <dd className="col-5 text-end mb-1">{n(job.succeeded)}</dd>
            <dt className="col-7">{L.skippedResult}</dt>
            <dd className="col-5 text-end mb-1">{n(job.skipped)}</dd>
            <dt className="col-7">{L.failed}</dt>
            <dd className="col-5 text-end mb-1">{n(job.failed)}</dd>
          </dl>
          {job.commands && following && (
            <div className="d-flex align-items-start justify-content-between gap-2 mb-3" data-testid="bulk-commands">
              <p className="mb-0">{L.commandsProgress(job.commands)}</p>
              {/* A labelled button, not a second ×: the dialog's own × closes it. */}
              {commandsInFlight(job) > 0 && (
                <Button size="sm" variant="outline-secondary" className="text-nowrap" onClick={() => setFollowing(false)}>
                  {L.stopFollowing}
                </Button>
              )}
            </div>
          )}
          {job.error && (
            <Alert variant="danger">
              <strong className="d-block">{L.jobError}</strong>
              {job.error}
            </Alert>
          )}
          <LoadingButton variant="outline-primary" loading={downloadState.isLoading} onClick={() => void onDownload()}>
            <i className="bi bi-download me-2" aria-hidden="true" />
            {L.download}
          </LoadingButton>
        </>
      )}
    </div>
  );
}

export interface BulkActionModalProps {
  action: number;
  selection: BulkBodyInput['selection'];
  /** What the selection is, for the first step's sentence (e.g. '25 dispositivos'). */
  selectionText: string;
  /**
   * The device type the selection targets (every selected device's, or the filter's); undefined
   * when mixed or unknown. LOCK starts on that type's global default lock type (smartphones' then).
   */
  deviceType?: DeviceTypeCode;
  onClose: () => void;
  /** The job started (the page clears its selection). */
  onStarted: (job: Job) => void;
}

type Step =
  { kind: 'form' } | { kind: 'preview'; payload: ActionPayloadInput; preview: BulkPreview; idempotencyKey: string } | { kind: 'job'; jobId: number };

/** A bulk action: the payload, then the dry run ('Vista previa'), then the job and its progress. */
export function BulkActionModal({ action, selection, selectionText, deviceType, onClose, onStarted }: BulkActionModalProps) {
  const titleId = useId();
  const formId = `bulk-action-form-${action}`;
  const label = actionLabel(action);
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [preview, previewState] = useBulkPreviewMutation();
  const [start, startState] = useStartBulkActionMutation();
  const dispatch = useAppDispatch();
  const isLock = action === DEVICE_ACTION.LOCK;
  const lockDefaults = useLockDefaultsQuery(undefined, { skip: !isLock });
  const close = () => {
    // Closed while the job may still run: the list shows what it has done so far.
    if (step.kind === 'job') dispatch(inventoryApi.util.invalidateTags(['Devices']));
    onClose();
  };

  const onPreview = async (payload: ActionPayloadInput) => {
    const res = await preview({ selection, payload });
    if (!('data' in res) || !res.data) return;
    setStep({ kind: 'preview', payload, preview: res.data, idempotencyKey: newIdempotencyKey() });
  };
  const onConfirm = async () => {
    if (step.kind !== 'preview') return;
    const res = await start({ body: { selection, payload: step.payload }, idempotencyKey: step.idempotencyKey });
    if (!('data' in res) || !res.data) return;
    toastSuccess(L.started(label));
    onStarted(res.data);
    setStep({ kind: 'job', jobId: res.data.id });
  };

  return (
    <Modal show onHide={close} aria-labelledby={titleId} centered size="lg" backdrop={step.kind === 'form' ? true : 'static'}>
      <Modal.Header closeButton closeLabel={INVENTORY_LABELS.common.close}>
        <Modal.Title id={titleId}>{step.kind === 'preview' ? L.previewTitle : L.title(label)}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {/* Hidden, not unmounted, during the later steps: 'Atrás' finds the values as they were typed. */}
        <div hidden={step.kind !== 'form'}>
          <ActionPayloadForm
            formId={formId}
            action={action}
            intro={
              <>
                <p className="mb-1 fw-semibold">{selectionText}</p>
                <p className="mb-0">{L.noPayload(label)}</p>
              </>
            }
            defaultLockType={proposedLockType(lockDefaults.data, deviceType ?? DEVICE_TYPE.SMARTPHONE)}
            onSubmit={(p) => void onPreview(p)}
          />
        </div>
        {step.kind === 'preview' && <BulkSummary preview={step.preview} />}
        {step.kind === 'job' && <BulkJobProgress jobId={step.jobId} />}
      </Modal.Body>
      <Modal.Footer>
        {step.kind === 'form' && (
          <>
            <Button variant="secondary" onClick={onClose}>
              {SPEC_TEXT.cancel}
            </Button>
            {/* Until the proposed lock type is known, the preview could be of another one. */}
            <LoadingButton type="submit" form={formId} loading={previewState.isLoading || (isLock && lockDefaults.isLoading)}>
              {L.preview}
            </LoadingButton>
          </>
        )}
        {step.kind === 'preview' && (
          <>
            <Button variant="secondary" onClick={() => setStep({ kind: 'form' })}>
              {L.back}
            </Button>
            <LoadingButton
              variant="danger"
              loading={startState.isLoading}
              disabled={step.preview.overLimit || step.preview.eligible === 0}
              onClick={() => void onConfirm()}
            >
              {L.confirm}
            </LoadingButton>
          </>
        )}
        {step.kind === 'job' && (
          <Button variant="primary" onClick={close}>
            {INVENTORY_LABELS.common.close}
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
