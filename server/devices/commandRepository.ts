/**
 * All SQL of `device_commands`: a device's commands (what the portal, the integration and the bulk
 * jobs request; what the agent receives, acknowledges or rejects; the offline codes issued and
 * redeemed; the history). One row type, `CommandRow`. Plain parameterised SQL, the same on
 * PostgreSQL and PGlite. A new deliverable command wakes the waiting check-ins through a trigger
 * (NOTIFY agent_commands); every trigger is in docs/architecture.md, "Side effects kept in database
 * triggers".
 */
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import type { Command, CommandStatus } from '../../shared/contracts/deviceActions';
import type { Queryable } from '../db/Db';

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

/** Ids as numbers (PostgreSQL's bigint arrives as text). */
const commandRow = (r: CommandRow): CommandRow => ({
  ...r,
  id: Number(r.id),
  device_id: Number(r.device_id),
  job_id: r.job_id === null ? null : Number(r.job_id),
});

/** A command as a check-in delivers it. */
export type DeliverableRow = Pick<CommandRow, 'id' | 'action' | 'payload' | 'requested_at' | 'delivered_at'>;

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

export class CommandRepository {
  constructor(private readonly db: Queryable) {}

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
    return commandRow(res.rows[0]!);
  }

  /**
   * Commands with ids of their own, in one statement, answered in the order given: a batch of
   * device actions takes its ids first (`reserveIds`) so each one's audit can name its command.
   */
  async insertWithIds(cs: readonly (NewCommand & { id: number })[]): Promise<CommandRow[]> {
    if (cs.length === 0) return [];
    const col = <T>(f: (c: NewCommand & { id: number }) => T) => cs.map(f);
    const res = await this.db.query<CommandRow>(
      `INSERT INTO device_commands AS c (id, device_id, action, payload, origin, status, requested_at, requested_by_admin_id, requested_by,
                                         deliver_after, acknowledged_at, nonce, expires_at, job_id)
       SELECT u.id, u.device_id, u.action, u.payload, u.origin, u.status, u.requested_at, u.requested_by_admin_id, u.requested_by,
              u.deliver_after, u.acknowledged_at, u.nonce, u.expires_at, u.job_id
         FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::jsonb[], $5::smallint[], $6::text[], $7::timestamptz[], $8::integer[],
                     $9::text[], $10::timestamptz[], $11::timestamptz[], $12::integer[], $13::timestamptz[], $14::bigint[])
              AS u(id, device_id, action, payload, origin, status, requested_at, requested_by_admin_id, requested_by, deliver_after,
                   acknowledged_at, nonce, expires_at, job_id)
       RETURNING ${COMMAND_COLUMNS}`,
      [
        col((c) => c.id),
        col((c) => c.deviceId),
        col((c) => c.action),
        col((c) => JSON.stringify(c.payload)),
        col((c) => c.origin),
        col((c) => c.status),
        col((c) => c.requestedAt),
        col((c) => c.requestedByAdminId),
        col((c) => c.requestedBy),
        col((c) => c.deliverAfter),
        col((c) => c.acknowledgedAt ?? null),
        col((c) => c.nonce ?? null),
        col((c) => c.expiresAt ?? null),
        col((c) => c.jobId ?? null),
      ],
    );
    const byId = new Map(res.rows.map((r) => [Number(r.id), commandRow(r)]));
    return cs.map((c) => byId.get(c.id)!);
  }

  /** `n` new command ids from the table's sequence. */
  async reserveIds(n: number): Promise<number[]> {
    if (n === 0) return [];
    const res = await this.db.query<{ id: number }>(
      `SELECT nextval(pg_get_serial_sequence('device_commands', 'id')) AS id FROM generate_series(1, $1::integer)`,
      [n],
    );
    return res.rows.map((r) => Number(r.id));
  }

  /** A command by its id alone (the integration API reads a command's status). */
  async findCommandById(commandId: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.id = $1`, [commandId]);
    const row = res.rows[0];
    return row && commandRow(row);
  }

  async findCommand(deviceId: number, commandId: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.id = $1 AND c.device_id = $2`, [
      commandId,
      deviceId,
    ]);
    const row = res.rows[0];
    return row && commandRow(row);
  }

  /** Cancels the command unless a check-in has received it meanwhile (the row lock decides which came first). */
  async cancelUndelivered(commandId: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(
      `UPDATE device_commands c SET status = 'cancelled' WHERE c.id = $1 AND c.status = 'pending' AND c.delivered_at IS NULL RETURNING ${COMMAND_COLUMNS}`,
      [commandId],
    );
    const row = res.rows[0];
    return row && commandRow(row);
  }

  async setCommandStatus(commandId: number, status: CommandStatus): Promise<CommandRow> {
    const res = await this.db.query<CommandRow>(`UPDATE device_commands c SET status = $2 WHERE c.id = $1 RETURNING ${COMMAND_COLUMNS}`, [
      commandId,
      status,
    ]);
    return commandRow(res.rows[0]!);
  }

  /** The device's commands, newest first. */
  async history(deviceId: number, page: { offset: number; limit: number }): Promise<CommandRow[]> {
    const res = await this.db.query<CommandRow>(
      `SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.device_id = $1 ORDER BY c.id DESC LIMIT $2 OFFSET $3`,
      [deviceId, page.limit, page.offset],
    );
    return res.rows.map(commandRow);
  }

  async countHistory(deviceId: number): Promise<number> {
    const res = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM device_commands WHERE device_id = $1', [deviceId]);
    return res.rows[0]!.n;
  }

  /**
   * For each of these devices with one, when its last unlock-kind command (UNLOCK and the offline
   * unlocks) requested after `since` by someone other than `except` was requested.
   */
  async lastUnlockRequests(deviceIds: readonly number[], since: Date, except: string): Promise<Map<number, Date>> {
    if (deviceIds.length === 0) return new Map();
    const res = await this.db.query<{ device_id: number; at: Date }>(
      `SELECT device_id, max(requested_at) AS at FROM device_commands
        WHERE device_id = ANY($1::bigint[]) AND action = ANY($2::smallint[]) AND requested_at > $3 AND requested_by IS DISTINCT FROM $4
        GROUP BY device_id`,
      [[...deviceIds], [DEVICE_ACTION.UNLOCK, DEVICE_ACTION.UNLOCK_OFFLINE, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE], since, except],
    );
    return new Map(res.rows.map((r) => [Number(r.device_id), new Date(r.at)]));
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

  /**
   * Ends a RELEASE's cancel window at `now` (Entregar ahora) unless a check-in received it or it was
   * cancelled meanwhile; the UPDATE does not fire the insert trigger, so the waiting check-ins of
   * the device are woken here, at commit, the same way.
   */
  async deliverNow(commandId: number, now: Date): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(
      `UPDATE device_commands c SET deliver_after = $2
        WHERE c.id = $1 AND c.status = 'pending' AND c.delivered_at IS NULL AND c.deliver_after > $2 RETURNING ${COMMAND_COLUMNS}`,
      [commandId, now],
    );
    const row = res.rows[0];
    if (!row) return undefined;
    await this.db.query("SELECT pg_notify('agent_commands', $1)", [String(row.device_id)]);
    return commandRow(row);
  }

  /** Commands still waiting for the agent of deleted devices are cancelled, not dropped silently. */
  async cancelPendingOf(deviceIds: readonly number[]): Promise<void> {
    await this.db.query("UPDATE device_commands SET status = 'cancelled' WHERE device_id = ANY($1::bigint[]) AND status = 'pending'", [deviceIds]);
  }

  /** Offline codes issued with a secret the device no longer holds, not redeemed: cancelled with `reason`. */
  async cancelIssuedCodes(deviceId: number, reason: string, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE device_commands SET status = 'cancelled', result = $2, acknowledged_at = $3 WHERE device_id = $1 AND status = 'issued'`,
      [deviceId, reason, now],
    );
  }

  // The agent ------------------------------------------------------------------------------

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

  async lockCommand(id: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.id = $1 FOR UPDATE`, [id]);
    const row = res.rows[0];
    return row && commandRow(row);
  }

  /** The device id of a command (whose it is), without locking. */
  async commandDevice(id: number): Promise<number | undefined> {
    const res = await this.db.query<{ device_id: number }>('SELECT device_id FROM device_commands WHERE id = $1', [id]);
    return res.rows[0] ? Number(res.rows[0].device_id) : undefined;
  }

  async completeCommand(id: number, status: 'acknowledged' | 'rejected', result: string | null, now: Date): Promise<CommandRow> {
    const res = await this.db.query<CommandRow>(
      `UPDATE device_commands c SET status = $2, result = $3, acknowledged_at = $4, delivered_at = coalesce(c.delivered_at, $4)
        WHERE c.id = $1 RETURNING ${COMMAND_COLUMNS}`,
      [id, status, result, now],
    );
    return commandRow(res.rows[0]!);
  }

  /** The offline-code record of a nonce, locked. */
  async lockOfflineCode(deviceId: number, nonce: number): Promise<CommandRow | undefined> {
    const res = await this.db.query<CommandRow>(
      `SELECT ${COMMAND_COLUMNS} FROM device_commands c WHERE c.device_id = $1 AND c.nonce = $2 AND c.status IN ('issued', 'redeemed') FOR UPDATE`,
      [deviceId, nonce],
    );
    const row = res.rows[0];
    return row && commandRow(row);
  }

  async redeemOfflineCode(id: number, now: Date): Promise<CommandRow> {
    const res = await this.db.query<CommandRow>(
      `UPDATE device_commands c SET status = 'redeemed', acknowledged_at = $2, delivered_at = coalesce(c.delivered_at, $2)
        WHERE c.id = $1 RETURNING ${COMMAND_COLUMNS}`,
      [id, now],
    );
    return commandRow(res.rows[0]!);
  }

  /** Pending commands by action (for /metrics). */
  async pendingByAction(): Promise<{ action: number; n: number }[]> {
    const res = await this.db.query<{ action: number; n: number }>(
      `SELECT action, count(*) AS n FROM device_commands WHERE status = 'pending' GROUP BY action`,
    );
    return res.rows.map((r) => ({ action: r.action, n: Number(r.n) }));
  }
}
