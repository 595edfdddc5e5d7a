/**
 * Domain constants of reference §3 (entities) and reference §4 (states). Selects, badges
 * and filters derive from these lists; nothing else spells the codes or their labels.
 */
import { DEVICE_ACTION, type DEVICE_ACTIONS } from './deviceActions';

/** `{ KEY: code }` from a list of `{ key, code }` entries, keeping the literal types. */
function codesByKey<const T extends readonly { key: string; code: number }[]>(items: T) {
  return Object.fromEntries(items.map((i) => [i.key, i.code])) as {
    [K in T[number]['key']]: Extract<T[number], { key: K }>['code'];
  };
}

export type DeviceActionCode = (typeof DEVICE_ACTIONS)[number]['code'];

// reference §3: Device type -------------------------------------------------------------

export const DEVICE_TYPES = [
  { code: 1, key: 'SMARTPHONE', label: 'Móvil' },
  { code: 2, key: 'TV', label: 'TV' },
] as const;
export type DeviceTypeCode = (typeof DEVICE_TYPES)[number]['code'];
/** e.g. DEVICE_TYPE.TV === 2 */
export const DEVICE_TYPE = codesByKey(DEVICE_TYPES);
/** The one device-type label table: 'Móvil', 'TV'. */
export const DEVICE_TYPE_LABELS = Object.fromEntries(DEVICE_TYPES.map((t) => [t.code, t.label])) as Record<DeviceTypeCode, string>;
/** The label of a device type code; an unknown code reads as the number. */
export function deviceTypeLabel(code: number): string {
  return Object.hasOwn(DEVICE_TYPE_LABELS, code) ? DEVICE_TYPE_LABELS[code as DeviceTypeCode] : String(code);
}

// reference §3: App version ------------------------------------------------------------

/** An app version as reference §3 shows it: 'name (version)'. */
export const appVersionLabel = (name: string, version: string | number) => `${name} (${version})`;

// reference §3: App types ---------------------------------------------------------------

export const APP_TYPES = [
  { code: 1, key: 'ENTERPRISE' },
  { code: 2, key: 'INTERNAL' },
  { code: 4, key: 'DOWNLOADER' },
  { code: 5, key: 'TV' },
] as const;
export type AppTypeCode = (typeof APP_TYPES)[number]['code'];
/** e.g. APP_TYPE.DOWNLOADER === 4 */
export const APP_TYPE = codesByKey(APP_TYPES);

/** The app types a user may pick, with their labels. */
export const SELECTABLE_APP_TYPES = [
  { code: 2, key: 'INTERNAL', label: 'Macrolock' },
  { code: 4, key: 'DOWNLOADER', label: 'Downloader' },
  { code: 5, key: 'TV', label: 'Macrolock.TV' },
] as const satisfies readonly { code: AppTypeCode; key: keyof typeof APP_TYPE; label: string }[];

// reference §3: Lock types --------------------------------------------------------------

export const LOCK_TYPES = [
  { key: 'PorCredito', label: 'Por Crédito' },
  { key: 'PorNoConexion', label: 'Por No Conexión' },
  { key: 'PorCambioSIM', label: 'Por Cambio SIM' },
  { key: 'SinKiosko', label: 'Sin Kiosko' },
] as const;
export type LockType = (typeof LOCK_TYPES)[number]['key'];
/** The label of a lock type key ('PorCredito' → 'Por Crédito'); null when there is none. */
export function lockTypeLabel(key: string | null): string | null {
  return key === null ? null : (LOCK_TYPES.find((t) => t.key === key)?.label ?? key);
}

// reference §3: Restriction flags -------------------------------------------------------

export const RESTRICTION_FLAGS = [
  'disable_incoming_calls',
  'disable_outgoing_calls',
  'lock_sim_change',
  'disable_sms',
  'disable_camera',
  'disable_screen_capture',
  'require_QR_validation',
  'require_sim_for_enroll',
  'enabled_lock_for_remove_sim',
  'disable_tv_hospitality_mode',
  'disable_media_player',
  'disable_streaming',
] as const;
export type RestrictionFlag = (typeof RESTRICTION_FLAGS)[number];

// reference §4: Device statuses ---------------------------------------------------------

/** Device status codes with the reference §4 names (`key`) and their Spanish labels. */
export const DEVICE_STATUSES = [
  { code: 1, key: 'enrolado', label: 'Enrolado' },
  { code: 2, key: 'enrolando', label: 'Enrolando' },
  { code: 3, key: 'bloqueado', label: 'Bloqueado' },
  { code: 4, key: 'bloqueando', label: 'Bloqueando' },
  { code: 5, key: 'activo', label: 'Activo' },
  { code: 6, key: 'desbloqueando', label: 'Desbloqueando' },
  { code: 9, key: 'liberado', label: 'Liberado' },
  { code: 10, key: 'liberando', label: 'Liberando' },
  { code: 11, key: 'desbloqueado', label: 'Desbloqueado' },
  { code: 15, key: 'configurado', label: 'Configurado' },
  { code: 16, key: 'configurando', label: 'Configurando' },
  { code: 17, key: 'desbloqueado_offline', label: 'Desbloqueado offline' },
  { code: 18, key: 'configurado_bloqueado', label: 'Configurado bloqueado' },
  { code: 19, key: 'configurado_activo', label: 'Configurado activo' },
  { code: 20, key: 'sin_conexion', label: 'Sin conexión' },
  { code: 21, key: 'fallido', label: 'Fallido' },
  { code: 22, key: 'SUSPENDED', label: 'Suspendido' },
  { code: 23, key: 'TEMPORARY_ACTIVE', label: 'Activo temporal' },
  { code: 24, key: 'TEMPORARY_UNLOCKING', label: 'Desbloqueando temporal' },
  { code: 25, key: 'PRE_ENROLLED', label: 'Pre-enrolado' },
] as const;
export type DeviceStatusCode = (typeof DEVICE_STATUSES)[number]['code'];
export type DeviceStatusKey = (typeof DEVICE_STATUSES)[number]['key'];
/** e.g. DEVICE_STATUS.SUSPENDED === 22 */
export const DEVICE_STATUS = codesByKey(DEVICE_STATUSES);

