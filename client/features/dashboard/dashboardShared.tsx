import { Suspense, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router-dom';
import { DASHBOARD_LABELS, formatCount } from '../../../shared/constants/dashboardLabels';
import { PATHS } from '../../../shared/constants/routes';
import { DASHBOARD_REFRESH_MS } from '../../../shared/constants/dashboard';
import { canAccess } from '../../../shared/permissions';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDate, formatDateTime } from '../../components/formatDate';
import { LoadError } from '../../components/LoadError';
import { DASHBOARD_CHART } from './chartChunk';
import type { DashboardChartProps } from './DashboardChart';

const C = DASHBOARD_LABELS.common;

/** The automatic refresh of a dashboard: on by default, paused and resumed by the user. */
export function useAutoRefresh() {
  const [paused, setPaused] = useState(false);
  return { paused, toggle: () => setPaused((p) => !p), pollingInterval: paused ? 0 : DASHBOARD_REFRESH_MS };
}

/** A day of the daily charts ('YYYY-MM-DD' in the server's counting zone) as the portal writes dates. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  // Local midnight of that calendar day: formatDate (local zone) writes the same day back.
  return formatDate(new Date(y!, m! - 1, d!));
}

/** The dashboard's value for a fact no device reported. */
export const orNoData = (value: string | null): string => value ?? C.noData;

interface DashboardHeaderProps {
  title: string;
  /** When the numbers shown were computed; absent before the first answer. */
  generatedAt: string | undefined;
  paused: boolean;
  onToggle: () => void;
}

/** The page title, the time of the numbers shown and the pause/resume button of the automatic refresh. */
export function DashboardHeader({ title, generatedAt, paused, onToggle }: DashboardHeaderProps) {
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 className="h3 mb-0">{title}</h1>
      <div className="d-flex flex-wrap align-items-center gap-2">
        {generatedAt && (
          <span className="text-body-secondary small" data-testid="dashboard-updated">
            {C.updatedAt(formatDateTime(generatedAt, { seconds: true }))}
          </span>
        )}
        {paused && <span className="badge text-bg-secondary">{C.paused}</span>}
        <Button variant="outline-dark" size="sm" onClick={onToggle} data-testid="dashboard-refresh-toggle">
          <i className={`bi ${paused ? 'bi-play-fill' : 'bi-pause-fill'} me-1`} aria-hidden="true" />
          {paused ? C.resume : C.pause}
        </Button>
      </div>
    </div>
  );
}

/** The query state of a dashboard: spinner, error with retry, or the page (with a notice when a refresh failed). */
export function DashboardBody<T>({
  query,
  children,
}: {
  query: { data?: T; isLoading: boolean; isError: boolean; refetch: () => unknown };
  children: (data: T) => ReactNode;
}) {
  if (query.data === undefined) {
    if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
    return (
      <div className="d-flex justify-content-center align-items-center py-5" role="status">
        <Spinner animation="border" variant="primary" aria-hidden="true" />
        <span className="visually-hidden">{C.loading}</span>
      </div>
    );
  }
  return (
    <>
      {query.isError && <LoadError message={C.refreshFailed} onRetry={() => void query.refetch()} />}
      {children(query.data)}
    </>
  );
}

/** No device registered yet: says so and points to the registration page when the profile grants it. */
export function EmptyFleet() {
  const { allowed } = useCurrentUser();
  return (
    <div className="card" data-testid="dashboard-empty">
      <div className="card-body text-center py-5">
        <i className="bi bi-phone fs-1 text-body-secondary" aria-hidden="true" />
        <h2 className="h5 mt-3">{C.emptyTitle}</h2>
        <p className="text-body-secondary">{C.emptyText}</p>
        {canAccess(allowed, PATHS.addDevice) && (
          <Link to={PATHS.addDevice} className="btn btn-primary">
            <i className="bi bi-plus-lg me-2" aria-hidden="true" />
            {C.addDevice}
          </Link>
        )}
      </div>
    </div>
  );
}

interface KpiCardProps {
  label: string;
  /** A count, or a text already written (amounts, a percentage). */
  value: number | string;
  /** The devices page with the card's filter; no link when the profile does not grant that page. */
  href: string | null;
  /** A line under the number. */
  secondary?: ReactNode;
  icon: string;
  testId: string;
}

