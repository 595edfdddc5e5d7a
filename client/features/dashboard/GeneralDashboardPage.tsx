import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CREDIT_LABELS, OVERDUE_BUCKETS } from '../../../shared/constants/creditLabels';
import { DASHBOARD_LABELS, formatCount, formatPercent } from '../../../shared/constants/dashboardLabels';
import { DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { deviceTypeLabel } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import {
  DASHBOARD_CREDIT_LOCK_DAYS,
  DASHBOARD_DAYS,
  DASHBOARD_STUCK_AFTER_HOURS,
  DASHBOARD_TOP_GROUPS,
  DASHBOARD_UNLOCK_WITHIN_DAYS,
} from '../../../shared/constants/dashboard';
import type { DashboardCredits, DashboardStuckCommand, GeneralDashboard } from '../../../shared/contracts/dashboard';
import { actionLabel } from '../../../shared/deviceActionRules';
import { canAccess } from '../../../shared/permissions';
import { browserTimeZone } from '../../api/downloadFile';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { money } from '../../components/CreditStanding';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatCalendarDate, formatDateTime } from '../../components/formatDate';
import { relativeTime } from '../../components/relativeTime';
import { statusColor, statusLabel } from '../../components/statusBadge';
import { useNow } from '../../components/useNow';
import { CARD_FILTERS, deviceDetailHref, devicesHref, policyAuditHref, portfolioHref, type DeviceListFilter } from './dashboardLinks';
import { useGeneralDashboardQuery } from './dashboardApi';
import {
  ChartPanel,
  DashboardBody,
  DashboardHeader,
  EmptyFleet,
  KpiCard,
  countCell,
  formatDay,
  useAutoRefresh,
  type ChartTableRow,
} from './dashboardShared';
import { ACTION_COLORS, BUCKET_COLORS, FLEET_COLOR, TYPE_COLORS, barsHeight } from './chartColors';

const L = DASHBOARD_LABELS.general;
const C = DASHBOARD_LABELS.common;
const S = L.stuck;
const K = L.credits;
const CHART_HEIGHT = 300;

/** A row label that opens the devices page filtered to it (plain text when the page is not granted). */
function FilterLink({ filter, canOpen, children }: { filter: DeviceListFilter; canOpen: boolean; children: ReactNode }) {
  return canOpen ? <Link to={devicesHref(filter)}>{children}</Link> : <>{children}</>;
}

function Cards({ data, canOpenDevices, canOpenPreEnrolled }: { data: GeneralDashboard; canOpenDevices: boolean; canOpenPreEnrolled: boolean }) {
  const t = data.totals;
  const href = (filter: DeviceListFilter) => (canOpenDevices ? devicesHref(filter) : null);
  return (
    <div className="row g-3 mb-3" data-testid="kpi-cards">
      <KpiCard
        testId="kpi-devices"
        icon="phone"
        label={L.devices}
        value={t.devices}
        href={href(CARD_FILTERS.devices)}
        secondary={canOpenPreEnrolled ? <Link to={PATHS.preEnrolled}>{L.preEnrolled(t.preEnrolled)}</Link> : L.preEnrolled(t.preEnrolled)}
      />
      <KpiCard testId="kpi-smartphones" icon="phone-vibrate" label={L.smartphones} value={t.smartphones} href={href(CARD_FILTERS.smartphones)} />
      <KpiCard testId="kpi-tvs" icon="tv" label={L.tvs} value={t.tvs} href={href(CARD_FILTERS.tvs)} />
      <KpiCard testId="kpi-locked" icon="lock" label={L.locked} value={t.locked} href={href(CARD_FILTERS.locked)} secondary={L.lockedHelp} />
      <KpiCard
        testId="kpi-offline"
        icon="wifi-off"
        label={L.offline}
        value={t.offline}
        href={href(CARD_FILTERS.offline)}
        secondary={L.offlineHelp(data.offlineAfterHours)}
      />
      <KpiCard
        testId="kpi-in-flight"
        icon="send"
        label={L.inFlight}
        value={t.inFlight}
        href={href(CARD_FILTERS.inFlight)}
        secondary={L.pendingCommands(t.pendingCommands)}
      />
      <KpiCard
        testId="kpi-released"
        icon="unlock"
        label={L.releasedThisMonth}
        value={t.releasedThisMonth}
        href={href({ ...CARD_FILTERS.released, releasedFrom: data.monthStart })}
        secondary={canOpenDevices ? <Link to={devicesHref(CARD_FILTERS.released)}>{L.releasedTotal(t.released)}</Link> : L.releasedTotal(t.released)}
      />
    </div>
  );
}

