/**
 * The SQL every inventory feature shares: the columns of a device row, the row → `Device`
 * mapping (the status derived with shared/deviceStatus.ts), and the WHERE clause of the list
 * filters (list, export, bulk selections). Plain parameterised SQL; no value is ever spliced.
 */
import type { Device, DeviceFilter } from '../../shared/contracts/devices';
import { DEVICE_STATUS, findStatusFilter, type DeviceStatusCode, type DeviceTypeCode, type LockType } from '../../shared/constants/domain';
import type { MachineFacts } from '../../shared/deviceStateMachine';
import {
  OFFLINE_OVERLAID,
  STATUS_RULES,
  deviceStatus,
  lockedFilterSql,
  statusFilterSql,
  type Lifecycle,
  type LockState,
} from '../../shared/deviceStatus';

/** Every stored column of a device row the server reads (`DeviceRow`), on the alias `d`. */
export const DEVICE_ROW_COLUMNS = `d.id, d.imei, d.imei2, d.serial, d.device_type, d.brand, d.model, d.os_version, d.agent_version,
  d.group_id, d.customer_name, d.credit_reference, d.lifecycle, d.lock_state, d.lock_type, d.lock_message, d.temporary_until,
  d.pending_command_id, d.pending_action, d.pending_until, d.failure_reason, d.held_lifecycle, d.last_seen_at, d.enrolled_at,
  d.created_at, d.updated_at, d.sim_iccid, d.sim_carrier, d.battery_level, d.agent_lock_state, d.deleted_at, d.base_status`;

/** The columns `toDevice` reads: the row, its group's name and its command in flight (with DEVICE_JOINS). */
export const DEVICE_COLUMNS = `${DEVICE_ROW_COLUMNS}, g.name AS group_name,
  pc.requested_at AS pending_requested_at, pc.requested_by AS pending_requested_by, pc.deliver_after AS pending_deliver_after,
  pc.payload AS pending_payload, pc.delivered_at AS pending_delivered_at`;

/** The joins `DEVICE_COLUMNS` needs (group name, command in flight). */
export const DEVICE_JOINS = `LEFT JOIN device_groups g ON g.id = d.group_id
  LEFT JOIN device_commands pc ON pc.id = d.pending_command_id`;

/** A device as stored: the one row type of `devices` (DEVICE_ROW_COLUMNS; ids as numbers, see `deviceRow`). */
export interface DeviceRow {
  id: number;
  imei: string;
  imei2: string | null;
  serial: string | null;
  device_type: DeviceTypeCode;
  brand: string | null;
  model: string | null;
  os_version: string | null;
  agent_version: string | null;
  group_id: number | null;
  customer_name: string | null;
  credit_reference: string | null;
  lifecycle: Lifecycle;
  lock_state: LockState;
  lock_type: LockType | null;
  lock_message: string | null;
  temporary_until: Date | null;
  pending_command_id: number | null;
  pending_action: number | null;
  pending_until: Date | null;
  failure_reason: string | null;
  held_lifecycle: Lifecycle | null;
  last_seen_at: Date | null;
  enrolled_at: Date | null;
  created_at: Date;
  updated_at: Date;
  sim_iccid: string | null;
  sim_carrier: string | null;
  battery_level: number | null;
  agent_lock_state: 'locked' | 'unlocked' | null;
  deleted_at: Date | null;
  base_status: number;
}

/** A device row with what the API shows beside it: its group's name and its command in flight (DEVICE_COLUMNS). */
export interface ListedDeviceRow extends DeviceRow {
  group_name: string | null;
  pending_requested_at: Date | null;
  pending_payload: Record<string, unknown> | null;
  pending_delivered_at: Date | null;
  pending_requested_by: string | null;
  pending_deliver_after: Date | null;
}

