import * as z from 'zod';
import type { DeviceStatusCode, DeviceTypeCode } from '../constants/domain';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { DEVICE_STATUS_CODES } from './devices';
import { timeZoneParam } from './fields';
import { DEVICE_TYPE_CODES } from '../constants/limits';

// The sizes and timings live in a zod-free module (the pages import them without zod); re-exported here.
export {
  DASHBOARD_CREDIT_LOCK_DAYS,
  DASHBOARD_DAYS,
  DASHBOARD_REFRESH_MS,
  DASHBOARD_STUCK_AFTER_HOURS,
  DASHBOARD_STUCK_ROWS,
  DASHBOARD_TOP_GROUPS,
  DASHBOARD_TOP_MODELS,
  DASHBOARD_UNLOCK_WITHIN_DAYS,
} from '../constants/dashboard';

/** GET /v5/dashboard/general|android: `tz`, the browser's zone, which days and 'this month' are counted in (UTC without it). */
export const dashboardQuery = z.object({ tz: timeZoneParam(FIELD_LABELS.dashboard.tz).optional() });
export type DashboardQuery = z.infer<typeof dashboardQuery>;

const count = z.number().int().nonnegative();
const statusCode = z.custom<DeviceStatusCode>((v) => (DEVICE_STATUS_CODES as readonly unknown[]).includes(v));
const deviceType = z.custom<DeviceTypeCode>((v) => (DEVICE_TYPE_CODES as readonly unknown[]).includes(v));

/** A daily series: one number per day of `days`. */
const dailySeries = z.strictObject({ counts: z.array(count) });