/** Amounts per currency on one line ('1,250.00 MXN · 80.00 USD'). */
const amountsText = (amounts: DashboardCredits['amountOverdue']) => amounts.map((a) => money(a.amount, a.currency)).join(' · ');

/**
 * The collection's figures on the company's date: each count opens the portfolio filtered the
 * same way (its total is the number), the policy's locks and unlocks open the audit log of its
 * device actions; payments today open the credits paid today (a credit paid twice counts once there).
 */
function CreditFigures({ credits, canOpenAudit }: { credits: DashboardCredits; canOpenAudit: boolean }) {
  const c = credits;
  const buckets = OVERDUE_BUCKETS.map((b) => ({ bucket: b, label: CREDIT_LABELS.overdueBuckets[b], count: c.overdueBuckets[b] }));
  const bucketRows: ChartTableRow[] = buckets.map((b) => ({
    key: b.bucket,
    label: <Link to={portfolioHref({ overdue: b.bucket })}>{b.label}</Link>,
    values: [countCell(b.count)],
  }));
  const lock = c.unlockedAfterLock;
  return (
    <section className="mb-3" aria-labelledby="dashboard-credits-title" data-testid="dashboard-credits">
      <div className="d-flex flex-wrap align-items-baseline gap-2 mb-2">
        <h2 className="h5 mb-0" id="dashboard-credits-title">
          {K.title}
        </h2>
        <span className="small text-body-secondary">{K.today(formatCalendarDate(c.today))}</span>
      </div>
      <div className="row g-3 mb-3">
        <KpiCard
          testId="kpi-credits-overdue"
          icon="exclamation-triangle"
          label={K.overdue}
          value={c.overdue}
          href={portfolioHref({ state: 'overdue' })}
        />
        <KpiCard
          testId="kpi-credits-amount-overdue"
          icon="cash-coin"
          label={K.amountOverdue}
          value={c.amountOverdue.length ? amountsText(c.amountOverdue) : K.noAmount}
          href={portfolioHref({ state: 'overdue' })}
          secondary={K.amountOverdueHelp}
        />
        <KpiCard
          testId="kpi-credits-payments-today"
          icon="receipt"
          label={K.paymentsToday}
          value={c.paymentsToday.count}
          href={portfolioHref({ paidToday: 'true' })}
          secondary={c.paymentsToday.amounts.length ? amountsText(c.paymentsToday.amounts) : undefined}
        />
        <KpiCard
          testId="kpi-credits-auto-locks"
          icon="lock"
          label={K.automaticLocks}
          value={c.automaticLocksToday}
          href={canOpenAudit ? policyAuditHref('lock', c.today) : null}
          secondary={K.automaticHelp}
        />
        <KpiCard
          testId="kpi-credits-auto-unlocks"
          icon="unlock"
          label={K.automaticUnlocks}
          value={c.automaticUnlocksToday}
          href={canOpenAudit ? policyAuditHref('unlock', c.today) : null}
          secondary={K.automaticHelp}
        />
        <KpiCard
          testId="kpi-credits-unlocked-after-lock"
          icon="arrow-repeat"
          label={K.unlockedAfterLock(DASHBOARD_UNLOCK_WITHIN_DAYS)}
          value={lock.locked === 0 ? K.noLocks : formatPercent(lock.unlocked, lock.locked)}
          href={null}
          secondary={
            <>
              {lock.locked > 0 && <span className="d-block">{K.unlockedOf(lock.unlocked, lock.locked)}</span>}
              {K.unlockedAfterLockHelp(DASHBOARD_CREDIT_LOCK_DAYS, DASHBOARD_UNLOCK_WITHIN_DAYS)}
            </>
          }
        />
      </div>
      <div className="row g-3">
        <ChartPanel
          title={K.buckets}
          testId="chart-overdue-buckets"
          empty={c.overdue === 0}
          chart={{
            kind: 'bar',
            height: CHART_HEIGHT,
            labels: buckets.map((b) => b.label),
            series: [{ label: K.credits, data: buckets.map((b) => b.count), color: BUCKET_COLORS }],
          }}
          summaryItems={buckets.map((b) => ({ label: b.label, value: b.count }))}
          table={{ labelHeader: K.bucket, valueHeaders: [K.credits], rows: bucketRows }}
          footer={
            c.overdue > 0 && (
              <p className="small mt-2 mb-0">
                {buckets.map((b, i) => (
                  <span key={b.bucket}>
                    {i > 0 && ' · '}
                    <Link to={portfolioHref({ overdue: b.bucket })} data-testid={`overdue-bucket-${b.bucket}`}>
                      {`${b.label}: ${formatCount(b.count)}`}
                    </Link>
                  </span>
                ))}
              </p>
            )
          }
        />
      </div>
    </section>
  );
}

