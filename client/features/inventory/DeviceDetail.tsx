import { useEffect, useId, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { deviceTypeLabel, lockTypeLabel, type LockType } from '../../../shared/constants/domain';
import { DEVICE_DETAIL_LABELS } from '../../../shared/constants/deviceDetailLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import { commandLabel } from '../../../shared/deviceActionRules';
import type { ApiError } from '../../api/axiosBaseQuery';
import { CopyText } from '../../components/CopyText';
import { displayValue } from '../../components/EmptyValue';
import { PageSpinner } from '../../components/PageSpinner';
import { CancelCommandModal, type CancelCommandRequest } from './CancelCommandModal';
import { DeviceActionMenu } from './DeviceActionMenu';
import { DeviceCreditPanel } from './DeviceCreditPanel';
import { cancellablePending, deliverableNow, scheduledRelease } from './deviceActionItems';
import { DeliverReleaseModal } from './DeliverReleaseModal';
import { DeviceEnrollments } from './DeviceEnrollments';
import { DeviceHistory } from './DeviceHistory';
import { isInFlight, LIVE_POLL_MS } from './inFlight';
import { inventoryApi, useGetDeviceQuery } from './inventoryApi';
import type { OpenAction } from './useDeviceListQuery';
import { formatDateTime } from '../../components/formatDate';
import { relativeTime } from '../../components/relativeTime';
import { statusBadgeClass, statusLabel } from '../../components/statusBadge';
import { useNow } from '../../components/useNow';

const L = DEVICE_DETAIL_LABELS.detail;
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

const P = L.payload;

/**
 * What a command asks for, from its payload, as label and text: the lock type and its message,
 * the stolen report, the notification's title and text, the payment reference, the date a
 * temporary unlock lasts until. Unknown or empty entries are left out.
 */
export function payloadFacts(action: number, payload: Record<string, unknown>): { label: string; value: string }[] {
  const text = (key: string) => {
    const v = payload[key];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  };
  const facts: { label: string; value: string | null }[] = [
    { label: P.lockType, value: lockTypeLabel(text('lockType')) },
    { label: P.notificationTitle, value: text('title') },
    { label: action === DEVICE_ACTION.SEND_NOTIFICATION ? P.notificationMessage : P.lockMessage, value: text('message') },
    { label: P.stolen, value: payload.stolen === true ? P.yes : null },
    { label: P.reference, value: text('reference') },
    { label: P.until, value: date(text('until')) },
  ];
  return facts.filter((f): f is { label: string; value: string } => f.value !== null);
}

/**
 * The command in flight: what was requested, when and by whom, and whether the device has
 * received it. One it has not received yet can be cancelled (when the profile grants its action).
 */
function PendingCommandSection({ device, granted, now }: { device: Device; granted: ReadonlySet<number>; now: number | null }) {
  const [request, setRequest] = useState<CancelCommandRequest | null>(null);
  const [deliverNow, setDeliverNow] = useState(false);
  const pending = device.pendingCommand;
  const cancellable = cancellablePending(device, granted);
  // A release inside its cancel window is scheduled, not waiting for the device to connect.
  const scheduled = scheduledRelease(device, now);
  const deliverAt = scheduled ? formatDateTime(scheduled.deliverAfter) : null;
  return (
    <section className="mb-4" aria-labelledby={`device-pending-${device.id}`}>
      <h3 className="h6" id={`device-pending-${device.id}`}>
        {L.pending}
      </h3>
      {!pending ? (
        <p className="small mb-0">{L.noPending}</p>
      ) : (
        <>
          {deliverAt && (
            <Alert variant="info" className="small py-2" data-testid="release-scheduled">
              <strong className="d-block">{L.releaseScheduled}</strong>
              {L.releaseScheduledNote(deliverAt)}
            </Alert>
          )}
          <dl className="row small mb-2" data-testid="pending-command">
            <Fact label={L.pendingAction}>{commandLabel(pending.action, pending.payload)}</Fact>
            {payloadFacts(pending.action, pending.payload).map((f) => (
              <Fact key={f.label} label={f.label}>
                {f.value}
              </Fact>
            ))}
            <Fact label={L.requestedBy}>{displayValue(pending.requestedBy)}</Fact>
            <Fact label={L.requestedAt}>{formatDateTime(pending.requestedAt)}</Fact>
            {deliverAt && <Fact label={L.cancelWindowEnds}>{deliverAt}</Fact>}
            <Fact label={L.delivered}>
              <span data-testid="pending-delivered">
                {pending.deliveredAt ? formatDateTime(pending.deliveredAt) : deliverAt ? L.deliveryScheduled(deliverAt) : L.waitingDelivery}
              </span>
            </Fact>
          </dl>
          {scheduled && deliverableNow(device, granted, now) && (
            <Button variant="outline-primary" size="sm" className="me-2" data-testid="deliver-release-now" onClick={() => setDeliverNow(true)}>
              {INVENTORY_LABELS.actions.deliverNow}
            </Button>
          )}
          {cancellable && (
            <Button
              variant="outline-danger"
              size="sm"
              onClick={() =>
                setRequest({ device: { id: device.id, imei: device.imei }, command: { id: cancellable.id, action: cancellable.action } })
              }
            >
              {INVENTORY_LABELS.actions.cancelPending}
            </Button>
          )}
        </>
      )}
      {request && <CancelCommandModal request={request} onClose={() => setRequest(null)} />}
      {deliverNow && <DeliverReleaseModal device={device} onClose={() => setDeliverNow(false)} />}
    </section>
  );
}

export interface DeviceDetailProps {
  deviceId: number;
  granted: ReadonlySet<number>;
  onClose: () => void;
  onAction: (device: Device, code: number, lockType?: LockType) => void;
  /** 'Autorizar reenrolamiento' from the detail's menu. */
  onReenroll?: (device: Device) => void;
  /**
   * An action to open on the device as soon as it loads (`?action=` and `?lockType=` of the URL:
   * Conciliación's one-click fix), when the profile grants it; `onActionOpened` then clears it.
   */
  openAction?: OpenAction | null;
  onActionOpened?: () => void;
}

/**
 * The device detail, from the right: facts, pending command, failure reason, enrollments, history. While the
 * device has a command in flight (inFlight.ts) the device and its history refresh every second.
 */
export function DeviceDetail({ deviceId, granted, onClose, onAction, onReenroll, openAction = null, onActionOpened }: DeviceDetailProps) {
  const titleId = useId();
  const now = useNow();
  const cached = inventoryApi.endpoints.getDevice.useQueryState(deviceId);
  const live = isInFlight(cached.data?.pendingCommand, now);
  // Fetched as it opens even when the list's row is already there to draw it (DevicesPage's openDetail).
  const {
    data: device,
    isLoading,
    error,
  } = useGetDeviceQuery(deviceId, {
    pollingInterval: live ? LIVE_POLL_MS : 0,
    skipPollingIfUnfocused: false,
    refetchOnMountOrArgChange: true,
  });
  // A refresh that fails for another reason (the network) keeps the last answer on screen; the toast says why.
  const gone = !device || (error as ApiError | undefined)?.status === 404;
  useEffect(() => {
    if (openAction === null || isLoading) return;
    onActionOpened?.();
    if (device && granted.has(openAction.action)) onAction(device, openAction.action, openAction.lockType);
  }, [openAction, isLoading, device, granted, onAction, onActionOpened]);
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
        ) : gone ? (
          <Alert variant="warning">{L.notFound}</Alert>
        ) : (
          <>
            <div className="d-flex align-items-center justify-content-between gap-2 mb-3">
              <span className={statusBadgeClass(device.status)}>{statusLabel(device.status)}</span>
              <DeviceActionMenu
                device={device}
                granted={granted}
                onAction={(code) => onAction(device, code)}
                onReenroll={onReenroll && (() => onReenroll(device))}
              />
            </div>
            {device.failureReason && (
              <Alert variant="danger">
                <strong className="d-block">{L.failure}</strong>
                {device.failureReason}
              </Alert>
            )}
            <PendingCommandSection device={device} granted={granted} now={now} />
            <DeviceCreditPanel device={device} />
            <section className="mb-4" aria-labelledby={`device-facts-${device.id}`}>
              <h3 className="h6" id={`device-facts-${device.id}`}>
                {L.facts}
              </h3>
              <DeviceFacts device={device} now={now} />
            </section>
            <DeviceEnrollments deviceId={device.id} granted={granted} />
            <DeviceHistory deviceId={device.id} granted={granted} live={live} />
          </>
        )}
      </Offcanvas.Body>
    </Offcanvas>
  );
}