/** Spanish label of a status code, or undefined for a code reference §4 does not list. */
export function deviceStatusLabel(code: number): string | undefined {
  return DEVICE_STATUSES.find((s) => s.code === code)?.label;
}

// reference §4: Action origins ----------------------------------------------------------

export const ACTION_ORIGINS = [
  { code: 0, key: 'LOCK_BY_STOLEN', label: 'Bloqueo por robo' },
  { code: 1, key: 'ENROLL', label: 'Enrolamiento' },
  { code: 2, key: 'DELETE_DEVICE', label: 'Eliminación del dispositivo' },
] as const;
export type ActionOriginCode = (typeof ACTION_ORIGINS)[number]['code'];
/** e.g. ACTION_ORIGIN.ENROLL === 1 */
export const ACTION_ORIGIN = codesByKey(ACTION_ORIGINS);

// reference §4: Status filter list ------------------------------------------------------

export interface StatusFilter {
  /** Stable option value, e.g. '3' or '3:PorCredito' (for selects and the URL). */
  value: string;
  /** The filter entry's text in reference §4, e.g. 'Liberado' or 'Bloqueado Por Crédito'. */
  label: string;
  /** The status code the entry selects. */
  status: DeviceStatusCode;
  /** Set on the 'Bloqueado <tipo>' entries only. */
  lockType?: LockType;
  /** Action codes disabled for devices in this status. */
  disabledActions: readonly DeviceActionCode[];
}

/** The reference §4 table, row by row: the statuses of a row share its disabled actions. */
const STATUS_FILTER_ROWS: readonly { statuses: readonly DeviceStatusKey[]; disabledActions: readonly DeviceActionCode[] }[] = [
  {
    statuses: [
      'enrolado',
      'enrolando',
      'bloqueado',
      'bloqueando',
      'desbloqueado',
      'desbloqueando',
      'activo',
      'desbloqueado_offline',
      'liberando',
      'TEMPORARY_ACTIVE',
    ],
    disabledActions: [DEVICE_ACTION.DELETE_DEVICE],
  },
  {
    statuses: ['liberado'],
    disabledActions: [
      DEVICE_ACTION.LOCK,
      DEVICE_ACTION.UNLOCK,
      DEVICE_ACTION.CODE_BAR,
      DEVICE_ACTION.RESTRICTIONS,
      DEVICE_ACTION.UNLOCK_OFFLINE,
      DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE,
      DEVICE_ACTION.UPDATE_APP_BUSINESS,
    ],
  },
  { statuses: ['fallido', 'SUSPENDED', 'TEMPORARY_UNLOCKING'], disabledActions: [] },
];
/** Disabled actions of the 'Bloqueado <tipo>' entries (the table's last row). */
const LOCKED_BY_TYPE_DISABLED_ACTIONS: readonly DeviceActionCode[] = [DEVICE_ACTION.DELETE_DEVICE];

function statusByKey(key: DeviceStatusKey) {
  const status = DEVICE_STATUSES.find((s) => s.key === key);
  if (!status) throw new Error(`unknown device status ${key}`);
  return status;
}

const LOCKED = statusByKey('bloqueado');

/** The status filter list of reference §4, in the table's order. */
export const STATUS_FILTERS: readonly StatusFilter[] = [
  ...STATUS_FILTER_ROWS.flatMap((row) =>
    row.statuses.map((key): StatusFilter => {
      const status = statusByKey(key);
      return { value: String(status.code), label: status.label, status: status.code, disabledActions: row.disabledActions };
    }),
  ),
  ...LOCK_TYPES.map((lockType): StatusFilter => ({
    value: `${LOCKED.code}:${lockType.key}`,
    label: `${LOCKED.label} ${lockType.label}`,
    status: LOCKED.code,
    lockType: lockType.key,
    disabledActions: LOCKED_BY_TYPE_DISABLED_ACTIONS,
  })),
];

/**
 * The filter entry with this option value (see `StatusFilter.value`). A reference §4 status the list does
 * not offer ('Sin conexión', 'Configurando'…) filters too when its code is given: the dashboards
 * link every status they count to the devices list. PRE_ENROLLED is a page of its own.
 */
export function findStatusFilter(value: string): StatusFilter | undefined {
  const listed = STATUS_FILTERS.find((f) => f.value === value);
  if (listed) return listed;
  const status = DEVICE_STATUSES.find((s) => String(s.code) === value && s.code !== DEVICE_STATUS.PRE_ENROLLED);
  return status && { value, label: status.label, status: status.code, disabledActions: disabledActionsForStatus(status.code) };
}

/**
 * The action codes disabled for a device in this status (reference §4 table). A locked
 * device with a lock type uses its 'Bloqueado <tipo>' entry; statuses the table does not
 * list disable nothing.
 */
export function disabledActionsForStatus(code: number, lockType?: LockType | null): readonly DeviceActionCode[] {
  const entry =
    (lockType ? STATUS_FILTERS.find((f) => f.status === code && f.lockType === lockType) : undefined) ??
    STATUS_FILTERS.find((f) => f.status === code && f.lockType === undefined);
  return entry?.disabledActions ?? [];
}