export const dashboardStuckCommandResponse = z.strictObject({
  commandId: z.number().int(),
  deviceId: z.number().int(),
  imei: z.string(),
  deviceType,
  action: z.number().int(),
  requestedAt: z.string(),
  /** When an agent received it; null while it waits for the device's next check-in. */
  deliveredAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export type DashboardStuckCommand = z.infer<typeof dashboardStuckCommandResponse>;

const byCurrency = z.array(z.strictObject({ currency: z.string(), amount: z.string() }));

/**
 * The credit figures of the general dashboard, on the company's date `today` in its zone (not the
 * browser's): present only when the caller's role holds the portfolio (/credits/portfolio). The
 * counts by state and bucket, the amount overdue and the payments are the portfolio summary's
 * (GET /v5/credits/summary), so each equals the total of the list its link opens.
 */
export const dashboardCreditsResponse = z.strictObject({
  today: z.string(),
  timeZone: z.string(),
  /** Credits overdue today, and per bucket of days overdue. */
  overdue: count,
  overdueBuckets: z.strictObject({ '1-7': count, '8-30': count, '31+': count }),
  /** What is unpaid of the installments due before today, per currency. */
  amountOverdue: byCurrency,
  /** The payments that stand dated today (company day), and their sum per currency. */
  paymentsToday: z.strictObject({ count, amounts: byCurrency }),
  /** Devices the collection policy sent a lock (an unlock) to today: the devices of its lock (unlock) steps. */
  automaticLocksToday: count,
  automaticUnlocksToday: count,
  /**
   * Of the devices whose lock Por Crédito was acknowledged in the last DASHBOARD_CREDIT_LOCK_DAYS
   * company days (`locked`), those with an unlock or release acknowledged (or its offline code
   * redeemed) within DASHBOARD_UNLOCK_WITHIN_DAYS days after one of those locks (`unlocked`).
   */
  unlockedAfterLock: z.strictObject({ locked: count, unlocked: count }),
});
export type DashboardCredits = z.infer<typeof dashboardCreditsResponse>;

/** GET /v5/dashboard/general. Every device number counts live devices past pre-enrolment (the devices page), unless named otherwise. */
export const generalDashboardResponse = z.strictObject({
  generatedAt: z.string(),
  /** The zone the days were counted in. */
  timeZone: z.string(),
  /** The first instant of this month in that zone: 'Liberados este mes' counts the devices released since (the list's releasedFrom). */
  monthStart: z.string(),
  /** A device not seen for this long is 'Sin conexión'. */
  offlineAfterHours: z.number(),
  totals: z.strictObject({
    /** Devices on the devices page (every status but PRE_ENROLLED). */
    devices: count,
    smartphones: count,
    tvs: count,
    /** Registered and waiting for their agent (the pre-enrolled page). */
    preEnrolled: count,
    /** Locked or being locked (LOCKED_STATUSES: Bloqueado, Configurado bloqueado, Bloqueando), as the devices page's `locked` filter selects them. */
    locked: count,
    /** Status 'Sin conexión'. */
    offline: count,
    /** Devices with a command in flight (bloqueando, desbloqueando, liberando, configurando…). */
    inFlight: count,
    /** Commands not yet answered by their agent. */
    pendingCommands: count,
    /** Status 'Liberado'. */
    released: count,
    /** Status 'Liberado' and released since monthStart. */
    releasedThisMonth: count,
  }),
  /** Devices per reference §4 status, offline overlay applied; statuses with no device are left out. Sums to totals.devices. */
  byStatus: z.array(z.strictObject({ status: statusCode, count })),
  /** The last DASHBOARD_DAYS days, oldest first, as YYYY-MM-DD in timeZone. */
  days: z.array(z.string()),
  /** Commands requested per day, one series per action that has any. */
  commandsPerDay: z.array(dailySeries.extend({ action: z.number().int() })),
  /** Enrollments (first check-in of an agent) per day, per device type. */
  enrollmentsPerDay: z.array(dailySeries.extend({ deviceType })),
  /** The groups with most devices, most first; groupId null: devices without a group. */
  topGroups: z.array(z.strictObject({ groupId: z.number().int().nullable(), name: z.string().nullable(), count })),
  /** Commands in flight for more than DASHBOARD_STUCK_AFTER_HOURS, oldest first. */
  stuckCommands: z.strictObject({ total: count, rows: z.array(dashboardStuckCommandResponse) }),
  /** The credit figures: only for a role that holds the portfolio (left out otherwise, never a 403). */
  credits: dashboardCreditsResponse.optional(),
});
export type GeneralDashboard = z.infer<typeof generalDashboardResponse>;

/** A value of a device fact and how many devices of each type report it (null: none reported). */
const distributionRow = z.strictObject({ value: z.string().nullable(), smartphones: count, tvs: count });
export type DistributionRow = z.infer<typeof distributionRow>;

export const agentVersionsResponse = z.strictObject({
  /** The current lock-app version of the type (agent settings), if one is marked. */
  current: z.string().nullable(),
  currentCount: count,
  /** Reporting another version than the current one. */
  outdatedCount: count,
  /** Not reporting any version yet. */
  unknownCount: count,
  rows: z.array(z.strictObject({ value: z.string().nullable(), count, current: z.boolean() })),
});
export type AgentVersions = z.infer<typeof agentVersionsResponse>;

/** GET /v5/dashboard/android: the facts the agents report, over the devices running one (enrolled, not released), most frequent first; 'Sin dato' (null) last. */
export const androidDashboardResponse = z.strictObject({
  generatedAt: z.string(),
  osVersions: z.array(distributionRow),
  /** The DASHBOARD_TOP_MODELS most frequent models. */
  models: z.array(distributionRow.extend({ brand: z.string().nullable() })),
  /** Models past the top ones, summed. */
  otherModels: z.strictObject({ smartphones: count, tvs: count }),
  agentVersions: z.strictObject({ smartphone: agentVersionsResponse, tv: agentVersionsResponse }),
  /** SIM carriers of the smartphones. */
  carriers: z.array(z.strictObject({ value: z.string().nullable(), count })),
  /** TV vs smartphone per brand. */
  brands: z.array(distributionRow),
});
export type AndroidDashboard = z.infer<typeof androidDashboardResponse>;
