/**
 * The demo fleet: groups with Mexican names and devices in every status (smartphones and TVs
 * of the brands sold on credit in Mexico, Spanish customer names, credit references). The rows
 * come from a seeded generator, so the same seed always gives the same fleet; the benchmark
 * reuses the generator for 10^6 devices. Secrets are random (crypto), as for any device.
 */
import { randomBytes } from 'node:crypto';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { LOCK_TYPES, type LockType } from '../../shared/constants/domain';
import { luhnCheckDigit } from '../../shared/contracts/devices';
import type { Lifecycle, LockState } from '../../shared/deviceStatus';
import { ADVISORY_LOCKS } from '../../server/db/advisoryLock';
import type { Db, Queryable } from '../../server/db/Db';
import { transaction } from '../../server/db/transactionScope';
import { DEFAULT_TIME_ZONE } from '../../shared/credits';
import { seedDemoCredits } from './demoCredits';
import { prng } from './prng';
import { RELEASE_CANCEL_HOURS } from '../../shared/constants/limits';

export const DEMO_GROUPS: readonly { name: string; description: string }[] = [
  { name: 'Sucursal Centro CDMX', description: 'Tienda de Av. 5 de Mayo, Centro Histórico' },
  { name: 'Sucursal Monterrey', description: 'Tienda de San Pedro Garza García' },
  { name: 'Distribuidor Jalisco', description: 'Distribuidor autorizado de Zapopan' },
  { name: 'TVs Guadalajara', description: 'Pantallas vendidas a crédito en Guadalajara' },
  { name: 'Sucursal Puebla', description: 'Tienda de Angelópolis' },
  { name: 'Ventas en línea', description: 'Pedidos de la tienda en línea' },
];
/** Index of the TV group in DEMO_GROUPS (most TVs go there). */
const TV_GROUP = 3;

/** One generated device: the columns of `devices` (group as an index into DEMO_GROUPS). */
export interface DemoDeviceRow {
  imei: string;
  imei2: string | null;
  serial: string;
  deviceType: 1 | 2;
  brand: string;
  model: string;
  osVersion: string | null;
  agentVersion: string | null;
  groupIndex: number | null;
  customerName: string;
  creditReference: string | null;
  lifecycle: Lifecycle;
  lockState: LockState;
  lockType: LockType | null;
  lockMessage: string | null;
  temporaryUntil: Date | null;
  pendingAction: number | null;
  pendingUntil: Date | null;
  failureReason: string | null;
  lastSeenAt: Date | null;
  enrolledAt: Date | null;
  createdAt: Date;
  simIccid: string | null;
  simCarrier: string | null;
}