/** A row as read, its ids as numbers (PostgreSQL's bigint arrives as text). */
export const deviceRow = <T extends DeviceRow>(r: T): T => ({
  ...r,
  id: Number(r.id),
  pending_command_id: r.pending_command_id === null ? null : Number(r.pending_command_id),
});

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The state machine's facts of a device row (shared/deviceStateMachine.ts). */
export function machineFactsOf(
  r: Pick<
    DeviceRow,
    | 'lifecycle'
    | 'lock_state'
    | 'lock_type'
    | 'lock_message'
    | 'temporary_until'
    | 'pending_command_id'
    | 'pending_action'
    | 'pending_until'
    | 'failure_reason'
    | 'held_lifecycle'
  >,
): MachineFacts {
  return {
    lifecycle: r.lifecycle,
    lockState: r.lock_state,
    lockType: r.lock_type,
    lockMessage: r.lock_message,
    temporaryUntil: r.temporary_until === null ? null : new Date(r.temporary_until),
    pendingCommandId: r.pending_command_id === null ? null : Number(r.pending_command_id),
    pendingAction: r.pending_action,
    pendingUntil: r.pending_until === null ? null : new Date(r.pending_until),
    failureReason: r.failure_reason,
    heldLifecycle: r.held_lifecycle,
  };
}

/** A device row as the API answers it, with its status at the moment `cutoff` describes. */
export function toDevice(r: ListedDeviceRow, cutoff: Date): Device {
  return {
    id: Number(r.id),
    imei: r.imei,
    imei2: r.imei2,
    serial: r.serial,
    deviceType: r.device_type as DeviceTypeCode,
    brand: r.brand,
    model: r.model,
    osVersion: r.os_version,
    agentVersion: r.agent_version,
    groupId: r.group_id,
    groupName: r.group_name,
    customerName: r.customer_name,
    creditReference: r.credit_reference,
    status: deviceStatus(
      {
        lifecycle: r.lifecycle,
        lockState: r.lock_state,
        pendingAction: r.pending_action,
        pendingUntil: r.pending_until,
        failureReason: r.failure_reason,
        lastSeenAt: r.last_seen_at,
      },
      cutoff,
    ) as DeviceStatusCode,
    lockType: r.lock_type,
    lockMessage: r.lock_message,
    temporaryUntil: iso(r.temporary_until),
    pendingCommand:
      r.pending_command_id === null || r.pending_action === null
        ? null
        : {
            id: Number(r.pending_command_id),
            action: r.pending_action,
            requestedAt: iso(r.pending_requested_at)!,
            requestedBy: r.pending_requested_by,
            deliverAfter: iso(r.pending_deliver_after)!,
            payload: r.pending_payload ?? {},
            deliveredAt: iso(r.pending_delivered_at),
          },
    failureReason: r.failure_reason,
    lastSeenAt: iso(r.last_seen_at),
    enrolledAt: iso(r.enrolled_at),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    simIccid: r.sim_iccid,
    simCarrier: r.sim_carrier,
  };
}

/** A WHERE clause under construction: conditions joined with AND, parameters numbered in order. */
export class SqlWhere {
  readonly conditions: string[] = [];
  constructor(readonly params: unknown[] = []) {}

