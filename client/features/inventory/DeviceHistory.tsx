import Alert from 'react-bootstrap/Alert';
import { ACTION_ORIGINS } from '../../../shared/constants/domain';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { DEVICE_DETAIL_LABELS } from '../../../shared/constants/deviceDetailLabels';
import type { Command, CommandStatus } from '../../../shared/contracts/deviceActions';
import { actionLabel, commandLabel } from '../../../shared/deviceActionRules';
import { INVENTORY_MESSAGES } from '../../../shared/areaMessages/inventory';
import { displayValue } from '../../components/EmptyValue';
import { useDeviceHistoryQuery } from './inventoryApi';
import { PagedTimeline } from './PagedTimeline';
import { formatDateTime } from '../../components/formatDate';
import { HISTORY_DEFAULT_PER_PAGE } from '../../../shared/constants/limits';

const L = DEVICE_DETAIL_LABELS.history;

const STATUS_CLASS: Record<CommandStatus, string> = {
  pending: 'text-bg-warning',
  acknowledged: 'text-bg-success',
  rejected: 'text-bg-danger',
  cancelled: 'text-bg-secondary',
  issued: 'text-bg-info',
  redeemed: 'text-bg-success',
};

/** The origin of a command: a reference §4 action origin, or the portal. */
export function originLabel(origin: number | null): string {
  if (origin === null) return L.portal;
  return ACTION_ORIGINS.find((o) => o.code === origin)?.label ?? String(origin);
}

const date = (at: string | null) => (at ? formatDateTime(at) : null);

/** One entry of the timeline. */
export function HistoryEntry({ entry }: { entry: Command }) {
  return (
    <li className="border-start border-2 ps-3 pb-3" data-testid="history-entry">
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-1">
        <span className="fw-semibold">{commandLabel(entry.action, entry.payload)}</span>
        <span className={`badge ${STATUS_CLASS[entry.status] ?? 'text-bg-light border'}`}>{L.statuses[entry.status] ?? entry.status}</span>
      </div>
      <dl className="row small mb-0">
        <dt className="col-5">{L.origin}</dt>
        <dd className="col-7 mb-1">{originLabel(entry.origin)}</dd>
        <dt className="col-5">{L.requestedBy}</dt>
        <dd className="col-7 mb-1 text-break">{displayValue(entry.requestedBy)}</dd>
        <dt className="col-5">{L.requestedAt}</dt>
        <dd className="col-7 mb-1">{formatDateTime(entry.requestedAt)}</dd>
        <dt className="col-5">{L.deliveredAt}</dt>
        <dd className="col-7 mb-1" data-testid="history-delivered">
          {displayValue(date(entry.deliveredAt))}
        </dd>
        <dt className="col-5">{L.acknowledgedAt}</dt>
        <dd className="col-7 mb-1" data-testid="history-acknowledged">
          {displayValue(date(entry.acknowledgedAt))}
        </dd>
        <dt className="col-5">{entry.status === 'rejected' ? L.rejectionReason : L.result}</dt>
        <dd className="col-7 mb-1 text-break" data-testid="history-result">
          {displayValue(entry.result)}
        </dd>
        {entry.expiresAt && (
          <>
            <dt className="col-5">{L.expiresAt}</dt>
            <dd className="col-7 mb-1">{formatDateTime(entry.expiresAt)}</dd>
          </>
        )}
        {entry.jobId !== null && (
          <>
            <dt className="col-5">{L.job}</dt>
            <dd className="col-7 mb-1">#{entry.jobId}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

const historyEntry = (entry: Command) => <HistoryEntry key={entry.id} entry={entry} />;

/** The history section: the timeline, or why it is not shown (the profile lacks HISTORY). `live`: a command is in flight. */
export function DeviceHistory({ deviceId, granted, live = false }: { deviceId: number; granted: ReadonlySet<number>; live?: boolean }) {
  return (
    <section aria-labelledby={`device-history-${deviceId}`}>
      <h3 className="h6" id={`device-history-${deviceId}`}>
        {L.title}
      </h3>
      {granted.has(DEVICE_ACTION.HISTORY) ? (
        <PagedTimeline
          key={deviceId}
          deviceId={deviceId}
          useQuery={useDeviceHistoryQuery}
          perPage={HISTORY_DEFAULT_PER_PAGE}
          label={L.title}
          empty={L.empty}
          more={L.more}
          entry={historyEntry}
          live={live}
        />
      ) : (
        <Alert variant="secondary" className="mb-0">
          {INVENTORY_MESSAGES.actions.notGranted(actionLabel(DEVICE_ACTION.HISTORY))}
        </Alert>
      )}
    </section>
  );
}
