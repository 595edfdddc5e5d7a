import { RECONCILIATION_KINDS, type ReconciliationKind } from '../../shared/constants/creditLabels';
import { DEFAULT_COLLECTION_POLICY } from '../../shared/credits';
import type { Queryable } from '../db/Db';

/** A contradiction as read (instants as the driver gives them). */
export interface ReconciliationRecord {
  kind: ReconciliationKind;
  credit_reference: string | null;
  device_id: number | null;
  imei: string | null;
  device_type: number | null;
  group_id: number | null;
  customer_name: string | null;
  days_overdue: number | null;
  lock_days: number | null;
  released_at: Date | null;
  last_seen_at: Date | null;
}

/** A released device reporting within this long of its confirmed release is the release's own last contact, not a contradiction. */
export const RELEASED_REPORTING_GRACE_MINUTES = 5;

const COLUMNS = `kind, credit_reference, device_id, imei, device_type, group_id, customer_name, days_overdue, lock_days, released_at, last_seen_at`;

/** A device that runs the agent and is neither released nor suspended. */
const LIVE_AGENT = `d.deleted_at IS NULL AND d.lifecycle IN ('enrolled', 'configured', 'operating', 'reconfigured')`;
const SAME_REFERENCE = 'lower(d.credit_reference) = lower(c.reference)';

/**
 * Each kind's rows, with the same columns. $1 the company's date today, $2 the instant now, $3 the
 * default lock rung (a policy that never set one). Each starts from an index: the devices locked Por
 * Crédito (devices_credit_locked), the credits overdue or paid off (credits_due), the released
 * devices (devices_status: base_status 9), the credits not cancelled, the devices carrying a
 * reference (devices_credit_reference); the other side is an equality on a reference's lower case.
 */
const KIND_SQL: Record<ReconciliationKind, string> = {
  // Locked Por Crédito while the credit owes nothing overdue (up to date or paid off).
  paid_locked: `
    SELECT 'paid_locked' AS kind, 1 AS k, c.reference AS credit_reference, d.id AS device_id, d.imei, d.device_type, d.group_id,
           c.customer_name, NULL::integer AS days_overdue, NULL::integer AS lock_days, d.released_at, d.last_seen_at
      FROM devices d JOIN credits c ON ${SAME_REFERENCE}
     WHERE ${LIVE_AGENT} AND d.lock_state = 'locked' AND d.lock_type = 'PorCredito' AND d.pending_action IS NULL
       AND c.cancelled_at IS NULL AND (c.first_unpaid_due IS NULL OR c.first_unpaid_due >= $1::date)`,
  // Overdue for at least the lock day of the device's group's effective policy (the group's lock
  // rung, else the global one, else the default), the lock enabled, no pause or hold, and the device
  // not locked and without a command in flight.
  overdue_active: `
    SELECT 'overdue_active' AS kind, 2 AS k, c.reference, d.id, d.imei, d.device_type, d.group_id,
           c.customer_name, ($1::date - c.first_unpaid_due) AS days_overdue, rung.days AS lock_days, d.released_at, d.last_seen_at
      FROM credits c
      JOIN devices d ON ${SAME_REFERENCE}
      CROSS JOIN LATERAL (
        SELECT (l ->> 'enabled')::boolean AS enabled, (l ->> 'daysOverdue')::integer AS days
          FROM (SELECT coalesce((SELECT settings -> 'lock' FROM collection_policy WHERE coalesce(group_id, 0) = d.group_id),
                                (SELECT settings -> 'lock' FROM collection_policy WHERE coalesce(group_id, 0) = 0),
                                $3::jsonb) AS l) p
      ) rung
     WHERE c.cancelled_at IS NULL AND c.first_unpaid_due < $1::date
       AND (c.paused_until IS NULL OR c.paused_until <= $2) AND (c.hold_until IS NULL OR c.hold_until <= $2)
       AND ${LIVE_AGENT} AND d.lock_state <> 'locked' AND d.pending_action IS NULL
       AND rung.enabled AND $1::date - c.first_unpaid_due >= rung.days`,
  // Paid off, the device still under the agent (not locked Por Crédito: that is paid_locked) and no command in flight.
  paid_not_released: `
    SELECT 'paid_not_released' AS kind, 3 AS k, c.reference, d.id, d.imei, d.device_type, d.group_id,
           c.customer_name, NULL::integer, NULL::integer, d.released_at, d.last_seen_at
      FROM credits c JOIN devices d ON ${SAME_REFERENCE}
     WHERE c.cancelled_at IS NULL AND c.first_unpaid_due IS NULL
       AND ${LIVE_AGENT} AND d.pending_action IS NULL AND NOT (d.lock_state = 'locked' AND d.lock_type = 'PorCredito')`,
  // Released (confirmed: released_at), then seen again.
  released_reporting: `
    SELECT 'released_reporting' AS kind, 4 AS k, d.credit_reference, d.id, d.imei, d.device_type, d.group_id,
           coalesce(c.customer_name, d.customer_name), NULL::integer, NULL::integer, d.released_at, d.last_seen_at
      FROM devices d LEFT JOIN credits c ON ${SAME_REFERENCE}
     WHERE d.deleted_at IS NULL AND d.base_status = 9 AND d.lifecycle = 'released'
       AND d.last_seen_at > d.released_at + interval '${RELEASED_REPORTING_GRACE_MINUTES} minutes'`,
  credit_without_device: `
    SELECT 'credit_without_device' AS kind, 5 AS k, c.reference, NULL::bigint, NULL::text, NULL::smallint, NULL::integer,
           c.customer_name, NULL::integer, NULL::integer, NULL::timestamptz, NULL::timestamptz
      FROM credits c
     WHERE c.cancelled_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.deleted_at IS NULL AND d.credit_reference IS NOT NULL AND ${SAME_REFERENCE})`,
  device_without_credit: `
    SELECT 'device_without_credit' AS kind, 6 AS k, d.credit_reference, d.id, d.imei, d.device_type, d.group_id,
           d.customer_name, NULL::integer, NULL::integer, d.released_at, d.last_seen_at
      FROM devices d
     WHERE d.deleted_at IS NULL AND d.credit_reference IS NOT NULL AND d.credit_reference <> ''
       AND NOT EXISTS (SELECT 1 FROM credits c WHERE ${SAME_REFERENCE})`,
};

