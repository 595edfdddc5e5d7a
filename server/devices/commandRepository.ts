/**
 * The SQL of device actions: the device row locked for an action, the commands (the history),
 * offline-code counters, soft deletion, bulk selections and the set-based statements of the
 * bulk-action batches; the agent settings rows the lock dialog's proposed lock type comes from.
 * Plain parameterised SQL, the same on PostgreSQL and PGlite.
 */
import type { Command, CommandStatus } from '../../../shared/contracts/deviceActions';
import type { BulkSelection } from '../../../shared/contracts/jobs';
import type { LockType } from '../../../shared/constants/domain';
import { statusSql } from '../../../shared/deviceStatus';
import type { Queryable } from '../../db/Db';
import { DEVICE_COLUMNS, DEVICE_JOINS, SqlWhere, deviceWhere, type DeviceRow } from './deviceQueries';

export interface CommandRow {
  id: number;
  device_id: number;
  action: number;
  payload: Record<string, unknown>;
  origin: number | null;
  status: CommandStatus;
  requested_at: Date;
  requested_by: string | null;
  deliver_after: Date;
  delivered_at: Date | null;
  acknowledged_at: Date | null;
  result: string | null;
  nonce: number | null;
  expires_at: Date | null;
  job_id: number | null;
}

const COMMAND_COLUMNS = `c.id, c.device_id, c.action, c.payload, c.origin, c.status, c.requested_at, c.requested_by, c.deliver_after,
  c.delivered_at, c.acknowledged_at, c.result, c.nonce, c.expires_at, c.job_id`;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** Whether a command can still be cancelled: waiting, and not yet received by the device (a RELEASE inside its window included). */
export function isCancellable(r: Pick<CommandRow, 'status' | 'delivered_at'>): boolean {
  return r.status === 'pending' && r.delivered_at === null;
}

/** A command row as the API answers it. */
export function toCommand(r: CommandRow): Command {
  return {
    id: Number(r.id),
    deviceId: Number(r.device_id),
    action: r.action,
    payload: r.payload ?? {},
    origin: r.origin,
    status: r.status,
    requestedAt: iso(r.requested_at)!,
    requestedBy: r.requested_by,
    deliverAfter: iso(r.deliver_after)!,
    deliveredAt: iso(r.delivered_at),
    acknowledgedAt: iso(r.acknowledged_at),
    result: r.result,
    expiresAt: iso(r.expires_at),
    cancellable: isCancellable(r),
    jobId: r.job_id === null ? null : Number(r.job_id),
  };
}

export interface NewCommand {
  deviceId: number;
  action: number;
  payload: Record<string, unknown>;
  origin: number | null;
  status: CommandStatus;
  requestedAt: Date;
  requestedByAdminId: number | null;
  requestedBy: string | null;
  deliverAfter: Date;
  acknowledgedAt?: Date | null;
  nonce?: number | null;
  expiresAt?: Date | null;
  jobId?: number | null;
}

/** A row of `agent_settings`: a device type's global values (group_id null) or a group's overrides. */
export interface AgentSettingsRow {
  device_type: number;
  group_id: number | null;
  settings: Record<string, unknown>;
}

/** A device locked for an action: its row, whether it is deleted. */
export type LockedDevice = DeviceRow & { deleted_at: Date | null };

/** What the bulk rules need of a device, computed in SQL (derived status with the offline overlay). */
export interface DeviceRuleRow {
  id: number;
  status: number;
  lock_type: LockType | null;
  pending_action: number | null;
  deleted: boolean;
}

/** Matched devices per (derived status, lock type, command in flight): the bulk dry run's input. */
export interface SelectionGroup {
  status: number;
  lock_type: LockType | null;
  pending_action: number | null;
  n: number;
  /** Of them, not seen since the offline cutoff. */
  offline: number;
}

/** The live devices of a bulk selection (ids, or the list filter), on the alias `d`. */
export function selectionWhere(selection: BulkSelection, cutoff: Date): SqlWhere {
  if (selection.ids) {
    const where = new SqlWhere();
    return where.add('d.deleted_at IS NULL').add(`d.id = ANY(${where.param(selection.ids)}::bigint[])`);
  }
  return deviceWhere(selection.filter ?? {}, cutoff);
}

export class DeviceCommandsRepository {
  constructor(private readonly db: Queryable) {}

  /** The device row (deleted or not) locked until the end of the transaction. */
  async lockDevice(id: number): Promise<LockedDevice | undefined> {
    const res = await this.db.query<LockedDevice>(
      `SELECT ${DEVICE_COLUMNS}, d.deleted_at FROM devices d ${DEVICE_JOINS} WHERE d.id = $1 FOR UPDATE OF d`,
      [id],
    );
    return res.rows[0];
  }

