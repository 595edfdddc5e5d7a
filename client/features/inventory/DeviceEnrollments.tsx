import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { DEVICE_DETAIL_LABELS } from '../../../shared/constants/deviceDetailLabels';
import type { EnrollmentAttempt } from '../../../shared/contracts/enrollment';
import { displayValue } from '../../components/EmptyValue';
import { formatDateTime } from '../../components/formatDate';
import { useDeviceEnrollmentsQuery } from './inventoryApi';
import { PagedTimeline } from './PagedTimeline';

const L = DEVICE_DETAIL_LABELS.enrollments;
const PER_PAGE = 10;

const KIND_CLASS: Record<EnrollmentAttempt['kind'], string> = {
  enrolled: 'text-bg-success',
  refused: 'text-bg-danger',
  authorized: 'text-bg-info',
};

function AttemptEntry({ attempt }: { attempt: EnrollmentAttempt }) {
  return (
    <li className="border-start border-2 ps-3 pb-3" data-testid="enrollment-attempt">
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-1">
        <span className="fw-semibold">
          <time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
        </span>
        <span className={`badge ${KIND_CLASS[attempt.kind]}`}>
          {attempt.kind === 'enrolled' && attempt.reenrolled ? L.reenrolled : L.kinds[attempt.kind]}
        </span>
      </div>
      <dl className="row small mb-0">
        {attempt.kind === 'refused' && (
          <>
            <dt className="col-5">{L.reason}</dt>
            <dd className="col-7 mb-1 text-break">{displayValue(attempt.message)}</dd>
            <dt className="col-5">{L.code}</dt>
            <dd className="col-7 mb-1 font-monospace text-break">{displayValue(attempt.code)}</dd>
          </>
        )}
        {attempt.token && (
          <>
            <dt className="col-5">{L.token}</dt>
            <dd className="col-7 mb-1">{L.tokens[attempt.token]}</dd>
          </>
        )}
        {attempt.expiresAt && (
          <>
            <dt className="col-5">{L.expiresAt}</dt>
            <dd className="col-7 mb-1">{formatDateTime(attempt.expiresAt)}</dd>
          </>
        )}
        <dt className="col-5">{L.by}</dt>
        <dd className="col-7 mb-1 text-break">{displayValue(attempt.by)}</dd>
        <dt className="col-5">{L.ip}</dt>
        <dd className="col-7 mb-1">{displayValue(attempt.ip)}</dd>
      </dl>
    </li>
  );
}

const attemptEntry = (a: EnrollmentAttempt) => <AttemptEntry key={a.id} attempt={a} />;

/**
 * A device's enrollments, newest first: each enrollment, each refused attempt (with its reason and
 * code, e.g. a group's QR code presented for an enrolled device) and each re-enrollment
 * authorisation. Part of the history: shown when the profile grants HISTORY.
 */
export function DeviceEnrollments({ deviceId, granted }: { deviceId: number; granted: ReadonlySet<number> }) {
  if (!granted.has(DEVICE_ACTION.HISTORY)) return null;
  return (
    <section className="mb-4" aria-labelledby={`device-enrollments-${deviceId}`}>
      <h3 className="h6" id={`device-enrollments-${deviceId}`}>
        {L.title}
      </h3>
      <PagedTimeline
        key={deviceId}
        deviceId={deviceId}
        useQuery={useDeviceEnrollmentsQuery}
        perPage={PER_PAGE}
        label={L.title}
        empty={L.empty}
        more={L.more}
        entry={attemptEntry}
      />
    </section>
  );
}
