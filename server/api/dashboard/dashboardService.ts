import {
  DASHBOARD_DAYS,
  DASHBOARD_STUCK_AFTER_HOURS,
  DASHBOARD_TOP_GROUPS,
  DASHBOARD_TOP_MODELS,
  type AgentVersions,
  type AndroidDashboard,
  DASHBOARD_CREDIT_LOCK_DAYS,
  DASHBOARD_UNLOCK_WITHIN_DAYS,
  type DashboardCredits,
  type DashboardQuery,
  type DistributionRow,
  type GeneralDashboard,
} from '../../../shared/contracts/dashboard';
import type { CreditSummary } from '../../../shared/contracts/credits';
import { addDays, instantAt, todayIn } from '../../../shared/credits';
import { DEVICE_STATUS, DEVICE_TYPE, type DeviceStatusCode, type DeviceTypeCode } from '../../../shared/constants/domain';
import { LOCKED_STATUSES, offlineCutoff } from '../../../shared/deviceStatus';
import type { Db } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { IN_FLIGHT_STATUSES, type InventorySettings } from '../../devices';
import { ACTIVITY, DashboardRepository, FACT, type FactRow, type OfflineCounts, type OfflineSnapshot } from './dashboardRepository';

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());
/** '' is how the counters hold a fact nobody reported. */
const reported = (v: string): string | null => (v === '' ? null : v);

/** The rows of one fact, summed per value (and brand), most devices first, then by value. */
function distribution(facts: readonly FactRow[], fact: number): (DistributionRow & { brand: string | null })[] {
  const rows = new Map<string, DistributionRow & { brand: string | null }>();
  for (const f of facts) {
    if (f.fact !== fact) continue;
    const key = `${f.value}\u0000${f.brand}`;
    const row = rows.get(key) ?? { value: reported(f.value), brand: reported(f.brand), smartphones: 0, tvs: 0 };
    if (f.device_type === DEVICE_TYPE.TV) row.tvs += f.n;
    else row.smartphones += f.n;
    rows.set(key, row);
  }
  const total = (r: DistributionRow) => r.smartphones + r.tvs;
  // Values people read: 'Sin dato' last whatever its count, ties in a stable alphabetical order.
  return [...rows.values()].sort(
    (a, b) => Number(a.value === null) - Number(b.value === null) || total(b) - total(a) || (a.value ?? '').localeCompare(b.value ?? '', 'es-MX'),
  );
}

function agentVersions(facts: readonly FactRow[], type: DeviceTypeCode, current: string | null): AgentVersions {
  const rows = facts
    .filter((f) => f.fact === FACT.agentVersion && f.device_type === type)
    .map((f) => ({ value: reported(f.value), count: f.n, current: current !== null && f.value === current }))
    .sort((a, b) => Number(a.value === null) - Number(b.value === null) || b.count - a.count || (a.value ?? '').localeCompare(b.value ?? ''));
  const sum = (keep: (r: (typeof rows)[number]) => boolean) => rows.filter(keep).reduce((n, r) => n + r.count, 0);
  return {
    current,
    currentCount: sum((r) => r.current),
    outdatedCount: sum((r) => r.value !== null && !r.current),
    unknownCount: sum((r) => r.value === null),
    rows,
  };
}

/** A YYYY-MM-DD formatter per zone (the zones requests named: building one costs about 0.15 ms). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The last `n` days ending on `now`'s day in `timeZone`, oldest first, as YYYY-MM-DD (the days the SQL sums into). */
export function lastDays(now: Date, timeZone: string, n: number): string[] {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const today = format.format(now);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m - 1, d - (n - 1 - i))).toISOString().slice(0, 10));
}

/** The server's clock counts the offline devices again this often (one replica does). */
export const OFFLINE_SNAPSHOT_REFRESH_MS = 25_000;
/** A request finding the snapshot older than this counts itself (no clock running, a threshold changed). */
export const OFFLINE_SNAPSHOT_MAX_AGE_MS = 60_000;

/** Where the general dashboard's credit figures come from: the company's zone and the portfolio's summary (CreditsService). */
export interface DashboardCreditSource {
  timeZone: string;
  summary(): Promise<CreditSummary>;
}