  /** Adds a parameter and returns its placeholder ($n). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  toString(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/**
 * The statuses of a device with a command in flight: those the status rules reach through the
 * pending action (bloqueando, desbloqueando, liberando, configurando, TEMPORARY_UNLOCKING).
 */
export const IN_FLIGHT_STATUSES: readonly DeviceStatusCode[] = [
  ...new Set(STATUS_RULES.filter((r) => r.when.some((c) => c.fact === 'pendingAction')).map((r) => r.status)),
];

/**
 * The devices with a command in flight (`inFlight` true) or without one, on the stored
 * base_status (`column`): these statuses are never overlaid by 'Sin conexión' (OFFLINE_OVERLAID),
 * so neither the clock nor last_seen_at takes part, and the device_counts counters answer it too.
 */
export const inFlightSql = (inFlight: boolean, column: string): string => `${column} ${inFlight ? '' : 'NOT '}IN (${IN_FLIGHT_STATUSES.join(', ')})`;

/**
 * The WHERE of `filter` (`where`, from deviceWhere) once per half the list is read in. The
 * enrolled devices' indexes (all, by type, by group, by agent version, in the order of each sort)
 * hold no device with a command in flight (migration 0021: a lock or an unlock writes none of
 * them), so a filter that chooses neither a status nor whether a command is in flight is read as
 * two halves, the devices without one and those with one (the in-flight indexes of 0013 in the
 * order of each sort; by type, group and agent version in IMEI order, 0021-0022, which also find a
 * small group's or a rare version's few devices in flight by their condition), each in the order
 * of the sort. A filter that chooses is one WHERE.
 */
export function inFlightHalves(filter: DeviceFilter, where: SqlWhere): string[] {
  const chosen = filter.status !== undefined || filter.inFlight !== undefined || filter.releasedFrom !== undefined || filter.stage === 'preEnrolled';
  return chosen ? [String(where)] : [false, true].map((inFlight) => `${where} AND ${inFlightSql(inFlight, 'd.base_status')}`);
}

/** Escapes LIKE wildcards in a user's text. */
export const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A search of digits alone: a prefix of either IMEI, the serial or the credit reference (otherwise a search of words). */
export const isDigitSearch = (search: string): boolean => /^\d+$/.test(search.trim());

/** The length of the prefixes device_key_prefixes is ordered by (migration 0020): shorter than a TAC, they match whole models. */
export const KEY_PREFIX_DIGITS = 4;

/**
 * The digits of a search of exactly KEY_PREFIX_DIGITS digits, when nothing but the stage also
 * filters the list: its page is read from device_key_prefixes in the order of the registration
 * (DeviceRepository.listByKeyPrefix). Any other search or filter is answered by deviceWhere.
 */
export function keyPrefixOf(filter: DeviceFilter): string | undefined {
  const text = filter.search?.trim();
  if (text === undefined || text.length !== KEY_PREFIX_DIGITS || !isDigitSearch(text)) return undefined;
  const others = Object.entries(filter).filter(([k, v]) => k !== 'stage' && k !== 'search' && v !== undefined);
  return others.length === 0 ? text : undefined;
}

/**
 * The live devices (not deleted) matching `filter`, on the alias `d`. `cutoff` is the offline
 * cutoff (the status filter needs it). Search: a run of digits is a prefix of either IMEI, the
 * serial or the credit reference; otherwise each word must be found in the serial, customer name
 * or credit reference: a word with a digit (or without letters) as a substring (trigram index),
 * a word of letters at the beginning of a word of theirs (word index).
 */
export function deviceWhere(filter: DeviceFilter, cutoff: Date, where = new SqlWhere()): SqlWhere {
  where.add('d.deleted_at IS NULL');
  if (filter.stage === 'enrolled') where.add(`d.base_status <> ${DEVICE_STATUS.PRE_ENROLLED}`);
  else if (filter.stage === 'preEnrolled') where.add(`d.base_status = ${DEVICE_STATUS.PRE_ENROLLED}`);
  if (filter.status !== undefined) {
    const entry = findStatusFilter(filter.status);
    if (entry) {
      // Only the clock-dependent statuses use the cutoff (an unused parameter has no type).
      const clock = entry.status === DEVICE_STATUS.sin_conexion || OFFLINE_OVERLAID.includes(entry.status);
      where.add(statusFilterSql(entry.status, clock ? where.param(cutoff) : 'NULL', 'd'));
      if (entry.lockType) where.add(`d.lock_type = ${where.param(entry.lockType)}`);
    }
  }
  if (filter.deviceType !== undefined) where.add(`d.device_type = ${where.param(filter.deviceType)}`);
  // coalesce: the group indexes (0 = no group) serve both, in the order of the sort.
  if (filter.groupId === 'none') where.add('coalesce(d.group_id, 0) = 0');
  else if (filter.groupId !== undefined) where.add(`coalesce(d.group_id, 0) = ${where.param(filter.groupId)}`);
  if (filter.inFlight !== undefined) where.add(inFlightSql(filter.inFlight, 'd.base_status'));
  if (filter.locked !== undefined) {
    const locked = lockedFilterSql(where.param(cutoff), 'd');
    where.add(filter.locked ? locked : `NOT ${locked}`);
  }
  // The agent's version: the devices running it (a released device no longer does), as the
  // Android dashboard and the lock-app page count them; a device that never reported one is
  // not 'another version'.
  if (filter.agentVersion !== undefined || filter.agentVersionNot !== undefined) where.add(`d.base_status <> ${DEVICE_STATUS.liberado}`);
  if (filter.agentVersion !== undefined) where.add(`d.agent_version = ${where.param(filter.agentVersion)}`);
  if (filter.agentVersionNot !== undefined) where.add(`(d.agent_version IS NOT NULL AND d.agent_version <> ${where.param(filter.agentVersionNot)})`);
  // released_at is kept for released devices only (migration 0013): index devices_released.
  if (filter.releasedFrom !== undefined) {
    where.add(`d.base_status = ${DEVICE_STATUS.liberado}`);
    where.add(`d.released_at >= ${where.param(filter.releasedFrom.start)}`);
  }
  if (filter.search !== undefined) {
    const text = filter.search.trim().toLowerCase();
    if (isDigitSearch(text)) {
      // Digits: a prefix of either IMEI, of the serial or of the credit reference (btree ranges,
      // so a prefix shared by a whole model stays fast whatever the sort).
      const prefix = where.param(`${text}%`);
      where.add(`(d.imei LIKE ${prefix} OR d.imei2 LIKE ${prefix} OR lower(d.serial) LIKE ${prefix} OR lower(d.credit_reference) LIKE ${prefix})`);
    } else {
      // The input's rule (ñ removed, reference §5), then every word (space-separated) must be found, folded
      // as the stored text is, in the device's row of device_search (migration 0016: the searched
      // text lives apart from the device row, so status writes never touch its indexes). A word
      // with a digit, or without letters, is a substring of the folded search_text (migration
      // 0011, trigram index device_search_text): serials, credit references. Any other word is
      // searched by its runs of letters, each the beginning of a word of the serial, customer name
      // or credit reference (migration 0014, GIN index device_search_words): 'garc' finds
      // 'García', 'arcia' does not. One semi-join: the planner reads the sort's index and probes
      // the key (common words) or gathers the matches through the search indexes (few).
      const found: string[] = [];
      const words: string[] = [];
      for (const token of text.replace(/[ñÑ]/g, '').split(/\s+/)) {
        if (/\p{L}/u.test(token) && !/\p{N}/u.test(token)) words.push(token);
        else if (token) found.push(`s.search_text LIKE search_fold(${where.param(`%${likeEscape(token)}%`)})`);
      }
      if (words.length) found.push(`s.search_words @@ search_words_query(${where.param(words.join(' '))})`);
      if (found.length) where.add(`d.id IN (SELECT s.device_id FROM device_search s WHERE ${found.join(' AND ')})`);
    }
  }
  return where;
}

/**
 * The device side of a credit (server/credits reads it through these fragments; the credits' own
 * SQL never names a column of `devices`). A device belongs to the credit whose reference it
 * carries, compared ignoring case (index devices_credit_prefix, migration 0007).
 */
export const creditDevicesSql = {
  /** The live devices carrying the reference `referenceSql` (an SQL expression): their number. */
  count: (referenceSql: string): string =>
    `(SELECT count(*) FROM devices d WHERE d.deleted_at IS NULL AND lower(d.credit_reference) = lower(${referenceSql}))`,
  /** The references (lower case) carried by live devices of a group (`groupSql` an id placeholder), or of no group (`'none'`). */
  referencesInGroup: (groupSql: string | 'none'): string =>
    `SELECT lower(d.credit_reference) FROM devices d
      WHERE d.deleted_at IS NULL AND d.credit_reference IS NOT NULL AND coalesce(d.group_id, 0) = ${groupSql === 'none' ? '0' : groupSql}`,
};

/** What the inventory services need of the configuration, and their clock. */
export interface InventorySettings {
  /** A device not seen for this long shows as 'sin_conexion'. */
  offlineAfterHours: number;
  now: () => Date;
}
