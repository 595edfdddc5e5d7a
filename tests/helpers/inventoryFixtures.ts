/**
 * Devices for tests, written straight into the tables (the facts a test needs, nothing more).
 * The registry's own code paths are tested through the API; these fixtures give the other
 * suites (actions, bulk, lists) devices in any state without an agent.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../server/db/Db';
import type { LockType } from '../../shared/constants/domain';
import { luhnCheckDigit } from '../../shared/contracts/devices';
import type { Lifecycle, LockState } from '../../shared/deviceStatus';

/** A valid IMEI (Luhn) built from a number: the same n always gives the same IMEI. */
export function testImei(n: number, prefix = '35'): string {
  const body = `${prefix}${String(n).padStart(14 - prefix.length, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

export interface DeviceFixture {
  imei?: string;
  deviceType?: 1 | 2;
  lifecycle?: Lifecycle;
  lockState?: LockState;
  lockType?: LockType | null;
  failureReason?: string | null;
  lastSeenAt?: Date | null;
  groupId?: number | null;
  brand?: string | null;
  model?: string | null;
  serial?: string | null;
  customerName?: string | null;
  creditReference?: string | null;
  agentVersion?: string | null;
  osVersion?: string | null;
  simCarrier?: string | null;
  createdAt?: Date;
}

let counter = 0;

/** Inserts devices (one row per fixture, defaults: an enrolled, active smartphone seen now); returns their ids. */
export async function insertDevices(db: Queryable, fixtures: DeviceFixture[]): Promise<number[]> {
  const ids: number[] = [];
  for (const f of fixtures) {
    counter += 1;
    const lifecycle = f.lifecycle ?? 'operating';
    const res = await db.query<{ id: string }>(
      `INSERT INTO devices (imei, device_type, lifecycle, lock_state, lock_type, failure_reason, last_seen_at, group_id,
                            brand, model, serial, customer_name, credit_reference, created_at, enrolled_at, secret, agent_version,
                            os_version, sim_carrier)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id`,
      [
        f.imei ?? testImei(900_000 + counter, '86'),
        f.deviceType ?? 1,
        lifecycle,
        f.lockState ?? 'active',
        f.lockType ?? (f.lockState === 'locked' ? 'PorCredito' : null),
        f.failureReason ?? null,
        f.lastSeenAt === undefined ? (lifecycle === 'pre_enrolled' ? null : new Date()) : f.lastSeenAt,
        f.groupId ?? null,
        f.brand ?? 'Samsung',
        f.model ?? 'Galaxy A15',
        f.serial ?? null,
        f.customerName ?? null,
        f.creditReference ?? null,
        f.createdAt ?? new Date(),
        lifecycle === 'pre_enrolled' ? null : new Date(),
        randomBytes(32),
        f.agentVersion ?? null,
        f.osVersion ?? null,
        f.simCarrier ?? null,
      ],
    );
    ids.push(Number(res.rows[0]!.id));
  }
  return ids;
}

/** Inserts a device group; returns its id. */
export async function insertGroup(db: Queryable, name: string, description: string | null = null): Promise<number> {
  const res = await db.query<{ id: number }>('INSERT INTO device_groups (name, description) VALUES ($1, $2) RETURNING id', [name, description]);
  return res.rows[0]!.id;
}

// Helper B (actions, bulk) ---------------------------------------------------------------

/**
 * Gives a device a command in flight, as the actions API leaves it: a pending device_commands
 * row and the device's pending fields. Returns the command id.
 */
export async function setPendingCommand(
  db: Queryable,
  deviceId: number,
  action: number,
  opts: { until?: Date | null; deliverAfter?: Date; requestedBy?: string } = {},
): Promise<number> {
  const res = await db.query<{ id: string }>(
    `INSERT INTO device_commands (device_id, action, status, requested_by, deliver_after)
     VALUES ($1, $2, 'pending', $3, $4) RETURNING id`,
    [deviceId, action, opts.requestedBy ?? 'fixture@demo.local', opts.deliverAfter ?? new Date()],
  );
  const commandId = Number(res.rows[0]!.id);
  await db.query('UPDATE devices SET pending_command_id = $2, pending_action = $3, pending_until = $4 WHERE id = $1', [
    deviceId,
    commandId,
    action,
    opts.until ?? null,
  ]);
  return commandId;
}

let manyCounter = 0;

/**
 * Many devices with the same facts in one statement (thousands in a fraction of a second); IMEIs
 * with the prefix 49 so they never meet the other fixtures'. Returns their ids in order.
 */
export async function insertManyDevices(db: Queryable, count: number, f: DeviceFixture = {}): Promise<number[]> {
  const imeis = Array.from({ length: count }, () => testImei(++manyCounter, '49'));
  const lifecycle = f.lifecycle ?? 'operating';
  const res = await db.query<{ id: string }>(
    `INSERT INTO devices (imei, device_type, lifecycle, lock_state, lock_type, failure_reason, last_seen_at, group_id, brand, model,
                          customer_name, enrolled_at, secret)
     SELECT u.imei, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, decode(md5(random()::text) || md5(random()::text), 'hex')
       FROM unnest($1::text[]) WITH ORDINALITY AS u(imei, n) ORDER BY u.n
     RETURNING id`,
    [
      imeis,
      f.deviceType ?? 1,
      lifecycle,
      f.lockState ?? 'active',
      f.lockType ?? (f.lockState === 'locked' ? 'PorCredito' : null),
      f.failureReason ?? null,
      f.lastSeenAt === undefined ? (lifecycle === 'pre_enrolled' ? null : new Date()) : f.lastSeenAt,
      f.groupId ?? null,
      f.brand ?? 'Motorola',
      f.model ?? 'Moto G',
      f.customerName ?? null,
      lifecycle === 'pre_enrolled' ? null : new Date(),
    ],
  );
  return res.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Removes devices for good, with their commands and job results (not something the API does: the triggers must hold). */
export async function removeDevices(db: Queryable, ids: readonly number[]): Promise<void> {
  await db.query('DELETE FROM device_commands WHERE device_id = ANY($1::bigint[])', [[...ids]]);
  await db.query('DELETE FROM job_results WHERE device_id = ANY($1::bigint[])', [[...ids]]);
  await db.query('DELETE FROM devices WHERE id = ANY($1::bigint[])', [[...ids]]);
}