/** One indicator: its label and number, a link to the devices it counts, an optional second line. */
export function KpiCard({ label, value, href, secondary, icon, testId }: KpiCardProps) {
  const body = (
    <>
      <div className="d-flex align-items-center justify-content-between text-body-secondary">
        <span className="fw-semibold">{label}</span>
        <i className={`bi bi-${icon} fs-5`} aria-hidden="true" />
      </div>
      <div className="fs-3 fw-bold text-body" data-testid={`${testId}-value`}>
        {typeof value === 'number' ? formatCount(value) : value}
      </div>
    </>
  );
  return (
    <div className="col-12 col-sm-6 col-lg-4 col-xxl-3">
      <div className="card h-100" data-testid={testId}>
        <div className="card-body">
          {href ? (
            <Link to={href} className="d-block text-decoration-none">
              {body}
            </Link>
          ) : (
            body
          )}
          {secondary && <div className="small text-body-secondary mt-1">{secondary}</div>}
        </div>
      </div>
    </div>
  );
}

/** The size of a chart while its code loads: nothing moves when it arrives. */
function ChartPlaceholder({ height }: { height: number }) {
  return (
    <div className="d-flex justify-content-center align-items-center" style={{ height }} role="status">
      <Spinner animation="border" variant="secondary" aria-hidden="true" />
      <span className="visually-hidden">{C.chartLoading}</span>
    </div>
  );
}

/** A row of a chart's table: its label and its numbers, one per column. */
export interface ChartTableRow {
  key: string;
  label: ReactNode;
  values: readonly ReactNode[];
}

interface ChartPanelProps {
  title: string;
  testId: string;
  chart: Omit<DashboardChartProps, 'summary'>;
  /** The values the summary names: label and value of each category. */
  summaryItems: readonly { label: string; value: number }[];
  /** The table that shows the same numbers: its first header, its number columns and rows. */
  table: { labelHeader: string; valueHeaders: readonly string[]; rows: readonly ChartTableRow[] };
  /** Shown instead of the chart when every value is 0 or there are no rows. */
  empty?: boolean;
  /** Under the chart or the table (a note, links). */
  footer?: ReactNode;
  className?: string;
}

/**
 * A chart in a card, with its text alternatives: the canvas is an image whose name sums up the
 * values, and 'Ver como tabla' shows the same numbers as a table ('Ver como gráfica' goes back).
 */
export function ChartPanel({ title, testId, chart, summaryItems, table, empty = false, footer, className = 'col-12 col-xl-6' }: ChartPanelProps) {
  const [asTable, setAsTable] = useState(false);
  const columns: DataTableColumn<ChartTableRow>[] = [
    { id: 'label', header: table.labelHeader, cell: (r) => r.label },
    ...table.valueHeaders.map((header, i) => ({ id: `v${i}`, header, cell: (r: ChartTableRow) => r.values[i], className: 'text-end text-nowrap' })),
  ];
  return (
    <div className={className}>
      <section className="card h-100" data-testid={testId} aria-label={title}>
        <div className="card-header d-flex flex-wrap align-items-center justify-content-between gap-2 bg-body">
          <h2 className="h6 mb-0">{title}</h2>
          {!empty && (
            <ButtonGroup size="sm" aria-label={C.viewOf(title)}>
              <Button variant={asTable ? 'outline-secondary' : 'secondary'} aria-pressed={!asTable} onClick={() => setAsTable(false)}>
                <i className="bi bi-bar-chart me-1" aria-hidden="true" />
                {C.showChart}
              </Button>
              <Button variant={asTable ? 'secondary' : 'outline-secondary'} aria-pressed={asTable} onClick={() => setAsTable(true)}>
                <i className="bi bi-table me-1" aria-hidden="true" />
                {C.showTable}
              </Button>
            </ButtonGroup>
          )}
        </div>
        <div className="card-body">
          {empty ? (
            <p className="text-body-secondary text-center mb-0 py-4">{C.noChartData}</p>
          ) : asTable ? (
            <DataTable
              columns={columns}
              rows={table.rows}
              getRowId={(r) => r.key}
              caption={title}
              loading={false}
              size="sm"
              testId={`${testId}-table`}
            />
          ) : (
            <Suspense fallback={<ChartPlaceholder height={chart.height} />}>
              <DASHBOARD_CHART.Component {...chart} summary={C.summary(title, summaryItems)} />
            </Suspense>
          )}
          {footer}
        </div>
      </section>
    </div>
  );
}

/** A count cell of a chart's table. */
export const countCell = (n: number): string => formatCount(n);
