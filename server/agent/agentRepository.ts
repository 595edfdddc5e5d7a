/**
 * The SQL of the device side: devices by token or IMEI with the facts the state machine reads,
 * writing those facts back, agent and enrollment tokens, the commands a device may receive, the
 * settings rows. Plain parameterised SQL, the same on PostgreSQL and PGlite.
 */
import type { LockType } from '../../shared/constants/domain';
import type { Lifecycle, LockState } from '../../shared/deviceStatus';
import type { MachineFacts } from '../../shared/deviceStateMachine';
import { machineFactsOf } from '../api/devices/deviceQueries';

/** The state machine's facts of a device row. */
export const factsOf = (r: AgentDeviceRow): MachineFacts => machineFactsOf(r);
import type { Queryable } from '../db/Db';

/** A device as the agent side reads it. */
export interface AgentDeviceRow {
  id: number;
  imei: string;
  imei2: string | null;
  serial: string | null;
  brand: string | null;
  model: string | null;
  device_type: 1 | 2;
  group_id: number | null;
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
  os_version: string | null;
  agent_version: string | null;
  sim_iccid: string | null;
  sim_carrier: string | null;
  battery_level: number | null;
  agent_lock_state: 'locked' | 'unlocked' | null;
  deleted_at: Date | null;
  base_status: number;
}

/** A check-in's read: the hash of its device token and its instant. */
export interface CheckinKey {
  hash: Buffer;
  now: Date;
}

/** The check-in's one read: the device behind a token, its settings version and whether a command awaits it. */
export interface CheckinRow extends AgentDeviceRow {
  settings_version: number;
  has_commands: boolean;
  /** The point of the public key the token's agent signs with (null: a token from before signatures). */
  public_key: Buffer | null;
}

const COLUMNS = `d.id, d.imei, d.imei2, d.serial, d.brand, d.model, d.device_type, d.group_id, d.lifecycle, d.lock_state, d.lock_type,
  d.lock_message, d.temporary_until, d.pending_command_id, d.pending_action, d.pending_until, d.failure_reason, d.held_lifecycle,
  d.last_seen_at, d.enrolled_at, d.os_version, d.agent_version, d.sim_iccid, d.sim_carrier, d.battery_level, d.agent_lock_state,
  d.deleted_at, d.base_status`;

const SETTINGS_VERSION = `(SELECT coalesce(max(s.version), 0) FROM agent_settings s
   WHERE s.device_type = d.device_type AND (s.group_id IS NULL OR s.group_id = d.group_id))`;

/** The sizes of the check-in read's statement; the largest is the most check-ins one statement reads. */
const CHECKIN_READ_SIZES = [1, 2, 4, 8, 16, 32] as const;
export const CHECKIN_READ_BATCH: number = CHECKIN_READ_SIZES[CHECKIN_READ_SIZES.length - 1]!;

/** The check-in read of `size` keys: ($1 hash, $2 instant), ($3, $4) … numbered k = 1 … size. */
const checkinRead = (size: number) =>
  `SELECT k.k, ${COLUMNS}, t.public_key, ${SETTINGS_VERSION} AS settings_version,
          EXISTS (SELECT 1 FROM device_commands c WHERE c.device_id = d.id AND c.status = 'pending' AND c.deliver_after <= k.now) AS has_commands
     FROM (VALUES ${Array.from({ length: size }, (_, i) => `($${2 * i + 1}::bytea, $${2 * i + 2}::timestamptz, ${i + 1})`).join(', ')}) AS k(hash, now, k)
     JOIN agent_tokens t ON t.token_hash = k.hash
     JOIN devices d ON d.id = t.device_id
    WHERE t.revoked_at IS NULL AND d.deleted_at IS NULL`;
const CHECKIN_READS = new Map(CHECKIN_READ_SIZES.map((n) => [n, checkinRead(n)]));