function StuckCommands({ stuck, canOpenDevices }: { stuck: GeneralDashboard['stuckCommands']; canOpenDevices: boolean }) {
  const now = useNow();
  const columns: DataTableColumn<DashboardStuckCommand>[] = [
    {
      id: 'imei',
      header: S.device,
      cell: (r) =>
        canOpenDevices ? (
          <Link to={deviceDetailHref(r.deviceId)} aria-label={S.deviceLink(r.imei)}>
            <span className="font-monospace">{r.imei}</span>
          </Link>
        ) : (
          <span className="font-monospace">{r.imei}</span>
        ),
    },
    { id: 'command', header: S.command, cell: (r) => `${actionLabel(r.action)} (${deviceTypeLabel(r.deviceType)})` },
    {
      id: 'requested',
      header: S.requested,
      cell: (r) => (
        <>
          {now !== null && <div>{relativeTime(r.requestedAt, now)}</div>}
          <div className={now !== null ? 'small text-body-secondary' : undefined}>{formatDateTime(r.requestedAt)}</div>
        </>
      ),
      className: 'text-nowrap',
    },
    { id: 'delivered', header: S.delivered, cell: (r) => (r.deliveredAt ? formatDateTime(r.deliveredAt) : S.notDelivered), className: 'text-nowrap' },
    { id: 'lastSeen', header: S.lastSeen, cell: (r) => (r.lastSeenAt ? formatDateTime(r.lastSeenAt) : S.neverSeen), className: 'text-nowrap' },
  ];
  return (
    <section className="card" data-testid="stuck-commands" aria-labelledby="stuck-commands-title">
      <div className="card-header bg-body">
        <h2 className="h6 mb-0" id="stuck-commands-title">
          {S.title(DASHBOARD_STUCK_AFTER_HOURS)}
          <span className="badge text-bg-secondary ms-2" data-testid="stuck-commands-total">
            {formatCount(stuck.total)}
          </span>
        </h2>
      </div>
      <div className="card-body">
        <DataTable
          columns={columns}
          rows={stuck.rows}
          getRowId={(r) => r.commandId}
          caption={S.caption}
          loading={false}
          size="sm"
          empty={<p className="mb-0 text-body-secondary">{S.empty}</p>}
          emptyTestId="stuck-commands-empty"
        />
        {stuck.total > stuck.rows.length && (
          <p className="small text-body-secondary mt-2 mb-0" data-testid="stuck-commands-more">
            {S.shownOf(stuck.rows.length, stuck.total)}
          </p>
        )}
      </div>
    </section>
  );
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function Charts({ data, canOpenDevices }: { data: GeneralDashboard; canOpenDevices: boolean }) {
  const days = data.days.map(formatDay);

  // Nineteen statuses read as bars, largest first, each in its badge's colour (a doughnut's
  // slices of one family could not be told apart); the table lists them in the same order.
  const byStatus = [...data.byStatus].sort((a, b) => b.count - a.count || a.status - b.status);
  const statusLabels = byStatus.map((s) => statusLabel(s.status));
  const statusRows: ChartTableRow[] = byStatus.map((s, i) => ({
    key: String(s.status),
    label: (
      <FilterLink filter={{ status: s.status }} canOpen={canOpenDevices}>
        {statusLabels[i]}
      </FilterLink>
    ),
    values: [countCell(s.count)],
  }));

  const actions = data.commandsPerDay.map((s) => ({ ...s, label: actionLabel(s.action) }));
  const commandRows: ChartTableRow[] = data.days.map((day, i) => ({
    key: day,
    label: days[i],
    values: [...actions.map((a) => countCell(a.counts[i] ?? 0)), countCell(sum(actions.map((a) => a.counts[i] ?? 0)))],
  }));

  const enrollments = data.enrollmentsPerDay.map((s) => ({ ...s, label: deviceTypeLabel(s.deviceType) }));
  const enrollmentRows: ChartTableRow[] = data.days.map((day, i) => ({
    key: day,
    label: days[i],
    values: [...enrollments.map((e) => countCell(e.counts[i] ?? 0)), countCell(sum(enrollments.map((e) => e.counts[i] ?? 0)))],
  }));

  const groupLabel = (g: GeneralDashboard['topGroups'][number]) => (g.groupId === null ? L.noGroup : (g.name ?? C.noData));
  const groupRows: ChartTableRow[] = data.topGroups.map((g) => ({
    key: String(g.groupId ?? 'none'),
    label: (
      <FilterLink filter={{ groupId: g.groupId ?? 'none' }} canOpen={canOpenDevices}>
        {groupLabel(g)}
      </FilterLink>
    ),
    values: [countCell(g.count)],
  }));

  return (
    <div className="row g-3 mb-3">
      <ChartPanel
        title={L.byStatus}
        testId="chart-by-status"
        empty={data.byStatus.length === 0}
        chart={{
          kind: 'bar',
          horizontal: true,
          height: barsHeight(byStatus.length),
          labels: statusLabels,
          series: [{ label: C.count, data: byStatus.map((s) => s.count), color: byStatus.map((s) => statusColor(s.status)) }],
        }}
        summaryItems={byStatus.map((s, i) => ({ label: statusLabels[i]!, value: s.count }))}
        table={{ labelHeader: L.status, valueHeaders: [C.count], rows: statusRows }}
      />
      <ChartPanel
        title={L.topGroups(DASHBOARD_TOP_GROUPS)}
        testId="chart-top-groups"
        empty={data.topGroups.length === 0}
        chart={{
          kind: 'bar',
          horizontal: true,
          height: barsHeight(data.topGroups.length),
          labels: data.topGroups.map(groupLabel),
          series: [{ label: C.count, data: data.topGroups.map((g) => g.count), color: FLEET_COLOR }],
        }}
        summaryItems={data.topGroups.map((g) => ({ label: groupLabel(g), value: g.count }))}
        table={{ labelHeader: L.group, valueHeaders: [C.count], rows: groupRows }}
      />
      <ChartPanel
        title={L.commandsPerDay(DASHBOARD_DAYS)}
        testId="chart-commands"
        empty={actions.every((a) => sum(a.counts) === 0)}
        chart={{
          kind: 'bar',
          stacked: true,
          height: CHART_HEIGHT,
          labels: days,
          series: actions.map((a) => ({
            label: a.label,
            data: a.counts,
            color: ACTION_COLORS[DEVICE_ACTIONS.findIndex((d) => d.code === a.action)] ?? '#6c757d',
          })),
        }}
        summaryItems={actions.map((a) => ({ label: a.label, value: sum(a.counts) }))}
        table={{ labelHeader: L.day, valueHeaders: [...actions.map((a) => a.label), C.total], rows: commandRows }}
      />
      <ChartPanel
        title={L.enrollmentsPerDay(DASHBOARD_DAYS)}
        testId="chart-enrollments"
        empty={enrollments.every((e) => sum(e.counts) === 0)}
        chart={{
          kind: 'bar',
          stacked: true,
          height: CHART_HEIGHT,
          labels: days,
          series: enrollments.map((e) => ({ label: e.label, data: e.counts, color: TYPE_COLORS[e.deviceType] })),
        }}
        summaryItems={enrollments.map((e) => ({ label: e.label, value: sum(e.counts) }))}
        table={{ labelHeader: L.day, valueHeaders: [...enrollments.map((e) => e.label), C.total], rows: enrollmentRows }}
      />
    </div>
  );
}

/**
 * The general dashboard (/dashboard/general): the fleet's indicators, each a link to the devices
 * it counts; the collection's figures when the role holds the portfolio (the server sends them
 * only then); devices by status and by group; commands and enrollments per day; the commands in
 * flight for too long. Refreshed every minute unless paused.
 */
export default function GeneralDashboardPage({ title }: PageProps) {
  const { allowed } = useCurrentUser();
  const refresh = useAutoRefresh();
  const tz = useMemo(() => browserTimeZone(), []);
  const query = useGeneralDashboardQuery({ tz }, { pollingInterval: refresh.pollingInterval });
  const canOpenDevices = canAccess(allowed, PATHS.devices);
  const canOpenPreEnrolled = canAccess(allowed, PATHS.preEnrolled);
  const canOpenAudit = canAccess(allowed, PATHS.audit);
  return (
    <section>
      <DashboardHeader title={title} generatedAt={query.data?.generatedAt} paused={refresh.paused} onToggle={refresh.toggle} />
      <DashboardBody query={query}>
        {(data) =>
          data.totals.devices + data.totals.preEnrolled === 0 ? (
            <EmptyFleet />
          ) : (
            <>
              <Cards data={data} canOpenDevices={canOpenDevices} canOpenPreEnrolled={canOpenPreEnrolled} />
              {data.credits && <CreditFigures credits={data.credits} canOpenAudit={canOpenAudit} />}
              <Charts data={data} canOpenDevices={canOpenDevices} />
              <StuckCommands stuck={data.stuckCommands} canOpenDevices={canOpenDevices} />
            </>
          )
        }
      </DashboardBody>
    </section>
  );
}