  /** The device row as the API answers it (live devices only). */
  async findDevice(id: number): Promise<DeviceRow | undefined> {
    const res = await this.db.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $1 AND d.deleted_at IS NULL`, [
      id,
    ]);
    return res.rows[0];
  }

  /** Whether a device with this id was ever registered (deleted ones included). */
  async deviceExists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM devices WHERE id = $1', [id]);
    return res.rows.length > 0;
  }

  async secretOf(id: number): Promise<Uint8Array | undefined> {
    const res = await this.db.query<{ secret: Uint8Array }>('SELECT secret FROM devices WHERE id = $1', [id]);
    return res.rows[0]?.secret;
  }

  async insertCommand(c: NewCommand): Promise<CommandRow> {
    const res = await this.db.query<CommandRow>(
      `INSERT INTO device_commands AS c (device_id, action, payload, origin, status, requested_at, requested_by_admin_id, requested_by,
                                         deliver_after, acknowledged_at, nonce, expires_at, job_id)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING ${COMMAND_COLUMNS}`,
      [
        c.deviceId,
        c.action,
        JSON.stringify(c.payload),
        c.origin,
        c.status,
        c.requestedAt,
        c.requestedByAdminId,
        c.requestedBy,
        c.deliverAfter,
        c.acknowledgedAt ?? null,
        c.nonce ?? null,
        c.expiresAt ?? null,
        c.jobId ?? null,
      ],
    );
    return res.rows[0]!;
  }

  /** The device now waits for this stateful command. */
  async setPending(deviceId: number, commandId: number, action: number, until: Date | null, now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET pending_command_id = $2, pending_action = $3, pending_until = $4, updated_at = $5 WHERE id = $1', [
      deviceId,
      commandId,
      action,
      until,
      now,
    ]);
  }

  /** Puts a device on administrative hold (SUSPENDED) or ends it: the lifecycle and the one to return to. */
  async setHold(deviceId: number, lifecycle: string, heldLifecycle: string | null, now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET lifecycle = $2, held_lifecycle = $3, updated_at = $4 WHERE id = $1', [
      deviceId,
      lifecycle,
      heldLifecycle,
      now,
    ]);
  }

  async clearPending(deviceId: number, now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET pending_command_id = NULL, pending_action = NULL, pending_until = NULL, updated_at = $2 WHERE id = $1', [
      deviceId,
      now,
    ]);
  }

  /** One more offline code for the device: its nonce. */
  async nextOfflineNonce(deviceId: number, now: Date): Promise<{ nonce: number; secret: Uint8Array }> {
    const res = await this.db.query<{ offline_counter: number; secret: Uint8Array }>(
      'UPDATE devices SET offline_counter = offline_counter + 1, updated_at = $2 WHERE id = $1 RETURNING offline_counter, secret',
      [deviceId, now],
    );
    const row = res.rows[0]!;
    return { nonce: row.offline_counter, secret: row.secret };
  }

  /** Soft delete; commands still waiting for the agent (notifications…) are cancelled, not dropped silently. */
  async softDelete(deviceIds: readonly number[], now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET deleted_at = $2, updated_at = $2 WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL', [deviceIds, now]);
    await this.db.query("UPDATE device_commands SET status = 'cancelled' WHERE device_id = ANY($1::bigint[]) AND status = 'pending'", [deviceIds]);
    // The device's agent can no longer call the agent API.
    await this.db.query('UPDATE agent_tokens SET revoked_at = $2 WHERE device_id = ANY($1::bigint[]) AND revoked_at IS NULL', [deviceIds, now]);
  }

  /** A command by its id alone (the integration API reads a command's status). */
  async findCommandById(commandId: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.id = $1`, [commandId]);
    return res.rows[0];
  }

  async findCommand(deviceId: number, commandId: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.id = $1 AND c.device_id = $2`, [
      commandId,
      deviceId,
    ]);
    return res.rows[0];
  }

  /** Cancels the command unless a check-in has received it meanwhile (the row lock decides which came first). */
  async cancelUndelivered(commandId: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(
      `UPDATE device_commands c SET status = 'cancelled' WHERE c.id = $1 AND c.status = 'pending' AND c.delivered_at IS NULL RETURNING ${COMMAND_COLUMNS}`,
      [commandId],
    );
    return res.rows[0];
  }

  async setCommandStatus(commandId: number, status: CommandStatus): Promise<CommandRow> {
    const res = await this.db.query<CommandRow>(`UPDATE device_commands c SET status = $2 WHERE c.id = $1 RETURNING ${COMMAND_COLUMNS}`, [
      commandId,
      status,
    ]);
    return res.rows[0]!;
  }

  /** The device's commands, newest first. */
  async history(deviceId: number, page: { offset: number; limit: number }): Promise<CommandRow[]> {
    const res = await this.db.query<CommandRow>(
      `SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.device_id = $1 ORDER BY c.id DESC LIMIT $2 OFFSET $3`,
      [deviceId, page.limit, page.offset],
    );
    return res.rows;
  }

  async countHistory(deviceId: number): Promise<number> {
    const res = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM device_commands WHERE device_id = $1', [deviceId]);
    return res.rows[0]!.n;
  }

  // Bulk --------------------------------------------------------------------------------

  /** The matched devices grouped by what the rules look at (one row per combination, set-based). */
  async selectionGroups(selection: BulkSelection, cutoff: Date): Promise<SelectionGroup[]> {
    const where = selectionWhere(selection, cutoff);
    const c = where.param(cutoff);
    const res = await this.db.query<SelectionGroup>(
      `SELECT ${statusSql(`${c}::timestamptz`, 'd')} AS status, d.lock_type, d.pending_action, count(*) AS n,
              count(*) FILTER (WHERE d.last_seen_at < ${c}::timestamptz) AS offline
         FROM devices d ${where}
        GROUP BY 1, 2, 3`,
      where.params,
    );
    return res.rows.map((r) => ({ ...r, status: Number(r.status), n: Number(r.n), offline: Number(r.offline) }));
  }

  /** The matched devices in id order, at most `limit` (one more than allowed tells "too many"). */
  async selectionDevices(selection: BulkSelection, cutoff: Date, limit: number): Promise<DeviceRuleRow[]> {
    const where = selectionWhere(selection, cutoff);
    const c = where.param(cutoff);
    const l = where.param(limit);
    const res = await this.db.query<DeviceRuleRow>(
      `SELECT d.id, ${statusSql(`${c}::timestamptz`, 'd')} AS status, d.lock_type, d.pending_action, false AS deleted
         FROM devices d ${where} ORDER BY d.id LIMIT ${l}`,
      where.params,
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) }));
  }

  /** A batch's devices locked in id order (no deadlock between batches), with what the rules need. */
  async lockBatch(ids: readonly number[], cutoff: Date): Promise<DeviceRuleRow[]> {
    const res = await this.db.query<DeviceRuleRow>(
      `SELECT d.id, ${statusSql('$2::timestamptz', 'd')} AS status, d.lock_type, d.pending_action, d.deleted_at IS NOT NULL AS deleted
         FROM devices d WHERE d.id = ANY($1::bigint[]) ORDER BY d.id FOR UPDATE`,
      [ids, cutoff],
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) }));
  }

  /** One command per device, set-based; returns the command id of each device. */
  async insertCommands(deviceIds: readonly number[], c: Omit<NewCommand, 'deviceId' | 'nonce' | 'expiresAt'>): Promise<Map<number, number>> {
    const res = await this.db.query<{ id: number; device_id: number }>(
      `INSERT INTO device_commands (device_id, action, payload, origin, status, requested_at, requested_by_admin_id, requested_by,
                                    deliver_after, acknowledged_at, job_id)
       SELECT u.id, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11 FROM unnest($1::bigint[]) AS u(id) ORDER BY u.id
       RETURNING id, device_id`,
      [
        deviceIds,
        c.action,
        JSON.stringify(c.payload),
        c.origin,
        c.status,
        c.requestedAt,
        c.requestedByAdminId,
        c.requestedBy,
        c.deliverAfter,
        c.acknowledgedAt ?? null,
        c.jobId ?? null,
      ],
    );
    return new Map(res.rows.map((r) => [Number(r.device_id), Number(r.id)]));
  }

  /** The devices now wait for their new stateful commands, set-based. */
  async setPendingMany(commands: Map<number, number>, action: number, until: Date | null, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE devices d SET pending_command_id = c.command_id, pending_action = $3, pending_until = $4, updated_at = $5
         FROM unnest($1::bigint[], $2::bigint[]) AS c(device_id, command_id)
        WHERE d.id = c.device_id`,
      [[...commands.keys()], [...commands.values()], action, until, now],
    );
  }

  /**
   * The agent settings rows of every device type (the global one and each group's override),
   * read for the lock type the portal proposes (GET /devices/lock-defaults).
   */
  async agentSettingsRows(): Promise<AgentSettingsRow[]> {
    const res = await this.db.query<AgentSettingsRow>(
      'SELECT device_type, group_id, settings FROM agent_settings ORDER BY device_type, group_id NULLS FIRST',
    );
    return res.rows.map((r) => ({
      device_type: Number(r.device_type),
      group_id: r.group_id === null ? null : Number(r.group_id),
      settings: r.settings,
    }));
  }
}