/** Types the parameters whatever kinds the statement reads (a kind may use none of them). */
const TYPED_PARAMS = 'WITH params AS (SELECT $1::date AS today, $2::timestamptz AS now, $3::jsonb AS lock)';

const unionOf = (kinds: readonly ReconciliationKind[]) => kinds.map((k) => `(${KIND_SQL[k]})`).join('\nUNION ALL\n');

/** $1 the company's date, $2 the instant, $3 the default lock rung. */
export const reconciliationParams = (today: string, now: Date): unknown[] => [today, now, JSON.stringify(DEFAULT_COLLECTION_POLICY.lock)];

/** A page of the rows of `kinds` ($4 the limit, $5 the offset), by kind, then reference, then device. */
export const reconciliationPageSql = (kinds: readonly ReconciliationKind[]): string =>
  `${TYPED_PARAMS} SELECT ${COLUMNS} FROM (${unionOf(kinds)}) r (${COLUMNS.replace('kind,', 'kind, k,')})
    ORDER BY k, lower(credit_reference) NULLS LAST, device_id NULLS FIRST LIMIT $4 OFFSET $5`;

/** All SQL of Conciliación (reads of credits, devices and the policy) and of reconciliation_summaries (migration 0029). */
export class ReconciliationRepository {
  constructor(private readonly db: Queryable) {}

  /** A page of the contradictions of `kinds` on `today`, by kind, then reference, then device. */
  async list(kinds: readonly ReconciliationKind[], today: string, now: Date, limit: number, offset: number): Promise<ReconciliationRecord[]> {
    const res = await this.db.query<ReconciliationRecord>(reconciliationPageSql(kinds), [...reconciliationParams(today, now), limit, offset]);
    return res.rows.map(recordRow);
  }

  /** The number of rows of every kind on `today`. */
  async counts(today: string, now: Date): Promise<Record<ReconciliationKind, number>> {
    const res = await this.db.query<{ kind: ReconciliationKind; n: number }>(
      `${TYPED_PARAMS} SELECT kind, count(*) AS n FROM (${unionOf(RECONCILIATION_KINDS)}) r (${COLUMNS.replace('kind,', 'kind, k,')}) GROUP BY kind`,
      reconciliationParams(today, now),
    );
    const counts = Object.fromEntries(RECONCILIATION_KINDS.map((k) => [k, 0])) as Record<ReconciliationKind, number>;
    for (const r of res.rows) counts[r.kind] = Number(r.n);
    return counts;
  }

  /** Whether the summary of `day` was sent (a cheap read before the day's claim). */
  async summarySent(day: string): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM reconciliation_summaries WHERE day = $1::date', [day]);
    return res.rowCount > 0;
  }

  /** Claims the summary of `day`: true for the one transaction that inserted its row (it sends), false for every other. */
  async claimSummary(day: string, at: Date, total: number): Promise<boolean> {
    const res = await this.db.query(
      'INSERT INTO reconciliation_summaries (day, sent_at, total) VALUES ($1::date, $2, $3) ON CONFLICT (day) DO NOTHING',
      [day, at, total],
    );
    return res.rowCount > 0;
  }
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

const recordRow = (r: ReconciliationRecord): ReconciliationRecord => ({
  ...r,
  device_id: num(r.device_id),
  device_type: num(r.device_type),
  group_id: num(r.group_id),
  days_overdue: num(r.days_overdue),
  lock_days: num(r.lock_days),
});
