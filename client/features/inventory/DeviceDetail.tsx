import { useId, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { deviceTypeLabel, lockTypeLabel } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import { actionLabel } from '../../../shared/deviceActionRules';
import { AppModal } from '../../components/AppModal';
import { CopyText } from '../../components/CopyText';
import { displayValue } from '../../components/EmptyValue';
import { PageSpinner } from '../../components/PageSpinner';
import { toastSuccess } from '../../components/toast';
import { DeviceActionMenu } from './DeviceActionMenu';
import { DeviceHistory } from './DeviceHistory';
import { useCancelCommandMutation, useGetDeviceQuery } from './inventoryApi';
import { formatDateTime } from '../../components/formatDate';
import { relativeTime } from './relativeTime';
import { statusBadgeClass, statusLabel } from './statusBadge';
import { useNow } from './useNow';

const L = INVENTORY_LABELS.detail;
const F = L.fields;

const date = (at: string | null) => (at ? formatDateTime(at) : null);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-5">{label}</dt>
      <dd className="col-7 text-break">{children}</dd>
    </>
  );
}

/** Every field of the device, with Spanish labels and '-' for the empty ones. */
export function DeviceFacts({ device, now }: { device: Device; now: number | null }) {
  return (
    <dl className="row small mb-0" data-testid="device-facts">
      <Fact label={F.id}>{device.id}</Fact>
      <Fact label={F.imei}>
        <CopyText text={device.imei} label={F.imei} className="font-monospace" />
      </Fact>
      <Fact label={F.imei2}>
        <CopyText text={device.imei2} label={F.imei2} className="font-monospace" />
      </Fact>
      <Fact label={F.serial}>{displayValue(device.serial)}</Fact>
      <Fact label={F.deviceType}>{deviceTypeLabel(device.deviceType)}</Fact>
      <Fact label={F.brand}>{displayValue(device.brand)}</Fact>
      <Fact label={F.model}>{displayValue(device.model)}</Fact>
      <Fact label={F.osVersion}>{displayValue(device.osVersion)}</Fact>
      <Fact label={F.agentVersion}>{displayValue(device.agentVersion)}</Fact>
      <Fact label={F.group}>{displayValue(device.groupName)}</Fact>
      <Fact label={F.customerName}>{displayValue(device.customerName)}</Fact>
      <Fact label={F.creditReference}>{displayValue(device.creditReference)}</Fact>
      <Fact label={F.status}>
        <span className={statusBadgeClass(device.status)}>{statusLabel(device.status)}</span>
      </Fact>
      <Fact label={F.lockType}>{displayValue(lockTypeLabel(device.lockType))}</Fact>
      <Fact label={F.lockMessage}>{displayValue(device.lockMessage)}</Fact>
      <Fact label={F.temporaryUntil}>{displayValue(date(device.temporaryUntil))}</Fact>
      <Fact label={F.lastSeenAt}>
        {device.lastSeenAt ? (
          <time dateTime={device.lastSeenAt}>
            {formatDateTime(device.lastSeenAt)}
            {now !== null && ` (${relativeTime(device.lastSeenAt, now)})`}
          </time>
        ) : (
          displayValue(null)
        )}
      </Fact>
      <Fact label={F.enrolledAt}>{displayValue(date(device.enrolledAt))}</Fact>
      <Fact label={F.createdAt}>{formatDateTime(device.createdAt)}</Fact>
      <Fact label={F.updatedAt}>{formatDateTime(device.updatedAt)}</Fact>
      <Fact label={F.simIccid}>{displayValue(device.simIccid)}</Fact>
      <Fact label={F.simCarrier}>{displayValue(device.simCarrier)}</Fact>
    </dl>
  );
}