const PHONES: readonly { brand: string; models: readonly string[]; serial: string; weight: number }[] = [
  { brand: 'Samsung', models: ['Galaxy A05s', 'Galaxy A15', 'Galaxy A25 5G', 'Galaxy A35 5G', 'Galaxy S23 FE'], serial: 'R58', weight: 0.32 },
  { brand: 'Motorola', models: ['Moto E13', 'Moto G24', 'Moto G54 5G', 'Edge 40 Neo'], serial: 'ZY2', weight: 0.24 },
  { brand: 'Xiaomi', models: ['Redmi 13C', 'Redmi Note 13', 'Redmi Note 13 Pro', 'POCO X6'], serial: 'XM7', weight: 0.2 },
  { brand: 'Oppo', models: ['A18', 'A38', 'A58', 'Reno 11 F'], serial: 'OP4', weight: 0.13 },
  { brand: 'Honor', models: ['X6a', 'X7b', 'X8b', '90 Lite'], serial: 'HN9', weight: 0.11 },
];
const TVS: readonly { brand: string; models: readonly string[]; serial: string; weight: number }[] = [
  { brand: 'Hisense', models: ['43A6K', '50A6K', '55U6K', '65A6K'], serial: 'HS1', weight: 0.4 },
  { brand: 'TCL', models: ['43S5400', '50P755', '55C655', '65P755'], serial: 'TC5', weight: 0.35 },
  { brand: 'Samsung', models: ['UN43CU7000', 'UN50CU7000', 'QN55Q60C'], serial: 'SM0', weight: 0.25 },
];
const FIRST_NAMES = [
  'María',
  'José',
  'Guadalupe',
  'Juan',
  'Ana',
  'Luis',
  'Verónica',
  'Jorge',
  'Alejandra',
  'Miguel',
  'Rosa',
  'Francisco',
  'Fernanda',
  'Carlos',
  'Leticia',
  'Ricardo',
  'Mónica',
  'Arturo',
  'Claudia',
  'Jesús',
  'Patricia',
  'Alejandro',
  'Sofía',
  'Héctor',
  'Daniela',
  'Eduardo',
  'Gabriela',
  'Raúl',
  'Adriana',
  'Óscar',
  'Lucía',
  'Sergio',
  'Ximena',
  'Iván',
  'Norma',
  'Andrés',
];
const SURNAMES = [
  'Hernández',
  'García',
  'Martínez',
  'López',
  'González',
  'Pérez',
  'Rodríguez',
  'Sánchez',
  'Ramírez',
  'Cruz',
  'Flores',
  'Gómez',
  'Morales',
  'Vázquez',
  'Reyes',
  'Jiménez',
  'Torres',
  'Díaz',
  'Gutiérrez',
  'Ruiz',
  'Mendoza',
  'Aguilar',
  'Ortiz',
  'Castillo',
  'Moreno',
  'Romero',
  'Álvarez',
  'Chávez',
  'Rivera',
  'Juárez',
  'Domínguez',
  'Núñez',
  'Salazar',
  'Ibarra',
  'Villanueva',
  'Peña',
];
const CARRIERS = ['Telcel', 'AT&T', 'Movistar', 'Bait', 'Telcel', 'Telcel'];
const LOCK_MESSAGES: Record<LockType, string> = {
  PorCredito: 'Su equipo está bloqueado por falta de pago. Comuníquese al 800 123 4567 para regularizar su crédito.',
  PorNoConexion: 'Su equipo se bloqueó por no conectarse. Conéctelo a internet para desbloquearlo.',
  PorCambioSIM: 'Se detectó un cambio de tarjeta SIM. Comuníquese con su sucursal.',
  SinKiosko: 'Su equipo está bloqueado. Acuda a su sucursal.',
};
const FAILURES = [
  'El agente rechazó el comando: permisos de administrador del dispositivo revocados',
  'El agente no pudo aplicar las restricciones: versión de Android no compatible',
  'El agente rechazó el comando: firma inválida',
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Ordered shares of the fleet by state (the rest is operating and active). */
type Profile =
  | 'pre_enrolled'
  | 'enrolling'
  | 'enrolled'
  | 'configured'
  | 'reconfigured_locked'
  | 'reconfigured_active'
  | 'released'
  | 'suspended'
  | 'failed'
  | 'locked'
  | 'unlocked_offline'
  | 'temporary_active'
  | 'pending_lock'
  | 'pending_unlock'
  | 'pending_temporary'
  | 'pending_release'
  | 'pending_config'
  | 'active';
const PROFILES: readonly [Profile, number][] = [
  ['pre_enrolled', 0.06],
  ['enrolling', 0.015],
  ['enrolled', 0.015],
  ['configured', 0.015],
  ['reconfigured_locked', 0.008],
  ['reconfigured_active', 0.008],
  ['released', 0.03],
  ['suspended', 0.01],
  ['failed', 0.012],
  ['locked', 0.12],
  ['unlocked_offline', 0.01],
  ['temporary_active', 0.01],
  ['pending_lock', 0.006],
  ['pending_unlock', 0.004],
  ['pending_temporary', 0.002],
  ['pending_release', 0.003],
  ['pending_config', 0.005],
];

/** The status stays whatever it is when offline; these profiles turn 'sin_conexion' when not seen. */
const OVERLAID_PROFILES: ReadonlySet<Profile> = new Set([
  'enrolled',
  'configured',
  'reconfigured_locked',
  'reconfigured_active',
  'locked',
  'unlocked_offline',
  'temporary_active',
  'active',
]);

/** A 15-digit IMEI, unique per (prefix, n) for n below 10^12 (n × an odd multiplier not divisible by 5 is a bijection mod 10^12). */
function demoImei(prefix: string, n: number, salt: number): string {
  const body = ((BigInt(n) * 7_654_321n + BigInt(salt)) % 1_000_000_000_000n).toString().padStart(12, '0');
  const first14 = `${prefix}${body}`;
  return `${first14}${luhnCheckDigit(first14)}`;
}

/**
 * The demo devices, `batchSize` at a time: ≈80 % smartphones, ≈20 % TVs; most operating and
 * active, seen in the last 24 h; ≈12 % locked (the four lock types); ≈8 % offline (last seen 4–30
 * days ago); some pre-enrolled, enrolling, released, failed, suspended, with a command in flight.
 * Deterministic for a given (count, seed, now, start). `start` numbers the devices from there: the
 * IMEIs of one seed never repeat across ranges that do not overlap (the attributes are drawn anew).
 */
export function* demoDeviceRows(count: number, seed = 2026, now = new Date(), batchSize = 5_000, start = 0): Generator<DemoDeviceRow[]> {
  const rnd = prng(start === 0 ? seed : seed ^ Math.imul(start, 0x9e3779b1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const weighted = <T extends { weight: number }>(xs: readonly T[]): T => {
    let r = rnd();
    for (const x of xs) {
      r -= x.weight;
      if (r < 0) return x;
    }
    return xs[xs.length - 1]!;
  };
  const alnum = (n: number) => Array.from({ length: n }, () => '0123456789ABCDEFGHJKLMNPRSTUVWXYZ'[Math.floor(rnd() * 33)]).join('');
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
  const salt = Math.floor(prng(seed ^ 0x5eed)() * 1_000_000_000);
  const t = now.getTime();
  let batch: DemoDeviceRow[] = [];
  for (let i = start; i < start + count; i++) {
    const tv = rnd() < 0.2;
    const maker = weighted(tv ? TVS : PHONES);
    let profile: Profile = 'active';
    let r = rnd();
    for (const [p, share] of PROFILES) {
      r -= share;
      if (r < 0) {
        profile = p;
        break;
      }
    }
    const preEnrolled = profile === 'pre_enrolled';
    const offline = OVERLAID_PROFILES.has(profile) && rnd() < 0.085;
    // Offline devices were enrolled before they went quiet (more than 30 days ago).
    const createdAt = new Date(t - (preEnrolled ? rnd() * 20 * DAY : (offline ? 32 : 2) * DAY + rnd() * 330 * DAY));
    const enrolledAt = preEnrolled ? null : new Date(createdAt.getTime() + (1 + rnd() * 47) * HOUR);
    let lastSeenAt: Date | null = preEnrolled ? null : offline ? new Date(t - (4 + rnd() * 26) * DAY) : new Date(t - rnd() * DAY);
    if (profile === 'enrolling' && rnd() < 0.5) lastSeenAt = null;
    if (profile === 'released' || profile === 'suspended') lastSeenAt = new Date(t - rnd() * 60 * DAY);
    if (lastSeenAt && enrolledAt && lastSeenAt < enrolledAt) lastSeenAt = enrolledAt;

    const row: DemoDeviceRow = {
      imei: demoImei(tv ? '86' : '35', i, salt),
      imei2: !tv && rnd() < 0.55 ? demoImei('35', i + 500_000_000_000, salt) : null,
      serial: `${maker.serial}${alnum(tv ? 9 : 8)}`,
      deviceType: tv ? 2 : 1,
      brand: maker.brand,
      model: pick(maker.models),
      osVersion: preEnrolled
        ? null
        : tv
          ? pick(['Android TV 11', 'Google TV 12', 'VIDAA 7'])
          : pick(['Android 13', 'Android 14', 'Android 14', 'Android 15']),
      agentVersion: preEnrolled ? null : tv ? '1.8.0' : rnd() < 0.7 ? '3.4.1' : '3.3.0',
      groupIndex: tv
        ? rnd() < 0.7
          ? TV_GROUP
          : rnd() < 0.8
            ? Math.floor(rnd() * DEMO_GROUPS.length)
            : null
        : rnd() < 0.85
          ? pick([0, 0, 1, 1, 2, 4, 5])
          : null,
      customerName: `${pick(FIRST_NAMES)} ${pick(SURNAMES)} ${pick(SURNAMES)}`,
      creditReference: rnd() < 0.92 ? `CR-${2024 + Math.floor(rnd() * 3)}-${digits(6)}` : null,
      lifecycle: 'operating',
      lockState: 'active',
      lockType: null,
      lockMessage: null,
      temporaryUntil: null,
      pendingAction: null,
      pendingUntil: null,
      failureReason: null,
      lastSeenAt,
      enrolledAt,
      createdAt,
      simIccid: tv || preEnrolled ? null : `895202${digits(13)}`,
      simCarrier: null,
    };
    if (row.simIccid) row.simCarrier = pick(CARRIERS);
    const lock = () => {
      row.lockState = 'locked';
      row.lockType = pick(LOCK_TYPES).key;
      row.lockMessage = LOCK_MESSAGES[row.lockType];
    };
    switch (profile) {
      case 'pre_enrolled':
        row.lifecycle = 'pre_enrolled';
        break;
      case 'enrolling':
        row.lifecycle = 'enrolling';
        break;
      case 'enrolled':
        row.lifecycle = 'enrolled';
        break;
      case 'configured':
        row.lifecycle = 'configured';
        break;
      case 'reconfigured_locked':
        row.lifecycle = 'reconfigured';
        lock();
        break;
      case 'reconfigured_active':
        row.lifecycle = 'reconfigured';
        break;
      case 'released':
        row.lifecycle = 'released';
        break;
      case 'suspended':
        row.lifecycle = 'suspended';
        break;
      case 'failed':
        row.failureReason = pick(FAILURES);
        break;
      case 'locked':
        lock();
        break;
      case 'unlocked_offline':
        row.lockState = 'unlocked_offline';
        break;
      case 'temporary_active':
        row.lockState = 'temporary_active';
        row.temporaryUntil = new Date(t + (1 + rnd() * 13) * DAY);
        break;
      case 'pending_lock':
        row.pendingAction = DEVICE_ACTION.LOCK;
        break;
      case 'pending_unlock':
        lock();
        row.pendingAction = DEVICE_ACTION.UNLOCK;
        break;
      case 'pending_temporary':
        lock();
        row.pendingAction = DEVICE_ACTION.UNLOCK;
        row.pendingUntil = new Date(t + (1 + rnd() * 6) * DAY);
        break;
      case 'pending_release':
        row.pendingAction = DEVICE_ACTION.RELEASE;
        break;
      case 'pending_config':
        row.pendingAction = pick([DEVICE_ACTION.UPDATE_APP_MACRO, DEVICE_ACTION.RESTRICTIONS]);
        break;
      case 'active':
        break;
    }
    // One device in eight waiting for a command (other than a release, which waits out its
    // window) went quiet days ago: its command was sent after, and waits still (the stuck board).
    if (row.pendingAction !== null && row.pendingAction !== DEVICE_ACTION.RELEASE && i % 8 === 0 && enrolledAt) {
      const quiet = new Date(t - (2 + (i % 5)) * DAY);
      if (quiet > enrolledAt) row.lastSeenAt = quiet;
    }
    batch.push(row);
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());
const str = (v: number | null) => (v === null ? null : String(v));

/**
 * Inserts one batch in one statement (arrays unnested), then the pending commands of the
 * devices that have one in flight. `groupIds` maps DEMO_GROUPS indexes to ids.
 */
export async function insertDemoBatch(q: Queryable, rows: readonly DemoDeviceRow[], groupIds: readonly number[], now: Date): Promise<void> {
  const col = <T>(f: (r: DemoDeviceRow) => T) => rows.map(f);
  const inserted = await q.query<{ id: number; pending: boolean }>(
    `INSERT INTO devices (imei, imei2, serial, device_type, brand, model, os_version, agent_version, group_id, customer_name,
                          credit_reference, lifecycle, lock_state, lock_type, lock_message, temporary_until, pending_action,
                          pending_until, failure_reason, last_seen_at, enrolled_at, created_at, updated_at, sim_iccid, sim_carrier, secret)
     SELECT u.imei, u.imei2, u.serial, u.device_type::smallint, u.brand, u.model, u.os_version, u.agent_version, u.group_id::integer,
            u.customer_name, u.credit_reference, u.lifecycle, u.lock_state, u.lock_type, u.lock_message, u.temporary_until::timestamptz,
            u.pending_action::smallint, u.pending_until::timestamptz, u.failure_reason, u.last_seen_at::timestamptz,
            u.enrolled_at::timestamptz, u.created_at::timestamptz, greatest(u.created_at::timestamptz, u.last_seen_at::timestamptz),
            u.sim_iccid, u.sim_carrier, substring($25::bytea FROM (u.n::integer - 1) * 32 + 1 FOR 32)
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
                   $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[])
            WITH ORDINALITY AS u(imei, imei2, serial, device_type, brand, model, os_version, agent_version, group_id, customer_name,
                                 credit_reference, lifecycle, lock_state, lock_type, lock_message, temporary_until, pending_action,
                                 pending_until, failure_reason, last_seen_at, enrolled_at, created_at, sim_iccid, sim_carrier, n)
      ORDER BY u.n
     RETURNING id, pending_action IS NOT NULL AS pending`,
    [
      col((r) => r.imei),
      col((r) => r.imei2),
      col((r) => r.serial),
      col((r) => String(r.deviceType)),
      col((r) => r.brand),
      col((r) => r.model),
      col((r) => r.osVersion),
      col((r) => r.agentVersion),
      col((r) => (r.groupIndex === null ? null : str(groupIds[r.groupIndex] ?? null))),
      col((r) => r.customerName),
      col((r) => r.creditReference),
      col((r) => r.lifecycle),
      col((r) => r.lockState),
      col((r) => r.lockType),
      col((r) => r.lockMessage),
      col((r) => iso(r.temporaryUntil)),
      col((r) => str(r.pendingAction)),
      col((r) => iso(r.pendingUntil)),
      col((r) => r.failureReason),
      col((r) => iso(r.lastSeenAt)),
      col((r) => iso(r.enrolledAt)),
      col((r) => iso(r.createdAt)),
      col((r) => r.simIccid),
      col((r) => r.simCarrier),
      randomBytes(32 * rows.length),
    ],
  );
  await insertDemoCommands(
    q,
    inserted.rows.map((r) => r.id),
    inserted.rows.filter((r) => r.pending).map((r) => r.id),
    now,
  );
}

/**
 * The commands of newly inserted demo devices: their 30 days of history, and the command each
 * device of `pendingIds` (those with a pending action) waits for.
 */
export async function insertDemoCommands(q: Queryable, ids: readonly number[], pendingIds: readonly number[], now: Date): Promise<void> {
  await insertDemoHistory(q, ids);
  if (pendingIds.length === 0) return;
  // The command each in-flight device waits for (a RELEASE waits out its cancellation window).
  await q.query(
    `WITH pending AS (
       SELECT id, pending_action, pending_until, lock_type,
              CASE WHEN last_seen_at < $1::timestamptz - interval '1 day' THEN last_seen_at + interval '1 hour'
                   ELSE $1::timestamptz - (id % 720) * interval '1 minute' END AS requested_at
         FROM devices WHERE id = ANY($2::bigint[])),
     issued AS (
       INSERT INTO device_commands (device_id, action, payload, status, requested_at, requested_by, deliver_after)
       SELECT id, pending_action,
              CASE pending_action
                WHEN ${DEVICE_ACTION.LOCK} THEN jsonb_build_object('lockType', 'PorCredito', 'message', null, 'stolen', false)
                WHEN ${DEVICE_ACTION.UNLOCK} THEN jsonb_build_object('until', pending_until)
                ELSE '{}'::jsonb END,
              'pending', requested_at, 'admin@demo.local',
              CASE WHEN pending_action = ${DEVICE_ACTION.RELEASE} THEN requested_at + interval '${RELEASE_CANCEL_HOURS} hours' ELSE requested_at END
         FROM pending
       RETURNING id, device_id)
     UPDATE devices d SET pending_command_id = issued.id FROM issued WHERE d.id = issued.device_id`,
    [now, pendingIds],
  );
}

/**
 * The commands the demo devices answered in their last 30 days of contact, so that device
 * histories and the dashboards' daily charts have a past: the LOCK of each locked device, a
 * LOCK then UNLOCK (a customer who paid late) for one active device in four, a payment reminder
 * for one settled device in five, the RELEASE of each released device. Spread over the days
 * between enrollment (or 30 days before the last contact) and the last contact, by id.
 */
async function insertDemoHistory(q: Queryable, ids: readonly number[]): Promise<void> {
  await q.query(
    `WITH d AS (
       SELECT id, lock_state, lock_type, lock_message, lifecycle, last_seen_at AS t1,
              greatest(enrolled_at, last_seen_at - interval '30 days') AS t0
         FROM devices WHERE id = ANY($1::bigint[]) AND last_seen_at IS NOT NULL AND enrolled_at IS NOT NULL),
     h AS (
       SELECT id, ${DEVICE_ACTION.LOCK} AS action, t0 + (t1 - t0) * ((id * 37) % 100 / 100.0) AS at,
              jsonb_build_object('lockType', lock_type, 'message', lock_message, 'stolen', false) AS payload
         FROM d WHERE lock_state = 'locked' AND lifecycle <> 'released'
       UNION ALL
       SELECT id, ${DEVICE_ACTION.LOCK}, t0 + (t1 - t0) * ((id * 13) % 50 / 100.0),
              jsonb_build_object('lockType', 'PorCredito', 'message', null, 'stolen', false)
         FROM d WHERE lock_state = 'active' AND lifecycle = 'operating' AND id % 4 = 0
       UNION ALL
       SELECT id, ${DEVICE_ACTION.UNLOCK}, t0 + (t1 - t0) * (0.5 + (id * 13) % 50 / 100.0), jsonb_build_object('until', null)
         FROM d WHERE lock_state = 'active' AND lifecycle = 'operating' AND id % 4 = 0
       UNION ALL
       SELECT id, ${DEVICE_ACTION.SEND_NOTIFICATION}, t0 + (t1 - t0) * ((id * 71) % 100 / 100.0),
              jsonb_build_object('title', 'Recordatorio de pago', 'message', 'Su pago vence en 3 días.')
         FROM d WHERE lifecycle IN ('enrolled', 'configured', 'operating', 'reconfigured') AND id % 5 = 0
       UNION ALL
       SELECT id, ${DEVICE_ACTION.RELEASE}, t1 - interval '1 hour', '{}'::jsonb FROM d WHERE lifecycle = 'released')
     INSERT INTO device_commands (device_id, action, payload, status, requested_at, requested_by, deliver_after, delivered_at, acknowledged_at)
     SELECT id, action, payload, 'acknowledged', at, 'admin@demo.local', at, at + interval '20 seconds', at + interval '45 seconds'
       FROM h ORDER BY id, at`,
    [ids],
  );
}

/**
 * Seeds the demo fleet when the registry is empty: the DEMO_GROUPS, `count` devices and their
 * credits (tools/seed/demoCredits.ts, due dates in `timeZone`), in one transaction, 5,000 devices
 * per statement. A demo registry seeded before credits existed (at most twice `count` devices)
 * gets only its credits. Returns how many devices were seeded (0 when devices already existed).
 */
export async function seedDemoDevices(
  db: Db,
  count: number,
  { now = new Date(), seed = 2026, timeZone = DEFAULT_TIME_ZONE }: { now?: Date; seed?: number; timeZone?: string } = {},
): Promise<number> {
  if (count <= 0) return 0;
  const existing = await db.query('SELECT 1 FROM devices LIMIT 1');
  const credits = await db.query('SELECT 1 FROM credits LIMIT 1');
  if (existing.rowCount > 0 && credits.rowCount > 0) return 0;
  return transaction(db, async (tx) => {
    // Another replica may be seeding too: one at a time, and the registry checked again once
    // the lock is held (its rows are visible then: it committed before releasing the lock).
    await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.demoSeed]);
    const again = await tx.query('SELECT 1 FROM devices LIMIT 1');
    if (again.rowCount > 0) {
      // A demo seeded before credits existed gets them once, from the devices it has; not a
      // large fleet of `npm run seed` (its credits would hold the start for minutes).
      const fleet = await tx.query<{ n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM devices LIMIT $1) d', [2 * count + 1]);
      if (Number(fleet.rows[0]!.n) <= 2 * count) await seedDemoCredits(tx, now, timeZone, seed);
      return 0;
    }
    await tx.query(
      `INSERT INTO device_groups (name, description)
       SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT ((lower(name))) DO NOTHING`,
      [DEMO_GROUPS.map((g) => g.name), DEMO_GROUPS.map((g) => g.description)],
    );
    const res = await tx.query<{ id: number; name: string }>('SELECT id, name FROM device_groups WHERE lower(name) = ANY($1::text[])', [
      DEMO_GROUPS.map((g) => g.name.toLowerCase()),
    ]);
    const byName = new Map(res.rows.map((r) => [r.name.toLowerCase(), r.id]));
    const groupIds = DEMO_GROUPS.map((g) => byName.get(g.name.toLowerCase())!);
    let seeded = 0;
    for (const batch of demoDeviceRows(count, seed, now)) {
      await insertDemoBatch(tx, batch, groupIds, now);
      seeded += batch.length;
    }
    await seedDemoCredits(tx, now, timeZone, seed);
    return seeded;
  });
}
