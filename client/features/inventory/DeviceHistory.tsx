import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { ACTION_ORIGINS } from '../../../shared/constants/domain';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { HISTORY_DEFAULT_PER_PAGE, type Command, type CommandStatus } from '../../../shared/contracts/deviceActions';
import { actionLabel } from '../../../shared/deviceActionRules';
import { INVENTORY_MESSAGES } from '../../../shared/areaMessages';
import { displayValue } from '../../components/EmptyValue';
import { LoadingButton } from '../../components/LoadingButton';
import { LIVE_POLL_MS } from './inFlight';
import { useDeviceHistoryQuery } from './inventoryApi';
import { formatDateTime } from '../../components/formatDate';
import { LoadError } from '../../components/LoadError';

const L = INVENTORY_LABELS.history;

const STATUS_CLASS: Record<CommandStatus, string> = {
  pending: 'text-bg-warning',
  acknowledged: 'text-bg-success',
  rejected: 'text-bg-danger',
  cancelled: 'text-bg-secondary',
  issued: 'text-bg-info',
  redeemed: 'text-bg-success',
};

/** The origin of a command: a specification §4 action origin, or the portal. */
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
        <span className="fw-semibold">{actionLabel(entry.action)}</span>
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

function HistoryPage({ deviceId, page }: { deviceId: number; page: number }) {
  const { data } = useDeviceHistoryQuery({ id: deviceId, page, perPage: HISTORY_DEFAULT_PER_PAGE });
  return (
    <>
      {data?.data.map((entry) => (
        <HistoryEntry key={entry.id} entry={entry} />
      ))}
    </>
  );
}

/**
 * The history timeline of a device, newest first, a page at a time ('Ver más'). While `live`
 * (a command in flight) the first page refreshes every second, and once more when it ends.
 */
function HistoryTimeline({ deviceId, live }: { deviceId: number; live: boolean }) {
  const [pages, setPages] = useState(1);
  const last = useDeviceHistoryQuery({ id: deviceId, page: pages, perPage: HISTORY_DEFAULT_PER_PAGE });
  const first = useDeviceHistoryQuery(
    { id: deviceId, page: 1, perPage: HISTORY_DEFAULT_PER_PAGE },
    { pollingInterval: live ? LIVE_POLL_MS : 0, skipPollingIfUnfocused: false },
  );
  // The device answered (or the window passed) between two polls: the last answer is fetched once.
  const { refetch } = first;
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void refetch();
    wasLive.current = live;
  }, [live, refetch]);
  if (first.isLoading)
    return (
      <div role="status" className="py-3 text-center">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        <span className="visually-hidden">{INVENTORY_LABELS.common.loading}</span>
      </div>
    );
  if (first.isError && !first.data) return <LoadError onRetry={() => void first.refetch()} />;
  const total = last.data?.total ?? first.data?.total ?? 0;
  if (total === 0) return <p className="mb-0">{L.empty}</p>;
  const hasMore = pages * HISTORY_DEFAULT_PER_PAGE < total;
  return (
    <>
      <ol className="list-unstyled mb-2" aria-label={L.title}>
        {Array.from({ length: pages }, (_, i) => (
          <HistoryPage key={i + 1} deviceId={deviceId} page={i + 1} />
        ))}
      </ol>
      {(hasMore || last.isFetching) && (
        <LoadingButton variant="outline-primary" size="sm" loading={last.isFetching} onClick={() => setPages((p) => p + 1)}>
          {L.more}
        </LoadingButton>
      )}
    </>
  );
}

/** The history section: the timeline, or why it is not shown (the profile lacks HISTORY). `live`: a command is in flight. */
export function DeviceHistory({ deviceId, granted, live = false }: { deviceId: number; granted: ReadonlySet<number>; live?: boolean }) {
  return (
    <section aria-labelledby={`device-history-${deviceId}`}>
      <h3 className="h6" id={`device-history-${deviceId}`}>
        {L.title}
      </h3>
      {granted.has(DEVICE_ACTION.HISTORY) ? (
        <HistoryTimeline key={deviceId} deviceId={deviceId} live={live} />
      ) : (
        <Alert variant="secondary" className="mb-0">
          {INVENTORY_MESSAGES.actions.notGranted(actionLabel(DEVICE_ACTION.HISTORY))}
        </Alert>
      )}
    </section>
  );
}
