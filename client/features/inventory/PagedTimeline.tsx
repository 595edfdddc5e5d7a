import { useEffect, useRef, useState, type ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { LoadError } from '../../components/LoadError';
import { LoadingButton } from '../../components/LoadingButton';
import { LIVE_POLL_MS } from './inFlight';

/** A page of a device's timeline as an RTK Query hook answers it. */
export type TimelinePageQuery<T> = (
  args: { id: number; page: number; perPage: number },
  options?: { pollingInterval?: number; skipPollingIfUnfocused?: boolean },
) => {
  data?: { data: T[]; total: number };
  isLoading: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

interface TimelineProps<T> {
  deviceId: number;
  useQuery: TimelinePageQuery<T>;
  perPage: number;
  /** The list's accessible name. */
  label: string;
  empty: string;
  more: string;
  entry: (item: T) => ReactNode;
  /** While true the first page refreshes every second, and once more when it ends (a command in flight). */
  live?: boolean;
}

function TimelinePage<T>({
  deviceId,
  useQuery,
  perPage,
  page,
  entry,
}: Pick<TimelineProps<T>, 'deviceId' | 'useQuery' | 'perPage' | 'entry'> & { page: number }) {
  const { data } = useQuery({ id: deviceId, page, perPage });
  return <>{data?.data.map(entry)}</>;
}

/** A device's timeline, newest first, a page at a time ('Ver más'): its history, its enrollments. */
export function PagedTimeline<T>({ deviceId, useQuery, perPage, label, empty, more, entry, live = false }: TimelineProps<T>) {
  const [pages, setPages] = useState(1);
  const last = useQuery({ id: deviceId, page: pages, perPage });
  const first = useQuery({ id: deviceId, page: 1, perPage }, { pollingInterval: live ? LIVE_POLL_MS : 0, skipPollingIfUnfocused: false });
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
  if (total === 0) return <p className="mb-0">{empty}</p>;
  const hasMore = pages * perPage < total;
  return (
    <>
      <ol className="list-unstyled mb-2" aria-label={label}>
        {Array.from({ length: pages }, (_, i) => (
          <TimelinePage key={i + 1} deviceId={deviceId} useQuery={useQuery} perPage={perPage} page={i + 1} entry={entry} />
        ))}
      </ol>
      {(hasMore || last.isFetching) && (
        <LoadingButton variant="outline-primary" size="sm" loading={last.isFetching} onClick={() => setPages((p) => p + 1)}>
          {more}
        </LoadingButton>
      )}
    </>
  );
}
