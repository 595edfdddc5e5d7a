import { formatDateTime } from './formatDate';
import { relativeTime } from './relativeTime';

/**
 * A moment as 'hace 3 horas', its date and time in the tooltip; the date and time alone until
 * the page knows the time (`now` null while hydrating). `notAhead`: a clock slightly ahead (a
 * device's, or ours) never reads as 'dentro de…'.
 */
export function TimeAgo({ at, now, className, notAhead = false }: { at: string; now: number | null; className?: string; notAhead?: boolean }) {
  const absolute = formatDateTime(at);
  return (
    <time dateTime={at} title={absolute} className={className}>
      {now === null ? absolute : relativeTime(at, notAhead ? Math.max(now, Date.parse(at)) : now)}
    </time>
  );
}