/** The numbers of the General and Android dashboards. */
export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
    private readonly creditSource?: DashboardCreditSource,
  ) {}

  /**
   * The credit figures on the company's date: the portfolio summary's counts, amounts and
   * payments (the lists the dashboard links to answer the same totals), the policy's locks and
   * unlocks of the company's day, and the devices unlocked soon after a lock Por Crédito.
   */
  async credits(): Promise<DashboardCredits | undefined> {
    const source = this.creditSource;
    if (!source) return undefined;
    const now = this.settings.now();
    const zone = source.timeZone;
    const today = todayIn(zone, now);
    const [summary, activity] = await Promise.all([
      source.summary(),
      new DashboardRepository(this.db).creditActivity(
        instantAt(today, '00:00', zone),
        instantAt(addDays(today, 1), '00:00', zone),
        instantAt(addDays(today, -(DASHBOARD_CREDIT_LOCK_DAYS - 1)), '00:00', zone),
        now,
        DASHBOARD_UNLOCK_WITHIN_DAYS,
      ),
    ]);
    return {
      today: summary.today,
      timeZone: summary.timeZone,
      overdue: summary.byState.overdue,
      overdueBuckets: summary.overdueBuckets,
      amountOverdue: summary.amountOverdue,
      paymentsToday: summary.paymentsToday,
      automaticLocksToday: activity.locksToday,
      automaticUnlocksToday: activity.unlocksToday,
      unlockedAfterLock: { locked: activity.locked, unlocked: activity.unlocked },
    };
  }

  /**
   * Counts the offline devices again into the snapshot, unless it is younger than `maxAgeMs`
   * (0: always). Returns the counts, or undefined when the snapshot was fresh.
   */
  async refreshOffline(maxAgeMs = OFFLINE_SNAPSHOT_REFRESH_MS): Promise<OfflineCounts | undefined> {
    const now = this.settings.now();
    const hours = this.settings.offlineAfterHours;
    return transaction(this.db, async (tx) => {
      const repo = new DashboardRepository(tx);
      if (!(await repo.claimOfflineSnapshot(now, hours, offlineCutoff(now, hours), new Date(now.getTime() - maxAgeMs)))) return undefined;
      const counts = await repo.countOffline(offlineCutoff(now, hours));
      await repo.storeOfflineSnapshot(counts);
      return counts;
    });
  }

  /** The offline counts of a snapshot, counted again first when it is too old to show. */
  private async offlineCounts(repo: DashboardRepository, snapshot: OfflineSnapshot | undefined): Promise<OfflineCounts> {
    const now = this.settings.now();
    const fresh =
      snapshot &&
      snapshot.offlineAfterHours === this.settings.offlineAfterHours &&
      now.getTime() - snapshot.computedAt.getTime() <= OFFLINE_SNAPSHOT_MAX_AGE_MS;
    if (fresh) return snapshot.counts;
    return (await this.refreshOffline(OFFLINE_SNAPSHOT_MAX_AGE_MS)) ?? (await repo.offlineSnapshot())?.counts ?? {};
  }

  /** The general dashboard; `withCredits`: the caller's role holds the portfolio, so the credit figures are added. */
  async general(query: DashboardQuery, withCredits = false): Promise<GeneralDashboard> {
    const now = this.settings.now();
    const timeZone = query.tz ?? 'UTC';
    const repo = new DashboardRepository(this.db);
    const stuckSince = new Date(now.getTime() - DASHBOARD_STUCK_AFTER_HOURS * 3600_000);
    const counters = await repo.general(now, timeZone, DASHBOARD_TOP_GROUPS, stuckSince, this.db.engine === 'pglite');
    const { activity: activityRows, stuck } = counters;
    const statusRows = counters.statuses;
    const offlineRows = await this.offlineCounts(repo, counters.snapshot);
    const days = lastDays(now, timeZone, DASHBOARD_DAYS);
    const activity = { days, rows: activityRows };

    // Per status with the overlay: an offline device leaves its base status for 'Sin conexión'.
    const byStatus = new Map<number, number>();
    const add = (status: number, n: number) => byStatus.set(status, (byStatus.get(status) ?? 0) + n);
    let preEnrolled = 0;
    let smartphones = 0;
    let tvs = 0;
    for (const r of statusRows) {
      if (r.base_status === DEVICE_STATUS.PRE_ENROLLED) {
        preEnrolled += r.n;
        continue;
      }
      add(r.base_status, r.n);
      if (r.device_type === DEVICE_TYPE.TV) tvs += r.n;
      else smartphones += r.n;
    }
    // The snapshot may be up to a clock tick old: a status never goes below zero for it.
    for (const [status, n] of Object.entries(offlineRows)) {
      const moved = Math.min(n, byStatus.get(Number(status)) ?? 0);
      add(Number(status), -moved);
      add(DEVICE_STATUS.sin_conexion, moved);
    }
    const count = (status: number) => byStatus.get(status) ?? 0;

    const dayIndex = new Map(activity.days.map((d, i) => [d, i]));
    const series = new Map<string, number[]>();
    for (const r of activity.rows) {
      const i = dayIndex.get(r.day);
      if (i === undefined) continue;
      const key = `${r.kind}:${r.key}`;
      const counts = series.get(key) ?? activity.days.map(() => 0);
      counts[i]! += r.n;
      series.set(key, counts);
    }
    const credits = withCredits ? await this.credits() : undefined;
    const kindSeries = (kind: number) =>
      [...series.entries()]
        .filter(([k]) => k.startsWith(`${kind}:`))
        .map(([k, counts]) => ({ key: Number(k.split(':')[1]), counts }))
        .sort((a, b) => a.key - b.key);

    return {
      generatedAt: now.toISOString(),
      timeZone,
      monthStart: counters.monthStart.toISOString(),
      offlineAfterHours: this.settings.offlineAfterHours,
      totals: {
        devices: smartphones + tvs,
        smartphones,
        tvs,
        preEnrolled,
        locked: LOCKED_STATUSES.reduce((n, s) => n + count(s), 0),
        offline: count(DEVICE_STATUS.sin_conexion),
        inFlight: IN_FLIGHT_STATUSES.reduce((n, s) => n + count(s), 0),
        pendingCommands: counters.pendingCommands,
        released: count(DEVICE_STATUS.liberado),
        releasedThisMonth: counters.releasedThisMonth,
      },
      byStatus: [...byStatus.entries()]
        .filter(([, n]) => n > 0)
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => ({ status: status as DeviceStatusCode, count: n })),
      days: activity.days,
      commandsPerDay: kindSeries(ACTIVITY.command).map((s) => ({ action: s.key, counts: s.counts })),
      enrollmentsPerDay: kindSeries(ACTIVITY.enrollment).map((s) => ({ deviceType: s.key as DeviceTypeCode, counts: s.counts })),
      topGroups: counters.groups.map((g) => ({ groupId: g.group_id, name: g.name, count: g.n })),
      stuckCommands: {
        total: stuck.total,
        rows: stuck.rows.map((r) => ({
          commandId: Number(r.id),
          deviceId: Number(r.device_id),
          imei: r.imei,
          deviceType: r.device_type as DeviceTypeCode,
          action: r.action,
          requestedAt: iso(r.requested_at)!,
          deliveredAt: iso(r.delivered_at),
          lastSeenAt: iso(r.last_seen_at),
        })),
      },
      ...(credits ? { credits } : {}),
    };
  }

  async android(): Promise<AndroidDashboard> {
    const now = this.settings.now();
    const repo = new DashboardRepository(this.db);
    const [facts, current] = await Promise.all([repo.facts(), repo.currentAgentVersions()]);
    const models = distribution(facts, FACT.model);
    const top = models.slice(0, DASHBOARD_TOP_MODELS);
    const rest = models.slice(DASHBOARD_TOP_MODELS);
    const strip = ({ value, smartphones, tvs }: DistributionRow) => ({ value, smartphones, tvs });
    return {
      generatedAt: now.toISOString(),
      osVersions: distribution(facts, FACT.osVersion).map(strip),
      models: top,
      otherModels: {
        smartphones: rest.reduce((n, r) => n + r.smartphones, 0),
        tvs: rest.reduce((n, r) => n + r.tvs, 0),
      },
      agentVersions: {
        smartphone: agentVersions(facts, DEVICE_TYPE.SMARTPHONE, current.get(DEVICE_TYPE.SMARTPHONE) ?? null),
        tv: agentVersions(facts, DEVICE_TYPE.TV, current.get(DEVICE_TYPE.TV) ?? null),
      },
      carriers: distribution(facts, FACT.carrier)
        .filter((r) => r.smartphones > 0)
        .map((r) => ({ value: r.value, count: r.smartphones })),
      brands: distribution(facts, FACT.brand).map(strip),
    };
  }
}