/** A command the agent may receive. */
export interface DeliverableRow {
  id: number;
  action: number;
  payload: Record<string, unknown>;
  requested_at: Date;
  delivered_at: Date | null;
}

/** A command as the acknowledgement reads it. */
export interface AgentCommandRow {
  id: number;
  device_id: number;
  action: number;
  payload: Record<string, unknown>;
  status: 'pending' | 'acknowledged' | 'rejected' | 'cancelled' | 'issued' | 'redeemed';
  requested_at: Date;
  deliver_after: Date;
  delivered_at: Date | null;
  acknowledged_at: Date | null;
  result: string | null;
  nonce: number | null;
  expires_at: Date | null;
}

const COMMAND_COLUMNS = `c.id, c.device_id, c.action, c.payload, c.status, c.requested_at, c.deliver_after, c.delivered_at,
  c.acknowledged_at, c.result, c.nonce, c.expires_at`;

export interface EnrollmentTokenRow {
  id: number;
  group_id: number | null;
  device_id: number | null;
  expires_at: Date;
  revoked_at: Date | null;
  /** A device's token that its one enrollment used (revoked then). */
  used_at: Date | null;
}

/** What a check-in or an event reports of the device, written with its facts. */
export interface Reported {
  lastSeenAt: Date;
  osVersion?: string | null;
  agentVersion?: string | null;
  sim?: { iccid: string; carrier: string | null } | null;
  batteryLevel?: number;
  agentLockState?: 'locked' | 'unlocked';
}

export class AgentRepository {
  constructor(private readonly db: Queryable) {}

  /** The check-in's read: the live device behind a live token (one indexed lookup each). */
  async checkinByToken(hash: Buffer, now: Date): Promise<CheckinRow | undefined> {
    return (await this.checkinByTokens([{ hash, now }]))[0];
  }

  /**
   * The check-in's read of several check-ins at once (AgentService batches those that arrive
   * together): the answers in the order asked, each token read at its own instant. One statement
   * per CHECKIN_READ_BATCH keys, of a few fixed sizes (the keys padded with nulls, which match no
   * token): a VALUES list of n rows is estimated at n rows, so PostgreSQL keeps each size's
   * prepared generic plan (an array's unnest is estimated at 10 rows whatever it holds, and its
   * statement would be planned again at every call).
   */
  async checkinByTokens(keys: readonly CheckinKey[]): Promise<(CheckinRow | undefined)[]> {
    // Every slot set (DataLoader refuses an array whose last slot is a hole).
    const rows = new Array<CheckinRow | undefined>(keys.length).fill(undefined);
    for (let from = 0; from < keys.length; from += CHECKIN_READ_BATCH) {
      const chunk = keys.slice(from, from + CHECKIN_READ_BATCH);
      const size = CHECKIN_READ_SIZES.find((n) => n >= chunk.length)!;
      const params: unknown[] = [];
      for (let i = 0; i < size; i++) params.push(chunk[i]?.hash ?? null, chunk[i]?.now ?? null);
      const res = await this.db.query<CheckinRow & { k: number }>(CHECKIN_READS.get(size)!, params, { name: `agent_checkin_${size}` });
      for (const { k, ...row } of res.rows) rows[from + k - 1] = { ...row, id: Number(row.id), settings_version: Number(row.settings_version) };
    }
    return rows;
  }

  /** The device behind a live token and the public key its agent signs with (acknowledgements, events). */
  async tokenOwner(hash: Buffer): Promise<{ deviceId: number; publicKey: Buffer | null } | undefined> {
    const res = await this.db.query<{ device_id: number; public_key: Buffer | null }>(
      `SELECT t.device_id, t.public_key FROM agent_tokens t JOIN devices d ON d.id = t.device_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND d.deleted_at IS NULL`,
      [hash],
      { name: 'agent_token_owner' },
    );
    const row = res.rows[0];
    return row && { deviceId: Number(row.device_id), publicKey: row.public_key };
  }

