import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { DASHBOARD_LABELS, formatCount } from '../../../shared/constants/dashboardLabels';
import { DEVICE_TYPE, deviceTypeLabel, type DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import { DASHBOARD_TOP_MODELS } from '../../../shared/constants/dashboard';
import type { AgentVersions, AndroidDashboard, DistributionRow } from '../../../shared/contracts/dashboard';
import { canAccess } from '../../../shared/permissions';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { FLEET_COLOR, TYPE_COLORS, barsHeight } from './chartColors';
import { useAndroidDashboardQuery } from './dashboardApi';
import { devicesHref, type DeviceListFilter } from './dashboardLinks';
import { ChartPanel, DashboardBody, DashboardHeader, EmptyFleet, countCell, orNoData, useAutoRefresh, type ChartTableRow } from './dashboardShared';

const L = DASHBOARD_LABELS.android;
const C = DASHBOARD_LABELS.common;
const TYPES = [DEVICE_TYPE.SMARTPHONE, DEVICE_TYPE.TV] as const;

/** A labelled distribution: each row's smartphones and TVs. */
interface Split {
  key: string;
  label: string;
  smartphones: number;
  tvs: number;
}

/** A chart of smartphones and TVs stacked per value (OS versions, models, brands), with its table. */
function SplitPanel({
  title,
  testId,
  labelHeader,
  rows,
  horizontal,
}: {
  title: string;
  testId: string;
  labelHeader: string;
  rows: readonly Split[];
  horizontal: boolean;
}) {
  const tableRows: ChartTableRow[] = rows.map((r) => ({
    key: r.key,
    label: r.label,
    values: [countCell(r.smartphones), countCell(r.tvs), countCell(r.smartphones + r.tvs)],
  }));
  return (
    <ChartPanel
      title={title}
      testId={testId}
      empty={rows.length === 0}
      chart={{
        kind: 'bar',
        stacked: true,
        horizontal,
        height: horizontal ? barsHeight(rows.length) : 300,
        labels: rows.map((r) => r.label),
        series: [
          { label: C.smartphones, data: rows.map((r) => r.smartphones), color: TYPE_COLORS[DEVICE_TYPE.SMARTPHONE] },
          { label: C.tvs, data: rows.map((r) => r.tvs), color: TYPE_COLORS[DEVICE_TYPE.TV] },
        ],
      }}
      summaryItems={rows.map((r) => ({ label: r.label, value: r.smartphones + r.tvs }))}
      table={{ labelHeader, valueHeaders: [C.smartphones, C.tvs, C.total], rows: tableRows }}
    />
  );
}

const split = (rows: readonly DistributionRow[]): Split[] =>
  rows.map((r) => ({ key: r.value ?? '\u0000none', label: orNoData(r.value), smartphones: r.smartphones, tvs: r.tvs }));

/** A count that opens the devices it counts (plain when there is no filter for it or the page is not granted). */
function CountLink({ count, filter, canOpen, label }: { count: number; filter: DeviceListFilter | null; canOpen: boolean; label?: string }) {
  const text = formatCount(count);
  return filter && canOpen ? (
    <Link to={devicesHref(filter)} aria-label={label}>
      {text}
    </Link>
  ) : (
    <>{text}</>
  );
}

type VersionRow = AgentVersions['rows'][number];

/** The agent versions of one device type: current, outdated and unknown counts, then every version reported. */
function AgentVersionsPanel({ deviceType, versions, canOpen }: { deviceType: DeviceTypeCode; versions: AgentVersions; canOpen: boolean }) {
  const title = L.agentVersions(deviceTypeLabel(deviceType));
  const { current } = versions;
  const summary: { label: string; count: number; filter: DeviceListFilter | null; testId: string }[] = [
    { label: L.onCurrent, count: versions.currentCount, filter: current === null ? null : { deviceType, agentVersion: current }, testId: 'current' },
    {
      label: L.outdated,
      count: versions.outdatedCount,
      filter: current === null ? null : { deviceType, agentVersionNot: current },
      testId: 'outdated',
    },
    { label: L.unknown, count: versions.unknownCount, filter: null, testId: 'unknown' },
  ];
  const columns: DataTableColumn<VersionRow>[] = [
    {
      id: 'version',
      header: L.version,
      cell: (r): ReactNode => (
        <>
          {r.value !== null && canOpen ? (
            <Link to={devicesHref({ deviceType, agentVersion: r.value })} aria-label={L.versionLink(r.value)}>
              {r.value}
            </Link>
          ) : (
            orNoData(r.value)
          )}
          {r.current && <span className="ms-1 text-body-secondary">{L.currentMark}</span>}
        </>
      ),
    },
    { id: 'count', header: C.count, cell: (r) => countCell(r.count), className: 'text-end text-nowrap' },
  ];
  const testId = `agent-versions-${deviceType}`;
  return (
    <div className="col-12 col-xl-6">
      <section className="card h-100" data-testid={testId} aria-labelledby={`${testId}-title`}>
        <div className="card-header bg-body">
          <h2 className="h6 mb-0" id={`${testId}-title`}>
            {title}
          </h2>
        </div>
        <div className="card-body">
          <p className="mb-2">
            <span className="text-body-secondary">{L.current}: </span>
            <span className="fw-semibold" data-testid={`${testId}-current-version`}>
              {current ?? L.noCurrent}
            </span>
          </p>
          <dl className="row g-2 mb-3">
            {summary.map((s) => (
              <div key={s.testId} className="col-12 col-sm-4">
                <dt className="small text-body-secondary fw-normal">{s.label}</dt>
                <dd className="fs-5 fw-semibold mb-0" data-testid={`${testId}-${s.testId}`}>
                  <CountLink count={s.count} filter={s.filter} canOpen={canOpen} label={`${s.label}: ${formatCount(s.count)}`} />
                </dd>
              </div>
            ))}
          </dl>
          <DataTable
            columns={columns}
            rows={versions.rows}
            getRowId={(r) => r.value ?? '\u0000none'}
            caption={title}
            loading={false}
            size="sm"
            empty={<p className="mb-0 text-body-secondary">{C.noChartData}</p>}
          />
        </div>
      </section>
    </div>
  );
}

function Panels({ data, canOpen }: { data: AndroidDashboard; canOpen: boolean }) {
  const models: Split[] = data.models.map((m) => ({
    key: `${m.brand ?? ''}\u0000${m.value ?? ''}`,
    label: m.brand === null ? orNoData(m.value) : `${m.brand} ${orNoData(m.value)}`,
    smartphones: m.smartphones,
    tvs: m.tvs,
  }));
  const others = data.otherModels;
  if (others.smartphones + others.tvs > 0) models.push({ key: '\u0000others', label: C.others, ...others });
  const carriers = data.carriers.map((c) => ({ key: c.value ?? '\u0000none', label: orNoData(c.value), count: c.count }));
  return (
    <div className="row g-3">
      <SplitPanel title={L.osVersions} testId="chart-os-versions" labelHeader={L.osVersion} rows={split(data.osVersions)} horizontal={false} />
      <SplitPanel title={L.models(DASHBOARD_TOP_MODELS)} testId="chart-models" labelHeader={L.model} rows={models} horizontal />
      {TYPES.map((t) => (
        <AgentVersionsPanel key={t} deviceType={t} versions={data.agentVersions[t === DEVICE_TYPE.TV ? 'tv' : 'smartphone']} canOpen={canOpen} />
      ))}
      <ChartPanel
        title={L.carriers}
        testId="chart-carriers"
        empty={carriers.length === 0}
        chart={{
          kind: 'bar',
          horizontal: true,
          height: barsHeight(carriers.length),
          labels: carriers.map((c) => c.label),
          series: [{ label: C.count, data: carriers.map((c) => c.count), color: FLEET_COLOR }],
        }}
        summaryItems={carriers.map((c) => ({ label: c.label, value: c.count }))}
        table={{
          labelHeader: L.carrier,
          valueHeaders: [C.count],
          rows: carriers.map((c) => ({ key: c.key, label: c.label, values: [countCell(c.count)] })),
        }}
      />
      <SplitPanel title={L.brands} testId="chart-brands" labelHeader={L.brand} rows={split(data.brands)} horizontal />
    </div>
  );
}

/** Devices past pre-enrolment: each reports one OS version (or none, counted under null). */
const fleetSize = (data: AndroidDashboard) => data.osVersions.reduce((s, r) => s + r.smartphones + r.tvs, 0);

/**
 * The Android dashboard (/dashboard/android): OS versions, models, agent versions (current,
 * outdated, unknown; each a link to those devices), SIM carriers, smartphones and TVs per brand.
 * Refreshed every minute unless paused.
 */
export default function AndroidDashboardPage({ title }: PageProps) {
  const { allowed } = useCurrentUser();
  const refresh = useAutoRefresh();
  const query = useAndroidDashboardQuery(undefined, { pollingInterval: refresh.pollingInterval });
  const canOpen = canAccess(allowed, PATHS.devices);
  return (
    <section>
      <DashboardHeader title={title} generatedAt={query.data?.generatedAt} paused={refresh.paused} onToggle={refresh.toggle} />
      <DashboardBody query={query}>{(data) => (fleetSize(data) === 0 ? <EmptyFleet /> : <Panels data={data} canOpen={canOpen} />)}</DashboardBody>
    </section>
  );
}