/** The command in flight; a RELEASE inside its window can be cancelled (when the profile grants RELEASE). */
function PendingCommandSection({ device, granted, now }: { device: Device; granted: ReadonlySet<number>; now: number | null }) {
  const [confirming, setConfirming] = useState(false);
  const [cancel, cancelState] = useCancelCommandMutation();
  const pending = device.pendingCommand;
  const isRelease = pending?.action === DEVICE_ACTION.RELEASE;
  const cancellable = Boolean(pending && isRelease && now !== null && Date.parse(pending.deliverAfter) > now && granted.has(DEVICE_ACTION.RELEASE));
  const onConfirm = async () => {
    if (!pending) return;
    const res = await cancel({ id: device.id, commandId: pending.id });
    if ('error' in res) return;
    toastSuccess(L.releaseCancelled);
    setConfirming(false);
  };
  return (
    <section className="mb-4" aria-labelledby={`device-pending-${device.id}`}>
      <h3 className="h6" id={`device-pending-${device.id}`}>
        {L.pending}
      </h3>
      {!pending ? (
        <p className="small mb-0">{L.noPending}</p>
      ) : (
        <>
          <dl className="row small mb-2" data-testid="pending-command">
            <Fact label={L.pendingAction}>{actionLabel(pending.action)}</Fact>
            <Fact label={L.requestedBy}>{displayValue(pending.requestedBy)}</Fact>
            <Fact label={L.requestedAt}>{formatDateTime(pending.requestedAt)}</Fact>
            {isRelease && <Fact label={L.cancelWindowEnds}>{formatDateTime(pending.deliverAfter)}</Fact>}
          </dl>
          {cancellable && (
            <Button variant="outline-danger" size="sm" onClick={() => setConfirming(true)}>
              {L.cancelRelease}
            </Button>
          )}
          <AppModal
            show={confirming}
            title={L.cancelRelease}
            confirmLabel={INVENTORY_LABELS.common.confirm}
            confirmVariant="danger"
            loading={cancelState.isLoading}
            onClose={() => setConfirming(false)}
            onConfirm={() => void onConfirm()}
          >
            <p className="mb-0">{L.confirmCancelRelease(device.imei)}</p>
          </AppModal>
        </>
      )}
    </section>
  );
}

export interface DeviceDetailProps {
  deviceId: number;
  granted: ReadonlySet<number>;
  onClose: () => void;
  onAction: (device: Device, code: number) => void;
}

/** The device detail, from the right: facts, pending command, failure reason, history. */
export function DeviceDetail({ deviceId, granted, onClose, onAction }: DeviceDetailProps) {
  const titleId = useId();
  const now = useNow();
  const { data: device, isLoading, isError } = useGetDeviceQuery(deviceId);
  return (
    <Offcanvas show onHide={onClose} placement="end" aria-labelledby={titleId} style={{ width: 'min(36rem, 100vw)' }} data-testid="device-detail">
      <Offcanvas.Header closeButton closeLabel={INVENTORY_LABELS.common.close}>
        <Offcanvas.Title id={titleId} as="h2" className="h5">
          {device ? L.title(device.imei) : L.loadingTitle}
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body>
        {isLoading ? (
          <PageSpinner />
        ) : !device || isError ? (
          <Alert variant="warning">{L.notFound}</Alert>
        ) : (
          <>
            <div className="d-flex align-items-center justify-content-between gap-2 mb-3">
              <span className={statusBadgeClass(device.status)}>{statusLabel(device.status)}</span>
              <DeviceActionMenu device={device} granted={granted} onAction={(code) => onAction(device, code)} />
            </div>
            {device.failureReason && (
              <Alert variant="danger">
                <strong className="d-block">{L.failure}</strong>
                {device.failureReason}
              </Alert>
            )}
            <PendingCommandSection device={device} granted={granted} now={now} />
            <section className="mb-4" aria-labelledby={`device-facts-${device.id}`}>
              <h3 className="h6" id={`device-facts-${device.id}`}>
                {L.facts}
              </h3>
              <DeviceFacts device={device} now={now} />
            </section>
            <DeviceHistory deviceId={device.id} granted={granted} />
          </>
        )}
      </Offcanvas.Body>
    </Offcanvas>
  );
}