  /** The device row locked until the end of the transaction (live devices only). */
  async lockDevice(id: number): Promise<AgentDeviceRow | undefined> {
    const res = await this.db.query<AgentDeviceRow>(`SELECT ${COLUMNS} FROM devices d WHERE d.id = $1 AND d.deleted_at IS NULL FOR UPDATE`, [id]);
    const row = res.rows[0];
    return row && { ...row, id: Number(row.id) };
  }

  /** The live device with this IMEI, locked. */
  async lockDeviceByImei(imei: string): Promise<AgentDeviceRow | undefined> {
    const res = await this.db.query<AgentDeviceRow>(`SELECT ${COLUMNS} FROM devices d WHERE d.imei = $1 AND d.deleted_at IS NULL FOR UPDATE`, [imei]);
    const row = res.rows[0];
    return row && { ...row, id: Number(row.id) };
  }

  async secretOf(id: number): Promise<{ secret: Uint8Array; offlineCounter: number }> {
    const res = await this.db.query<{ secret: Uint8Array; offline_counter: number }>('SELECT secret, offline_counter FROM devices WHERE id = $1', [
      id,
    ]);
    return { secret: res.rows[0]!.secret, offlineCounter: res.rows[0]!.offline_counter };
  }

  /** Writes the machine's facts and what the agent reported (only the reported fields given). */
  async write(id: number, f: MachineFacts, now: Date, reported?: Reported): Promise<void> {
    const sets = [
      'lifecycle = $2',
      'lock_state = $3',
      'lock_type = $4',
      'lock_message = $5',
      'temporary_until = $6',
      'pending_command_id = $7',
      'pending_action = $8',
      'pending_until = $9',
      'failure_reason = $10',
      'held_lifecycle = $11',
      'updated_at = $12',
    ];
    const params: unknown[] = [
      id,
      f.lifecycle,
      f.lockState,
      f.lockType,
      f.lockMessage,
      f.temporaryUntil,
      f.pendingCommandId,
      f.pendingAction,
      f.pendingUntil,
      f.failureReason,
      f.heldLifecycle,
      now,
    ];
    if (reported) this.reportedSets(reported, sets, params);
    await this.db.query(`UPDATE devices SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  /**
   * What check-ins reported when no fact moved, many devices in one statement (PresenceWriter).
   * Each field is written only where its device reported it (`shape`, a bit per field). A row
   * another transaction holds is skipped, never waited for (a bulk action may hold thousands, in
   * another order), and so is one whose stored last-seen time is later (a check-in that moved facts,
   * or another replica, wrote after this report). Returns the rows written.
   * `wait`: a held row is waited for instead, for the check-in of a device the portal shows Sin
   * conexión (one row: its status changes with that write, and a lone row lock cannot deadlock).
   */
  async refreshMany(reports: readonly (readonly [number, Reported])[], { wait = false }: { wait?: boolean } = {}): Promise<number> {
    const cols: unknown[][] = [[], [], [], [], [], [], [], [], []];
    for (const [id, r] of reports) {
      const shape =
        (r.osVersion !== undefined ? 1 : 0) |
        (r.agentVersion !== undefined ? 2 : 0) |
        (r.sim !== undefined ? 4 : 0) |
        (r.batteryLevel !== undefined ? 8 : 0) |
        (r.agentLockState !== undefined ? 16 : 0);
      const row = [
        id,
        r.lastSeenAt,
        shape,
        r.osVersion ?? null,
        r.agentVersion ?? null,
        r.sim?.iccid ?? null,
        r.sim?.carrier ?? null,
        r.batteryLevel ?? null,
        r.agentLockState ?? null,
      ];
      row.forEach((v, i) => cols[i]!.push(v));
    }
    const kept = (column: string, bit: number) => `${column} = CASE WHEN r.shape & ${bit} = 0 THEN d.${column} ELSE r.${column} END`;
    const res = await this.db.query(
      `WITH r AS (
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::smallint[], $9::text[])
           AS r (id, seen, shape, os_version, agent_version, sim_iccid, sim_carrier, battery_level, agent_lock_state)
       ), free AS (
         SELECT d.id FROM devices d JOIN r ON r.id = d.id
          WHERE d.deleted_at IS NULL AND (d.last_seen_at IS NULL OR d.last_seen_at <= r.seen)
          ORDER BY d.id
            FOR UPDATE OF d${wait ? '' : ' SKIP LOCKED'}
       )
       UPDATE devices d
          SET last_seen_at = r.seen, ${kept('os_version', 1)}, ${kept('agent_version', 2)}, ${kept('sim_iccid', 4)}, ${kept('sim_carrier', 4)},
              ${kept('battery_level', 8)}, ${kept('agent_lock_state', 16)}
         FROM r JOIN free USING (id)
        WHERE d.id = r.id AND d.deleted_at IS NULL AND (d.last_seen_at IS NULL OR d.last_seen_at <= r.seen)`,
      cols,
      { name: wait ? 'agent_presence_wait' : 'agent_presence' },
    );
    return res.rowCount;
  }

  /** Adds the SET items of what was reported. */
  private reportedSets(reported: Reported, sets: string[], params: unknown[]): void {
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    set('last_seen_at', reported.lastSeenAt);
    if (reported.osVersion !== undefined) set('os_version', reported.osVersion);
    if (reported.agentVersion !== undefined) set('agent_version', reported.agentVersion);
    if (reported.sim !== undefined) {
      set('sim_iccid', reported.sim?.iccid ?? null);
      set('sim_carrier', reported.sim?.carrier ?? null);
    }
    if (reported.batteryLevel !== undefined) set('battery_level', reported.batteryLevel);
    if (reported.agentLockState !== undefined) set('agent_lock_state', reported.agentLockState);
  }

  /** What enrollment writes besides the facts: identity details the registry lacks, when, the group. */
  async writeEnrollment(
    id: number,
    e: { imei2: string | null; serial: string | null; brand: string | null; model: string | null; groupId: number | null; now: Date },
  ): Promise<void> {
    await this.db.query(
      `UPDATE devices SET imei2 = coalesce(imei2, $2), serial = coalesce(serial, $3), brand = coalesce(brand, $4), model = coalesce(model, $5),
              group_id = coalesce(group_id, $6), enrolled_at = coalesce(enrolled_at, $7)
        WHERE id = $1`,
      [id, e.imei2, e.serial, e.brand, e.model, e.groupId, e.now],
    );
  }

  /** A device nobody registered, created by its enrollment (allowed by its group's settings). */
  async insertDevice(d: {
    imei: string;
    imei2: string | null;
    serial: string | null;
    deviceType: number;
    brand: string | null;
    model: string | null;
    groupId: number;
    secret: Buffer;
    now: Date;
  }): Promise<AgentDeviceRow> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO devices (imei, imei2, serial, device_type, brand, model, group_id, secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
      [d.imei, d.imei2, d.serial, d.deviceType, d.brand, d.model, d.groupId, d.secret, d.now],
    );
    return (await this.lockDevice(Number(res.rows[0]!.id)))!;
  }

  // Tokens ------------------------------------------------------------------------------

  /** A new device token and the key its agent signs with; every earlier token of the device stops working. */
  async replaceAgentToken(deviceId: number, hash: Buffer, publicKey: Buffer, now: Date): Promise<void> {
    await this.revokeAgentTokens([deviceId], now);
    await this.db.query('INSERT INTO agent_tokens (token_hash, device_id, public_key, created_at) VALUES ($1, $2, $3, $4)', [
      hash,
      deviceId,
      publicKey,
      now,
    ]);
  }

  /**
   * A new offline secret: the offline codes issued with the previous one and not redeemed can no
   * longer be redeemed (they are cancelled with `reason`). Returns the device's offline counter,
   * after which the new secret's codes start.
   */
  async rotateSecret(deviceId: number, secret: Buffer, reason: string, now: Date): Promise<number> {
    await this.db.query(
      `UPDATE device_commands SET status = 'cancelled', result = $2, acknowledged_at = $3 WHERE device_id = $1 AND status = 'issued'`,
      [deviceId, reason, now],
    );
    const res = await this.db.query<{ offline_counter: number }>('UPDATE devices SET secret = $2 WHERE id = $1 RETURNING offline_counter', [
      deviceId,
      secret,
    ]);
    return Number(res.rows[0]!.offline_counter);
  }

  async revokeAgentTokens(deviceIds: readonly number[], now: Date): Promise<void> {
    await this.db.query('UPDATE agent_tokens SET revoked_at = $2 WHERE device_id = ANY($1::bigint[]) AND revoked_at IS NULL', [deviceIds, now]);
  }

  /** The enrollment token with this hash, locked (its use is counted). */
  async lockEnrollmentToken(hash: Buffer): Promise<EnrollmentTokenRow | undefined> {
    const res = await this.db.query<EnrollmentTokenRow>(
      'SELECT id, group_id, device_id, expires_at, revoked_at, used_at FROM enrollment_tokens WHERE token_hash = $1 FOR UPDATE',
      [hash],
    );
    const row = res.rows[0];
    return row && { ...row, device_id: row.device_id === null ? null : Number(row.device_id) };
  }

  async countEnrollmentUse(id: number, now: Date): Promise<void> {
    await this.db.query('UPDATE enrollment_tokens SET uses = uses + 1, last_used_at = $2 WHERE id = $1', [id, now]);
  }

  /**
   * After a device enrolled: its own tokens are spent (the one it used is marked used; any other
   * live one is revoked), so enrolling it again takes a new authorisation.
   */
  async spendDeviceTokens(deviceId: number, usedTokenId: number | null, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE enrollment_tokens SET revoked_at = $3, used_at = CASE WHEN id = $2 THEN $3 ELSE used_at END
        WHERE device_id = $1 AND revoked_at IS NULL`,
      [deviceId, usedTokenId, now],
    );
  }

  // Commands ----------------------------------------------------------------------------

  /** The commands the device may receive now, oldest first. */
  async deliverable(deviceId: number, now: Date): Promise<DeliverableRow[]> {
    const res = await this.db.query<DeliverableRow>(
      `SELECT c.id, c.action, c.payload, c.requested_at, c.delivered_at FROM device_commands c
        WHERE c.device_id = $1 AND c.status = 'pending' AND c.deliver_after <= $2 ORDER BY c.id`,
      [deviceId, now],
      { name: 'agent_deliverable' },
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /**
   * Marks first deliveries; returns the ids it marked. A command cancelled meanwhile is not
   * marked (and not sent): the row lock orders this against the cancellation.
   */
  async markDelivered(ids: readonly number[], now: Date): Promise<Set<number>> {
    const res = await this.db.query<{ id: number }>(
      `UPDATE device_commands SET delivered_at = $2 WHERE id = ANY($1::bigint[]) AND status = 'pending' AND delivered_at IS NULL RETURNING id`,
      [ids, now],
    );
    return new Set(res.rows.map((r) => Number(r.id)));
  }

  async lockCommand(id: number): Promise<AgentCommandRow | undefined> {
    const res = await this.db.query<AgentCommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.id = $1 FOR UPDATE`, [id]);
    const row = res.rows[0];
    return row && { ...row, id: Number(row.id), device_id: Number(row.device_id) };
  }

  /** The device id of a command (whose it is), without locking. */
  async commandDevice(id: number): Promise<number | undefined> {
    const res = await this.db.query<{ device_id: number }>('SELECT device_id FROM device_commands WHERE id = $1', [id]);
    return res.rows[0] ? Number(res.rows[0].device_id) : undefined;
  }

  async completeCommand(id: number, status: 'acknowledged' | 'rejected', result: string | null, now: Date): Promise<AgentCommandRow> {
    const res = await this.db.query<AgentCommandRow>(
      `UPDATE device_commands c SET status = $2, result = $3, acknowledged_at = $4, delivered_at = coalesce(c.delivered_at, $4)
        WHERE c.id = $1 RETURNING ${COMMAND_COLUMNS}`,
      [id, status, result, now],
    );
    const row = res.rows[0]!;
    return { ...row, id: Number(row.id), device_id: Number(row.device_id) };
  }

  /** The offline-code record of a nonce, locked. */
  async lockOfflineCode(deviceId: number, nonce: number): Promise<AgentCommandRow | undefined> {
    const res = await this.db.query<AgentCommandRow>(
      `SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.device_id = $1 AND c.nonce = $2 AND c.status IN ('issued', 'redeemed') FOR UPDATE`,
      [deviceId, nonce],
    );
    const row = res.rows[0];
    return row && { ...row, id: Number(row.id), device_id: Number(row.device_id) };
  }

  async redeemOfflineCode(id: number, now: Date): Promise<AgentCommandRow> {
    const res = await this.db.query<AgentCommandRow>(
      `UPDATE device_commands c SET status = 'redeemed', acknowledged_at = $2, delivered_at = coalesce(c.delivered_at, $2)
        WHERE c.id = $1 RETURNING ${COMMAND_COLUMNS}`,
      [id, now],
    );
    const row = res.rows[0]!;
    return { ...row, id: Number(row.id), device_id: Number(row.device_id) };
  }

  /** The highest nonce already redeemed on the device (the agent accepts codes after it). */
  async lastRedeemedNonce(deviceId: number): Promise<number> {
    const res = await this.db.query<{ n: number | null }>(
      `SELECT max(nonce) AS n FROM device_commands WHERE device_id = $1 AND status = 'redeemed'`,
      [deviceId],
    );
    return Number(res.rows[0]?.n ?? 0);
  }

  // Settings ----------------------------------------------------------------------------

  /** The global row and the group's override of a device type: their values and the greater version. */
  async settingsRows(
    deviceType: number,
    groupId: number | null,
  ): Promise<{ global?: Record<string, unknown>; group?: Record<string, unknown>; version: number }> {
    const res = await this.db.query<{ group_id: number | null; settings: Record<string, unknown>; version: number }>(
      'SELECT group_id, settings, version FROM agent_settings WHERE device_type = $1 AND (group_id IS NULL OR group_id = $2)',
      [deviceType, groupId],
    );
    const global = res.rows.find((r) => r.group_id === null);
    const group = res.rows.find((r) => r.group_id !== null);
    return { global: global?.settings, group: group?.settings, version: Math.max(0, ...res.rows.map((r) => Number(r.version))) };
  }

  // Server clock ------------------------------------------------------------------------

  /** Devices whose temporary unlock has run out, locked for the sweep (other replicas skip them). */
  async lockExpiredTemporary(now: Date, limit: number): Promise<AgentDeviceRow[]> {
    const res = await this.db.query<AgentDeviceRow>(
      `SELECT ${COLUMNS} FROM devices d
        WHERE d.deleted_at IS NULL AND d.lock_state = 'temporary_active' AND d.temporary_until <= $1
        ORDER BY d.temporary_until LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** Pending commands by action (for /metrics). */
  async pendingByAction(): Promise<{ action: number; n: number }[]> {
    const res = await this.db.query<{ action: number; n: number }>(
      `SELECT action, count(*) AS n FROM device_commands WHERE status = 'pending' GROUP BY action`,
    );
    return res.rows.map((r) => ({ action: r.action, n: Number(r.n) }));
  }
}
