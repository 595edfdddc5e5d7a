/**
 * The settings an agent applies, per device type: global values with optional per-group
 * overrides (table `agent_settings`, each row holding only the keys it sets, flat). Until an
 * administrator saves a value, the defaults below apply. This module is the one description of
 * every setting: which page (section) holds it, for which device types it means something (the
 * matrix), its Spanish label and help text, its kind and bounds, and its default. The pages, the
 * API's schemas (shared/contracts/agentSettings.ts), the merge the agent receives
 * (GET /agent/v1/settings) and the server's own enrollment and SIM rules all read it.
 */
import { PATHS, type RoutePath } from './constants/routes';
import { DEVICE_TYPE, LOCK_TYPES, RESTRICTION_FLAGS, type DeviceTypeCode, type RestrictionFlag } from './constants/domain';

export type SettingValue = boolean | number | string | null;

// Sections (one page each) -------------------------------------------------------------

export const SETTINGS_SECTION_KEYS = ['enrollment', 'lock', 'release', 'screen'] as const;
export type SettingsSectionKey = (typeof SETTINGS_SECTION_KEYS)[number];

export interface SettingsSection {
  key: SettingsSectionKey;
  /** The API's path segment: /api/v5/agent-settings/{smartphone|tv}/{slug}. */
  slug: string;
  title: string;
  /** One sentence under the page title. */
  description: string;
  /** The page of each device type that has the section (its path is the permission). */
  paths: Partial<Record<DeviceTypeCode, RoutePath>>;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  {
    key: 'enrollment',
    slug: 'restrictions-enrollment',
    title: 'Restricciones de enrolamiento',
    description: 'Cómo se enrola un dispositivo y qué aviso ve el cliente al hacerlo.',
    paths: { 1: PATHS.restrictionsEnrollment, 2: PATHS.restrictionsEnrollmentTv },
  },
  {
    key: 'lock',
    slug: 'restrictions-lock',
    title: 'Restricciones de bloqueo',
    description: 'Qué restringe un dispositivo bloqueado, cuándo se bloquea solo y qué recordatorios muestra.',
    paths: { 1: PATHS.restrictionsLock, 2: PATHS.restrictionsLockTv },
  },
  {
    key: 'release',
    slug: 'restrictions-release',
    title: 'Restricciones de liberación',
    description: 'Qué hace el dispositivo cuando el crédito termina y se libera.',
    paths: { 1: PATHS.restrictionsRelease, 2: PATHS.restrictionsReleaseTv },
  },
  {
    key: 'screen',
    slug: 'screen-design',
    title: 'Diseño de pantalla',
    description: 'La pantalla de bloqueo que ve el cliente: textos, contacto, colores y logotipo.',
    paths: { 1: PATHS.screenDesign },
  },
];

export function settingsSection(key: SettingsSectionKey): SettingsSection {
  return SETTINGS_SECTIONS.find((s) => s.key === key)!;
}

/** The sections a device type has (TVs have no screen design). */
export function sectionsOf(deviceType: DeviceTypeCode): SettingsSection[] {
  return SETTINGS_SECTIONS.filter((s) => s.paths[deviceType] !== undefined);
}

/** The API's path segment of a device type. */
export const DEVICE_TYPE_SLUGS = { 1: 'smartphone', 2: 'tv' } as const satisfies Record<DeviceTypeCode, string>;

// Fields -----------------------------------------------------------------------------

interface FieldBase {
  key: string;
  section: SettingsSectionKey;
  /** A heading that groups fields inside the page. */
  block: string;
  label: string;
  help: string;
  /** The device types where the setting means something (TV-only flags, SIM flags on phones). */
  types: readonly DeviceTypeCode[];
  /** Shown (and checked) only while another setting of the section has this value. */
  when?: { key: string; equals: SettingValue };
}

export type SettingField =
  | (FieldBase & { kind: 'flag'; defaults: Record<DeviceTypeCode, boolean> })
  | (FieldBase & { kind: 'integer'; min: number; max: number; unit: string; defaults: Record<DeviceTypeCode, number> })
  | (FieldBase & { kind: 'choice'; options: readonly { value: string; label: string }[]; defaults: Record<DeviceTypeCode, string> })
  | (FieldBase & { kind: 'text'; max: number; multiline: boolean; required: boolean; defaults: Record<DeviceTypeCode, string | null> })
  | (FieldBase & { kind: 'url' | 'email' | 'phone' | 'time' | 'logo'; defaults: Record<DeviceTypeCode, string | null> })
  | (FieldBase & { kind: 'color'; defaults: Record<DeviceTypeCode, string> });

export type SettingKind = SettingField['kind'];

const BOTH = [DEVICE_TYPE.SMARTPHONE, DEVICE_TYPE.TV] as const;
const PHONE = [DEVICE_TYPE.SMARTPHONE] as const;
const TV = [DEVICE_TYPE.TV] as const;
const same = <T>(v: T): Record<DeviceTypeCode, T> => ({ 1: v, 2: v });

export const ENROLLMENT_NOTICE_MAX = 2000;
export const SCREEN_MESSAGE_MAX = 350;
export const SCREEN_TITLE_MAX = 60;
export const RELEASE_MESSAGE_MAX = 350;
export const OFFLINE_DAYS = { min: 3, max: 200 } as const;
export const REMINDER_MINUTES = { min: 5, max: 24 * 60 } as const;

/**
 * Every setting. The reference §3 restriction flags keep their names; the matrix (`types`, `section`)
 * places each where it means something: QR and SIM requirements at enrollment; calls, SMS,
 * camera and screen capture while locked (phones); SIM-triggered locks on phones (a TV has no
 * SIM); hospitality mode, media player and streaming on TVs. Release lifts every restriction,
 * so no reference §3 flag is a release setting: that page holds what the device does when it is released.
 */
export const SETTING_FIELDS: readonly SettingField[] = [
  // Enrollment ---------------------------------------------------------------------------
  {
    key: 'require_QR_validation',
    section: 'enrollment',
    block: 'Enrolamiento',
    kind: 'flag',
    label: 'Exigir código QR',
    help: 'El dispositivo solo se enrola con el código QR (o el código corto de la TV) de un token vigente.',
    types: BOTH,
    defaults: same(true),
  },
  {
    key: 'require_sim_for_enroll',
    section: 'enrollment',
    block: 'Enrolamiento',
    kind: 'flag',
    label: 'Exigir SIM para enrolar',
    help: 'Un teléfono sin SIM no se enrola: queda Fallido con el motivo.',
    types: PHONE,
    defaults: same(false),
  },
  {
    key: 'allow_unregistered_enrollment',
    section: 'enrollment',
    block: 'Enrolamiento',
    kind: 'flag',
    label: 'Permitir dispositivos no registrados',
    help: 'El QR de un grupo puede enrolar un dispositivo que nadie registró; se crea en ese grupo.',
    types: BOTH,
    defaults: same(false),
  },
  {
    key: 'enrollment_notice',
    section: 'enrollment',
    block: 'Aviso y términos',
    kind: 'choice',
    label: 'Aviso al enrolar',
    help: 'Lo que el cliente lee y acepta en el dispositivo antes de terminar el enrolamiento.',
    options: [
      { value: 'none', label: 'Sin aviso' },
      { value: 'text', label: 'Texto' },
      { value: 'url', label: 'Enlace (https)' },
    ],
    types: BOTH,
    defaults: same('text'),
  },
  {
    key: 'enrollment_notice_text',
    section: 'enrollment',
    block: 'Aviso y términos',
    kind: 'text',
    label: 'Texto del aviso',
    help: `Hasta ${ENROLLMENT_NOTICE_MAX.toLocaleString('es-MX')} caracteres.`,
    max: ENROLLMENT_NOTICE_MAX,
    multiline: true,
    required: false,
    types: BOTH,
    when: { key: 'enrollment_notice', equals: 'text' },
    defaults: same(
      'Este equipo se adquirió a crédito. Mientras el crédito esté vigente, la financiera puede bloquearlo si hay pagos vencidos y desbloquearlo al recibir el pago. Al liquidar el crédito, el equipo se libera y estas restricciones desaparecen.',
    ),
  },
  {
    key: 'enrollment_notice_url',
    section: 'enrollment',
    block: 'Aviso y términos',
    kind: 'url',
    label: 'Enlace del aviso',
    help: 'Una dirección https con los términos del crédito.',
    types: BOTH,
    when: { key: 'enrollment_notice', equals: 'url' },
    defaults: same(null),
  },

  // Lock ---------------------------------------------------------------------------------
  {
    key: 'default_lock_type',
    section: 'lock',
    block: 'Bloqueo',
    kind: 'choice',
    label: 'Tipo de bloqueo predeterminado',
    help: 'El tipo que se propone al bloquear un dispositivo desde el portal.',
    options: LOCK_TYPES.map((t) => ({ value: t.key, label: t.label })),
    types: BOTH,
    defaults: same('PorCredito'),
  },
  {
    key: 'disable_incoming_calls',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Bloquear llamadas entrantes',
    help: 'El teléfono bloqueado no recibe llamadas (las de emergencia siempre salen).',
    types: PHONE,
    defaults: same(false),
  },
  {
    key: 'disable_outgoing_calls',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Bloquear llamadas salientes',
    help: 'Solo se pueden marcar los números de emergencia y el de contacto de la pantalla de bloqueo.',
    types: PHONE,
    defaults: same(true),
  },
  {
    key: 'disable_sms',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Bloquear SMS',
    help: 'El teléfono bloqueado no envía ni muestra mensajes SMS.',
    types: PHONE,
    defaults: same(false),
  },
  {
    key: 'disable_camera',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Deshabilitar cámara',
    help: 'La cámara no se puede abrir mientras el teléfono está bloqueado.',
    types: PHONE,
    defaults: same(true),
  },
  {
    key: 'disable_screen_capture',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Deshabilitar capturas de pantalla',
    help: 'Impide capturar o grabar la pantalla de bloqueo.',
    types: PHONE,
    defaults: same(true),
  },
  {
    key: 'disable_tv_hospitality_mode',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Deshabilitar modo hotel',
    help: 'El modo hotel (hospitality) de la TV no se puede activar para evitar el bloqueo.',
    types: TV,
    defaults: same(true),
  },
  {
    key: 'disable_media_player',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Deshabilitar reproductor multimedia',
    help: 'La TV bloqueada no reproduce contenido de USB ni de la red local.',
    types: TV,
    defaults: same(true),
  },
  {
    key: 'disable_streaming',
    section: 'lock',
    block: 'Mientras está bloqueado',
    kind: 'flag',
    label: 'Deshabilitar streaming',
    help: 'Las apps de streaming no abren mientras la TV está bloqueada.',
    types: TV,
    defaults: same(true),
  },
  {
    key: 'lock_sim_change',
    section: 'lock',
    block: 'Bloqueo automático',
    kind: 'flag',
    label: 'Bloquear al cambiar la SIM',
    help: 'Un teléfono que reporta otra SIM se bloquea Por Cambio SIM.',
    types: PHONE,
    defaults: same(true),
  },
  {
    key: 'enabled_lock_for_remove_sim',
    section: 'lock',
    block: 'Bloqueo automático',
    kind: 'flag',
    label: 'Bloquear al retirar la SIM',
    help: 'Un teléfono que reporta que le quitaron la SIM se bloquea.',
    types: PHONE,
    defaults: same(false),
  },
  {
    key: 'offline_lock_enabled',
    section: 'lock',
    block: 'Sin conexión',
    kind: 'flag',
    label: 'Bloquear sin conexión',
    help: 'El dispositivo se bloquea solo (Por No Conexión) tras varios días sin comunicarse con el servidor.',
    types: BOTH,
    defaults: same(false),
  },
  {
    key: 'offline_lock_days',
    section: 'lock',
    block: 'Sin conexión',
    kind: 'integer',
    label: 'Días sin conexión',
    help: `Entre ${OFFLINE_DAYS.min} y ${OFFLINE_DAYS.max} días.`,
    min: OFFLINE_DAYS.min,
    max: OFFLINE_DAYS.max,
    unit: 'días',
    types: BOTH,
    when: { key: 'offline_lock_enabled', equals: true },
    defaults: same(15),
  },
  {
    key: 'offline_warning_days',
    section: 'lock',
    block: 'Sin conexión',
    kind: 'integer',
    label: 'Avisar antes (días)',
    help: 'El dispositivo avisa al cliente estos días antes de bloquearse (0: sin aviso).',
    min: 0,
    max: OFFLINE_DAYS.max - 1,
    unit: 'días',
    types: BOTH,
    when: { key: 'offline_lock_enabled', equals: true },
    defaults: same(3),
  },
  {
    key: 'payment_reminder_enabled',
    section: 'lock',
    block: 'Recordatorio de pago',
    kind: 'flag',
    label: 'Recordatorio de pago',
    help: 'El dispositivo muestra un recordatorio de pago cada cierto tiempo, fuera del horario de descanso.',
    types: BOTH,
    defaults: same(false),
  },
  {
    key: 'payment_reminder_minutes',
    section: 'lock',
    block: 'Recordatorio de pago',
    kind: 'integer',
    label: 'Cada (minutos)',
    help: `Entre ${REMINDER_MINUTES.min} minutos y 24 horas (${REMINDER_MINUTES.max} minutos).`,
    min: REMINDER_MINUTES.min,
    max: REMINDER_MINUTES.max,
    unit: 'minutos',
    types: BOTH,
    when: { key: 'payment_reminder_enabled', equals: true },
    defaults: same(240),
  },
  {
    key: 'quiet_hours_start',
    section: 'lock',
    block: 'Recordatorio de pago',
    kind: 'time',
    label: 'Horario de descanso desde',
    help: 'Hora local del dispositivo (HH:MM). Vacío: sin horario de descanso.',
    types: BOTH,
    when: { key: 'payment_reminder_enabled', equals: true },
    defaults: same('21:00'),
  },
  {
    key: 'quiet_hours_end',
    section: 'lock',
    block: 'Recordatorio de pago',
    kind: 'time',
    label: 'Horario de descanso hasta',
    help: 'Hora local del dispositivo (HH:MM).',
    types: BOTH,
    when: { key: 'payment_reminder_enabled', equals: true },
    defaults: same('08:00'),
  },

  // Release ------------------------------------------------------------------------------
  {
    key: 'release_uninstall_agent',
    section: 'release',
    block: 'Al liberar',
    kind: 'flag',
    label: 'Desinstalar el agente',
    help: 'Al liberarse, el dispositivo quita la app de bloqueo y la administración del equipo.',
    types: BOTH,
    defaults: same(true),
  },
  {
    key: 'release_message',
    section: 'release',
    block: 'Al liberar',
    kind: 'text',
    label: 'Mensaje de liberación',
    help: `Se muestra una vez al cliente. Hasta ${RELEASE_MESSAGE_MAX} caracteres; vacío: sin mensaje.`,
    max: RELEASE_MESSAGE_MAX,
    multiline: true,
    required: false,
    types: BOTH,
    defaults: same('¡Felicidades! Terminaste de pagar tu equipo: ya es completamente tuyo.'),
  },

  // Screen design (smartphone) ------------------------------------------------------------
  {
    key: 'screen_title',
    section: 'screen',
    block: 'Textos',
    kind: 'text',
    label: 'Título',
    help: `Hasta ${SCREEN_TITLE_MAX} caracteres.`,
    max: SCREEN_TITLE_MAX,
    multiline: false,
    required: true,
    types: PHONE,
    defaults: same('Equipo bloqueado'),
  },
  {
    key: 'screen_message',
    section: 'screen',
    block: 'Textos',
    kind: 'text',
    label: 'Mensaje',
    help: `Hasta ${SCREEN_MESSAGE_MAX} caracteres.`,
    max: SCREEN_MESSAGE_MAX,
    multiline: true,
    required: true,
    types: PHONE,
    defaults: same('Tu equipo está bloqueado por falta de pago. Realiza tu pago para desbloquearlo o comunícate con nosotros.'),
  },
  {
    key: 'contact_phone',
    section: 'screen',
    block: 'Contacto',
    kind: 'phone',
    label: 'Teléfono de contacto',
    help: 'De 8 a 15 dígitos; puede empezar con + y llevar espacios o guiones.',
    types: PHONE,
    defaults: same(null),
  },
  {
    key: 'contact_email',
    section: 'screen',
    block: 'Contacto',
    kind: 'email',
    label: 'Correo de contacto',
    help: 'El correo al que el cliente puede escribir.',
    types: PHONE,
    defaults: same(null),
  },
  {
    key: 'primary_color',
    section: 'screen',
    block: 'Colores y logotipo',
    kind: 'color',
    label: 'Color principal',
    help: 'Título y botones (#RRGGBB).',
    types: PHONE,
    defaults: same('#0b5ed7'),
  },
  {
    key: 'background_color',
    section: 'screen',
    block: 'Colores y logotipo',
    kind: 'color',
    label: 'Color de fondo',
    help: 'Fondo de la pantalla de bloqueo (#RRGGBB).',
    types: PHONE,
    defaults: same('#ffffff'),
  },
  {
    key: 'logo',
    section: 'screen',
    block: 'Colores y logotipo',
    kind: 'logo',
    label: 'Logotipo',
    help: 'PNG o JPEG de hasta 512 KB.',
    types: PHONE,
    defaults: same(null),
  },
];

export const LOGO_MAX_BYTES = 512 * 1024;

/** The settings of a section that mean something for a device type, in page order. */
export function fieldsOf(deviceType: DeviceTypeCode, section?: SettingsSectionKey): SettingField[] {
  return SETTING_FIELDS.filter((f) => f.types.includes(deviceType) && (section === undefined || f.section === section));
}

export function settingField(key: string): SettingField | undefined {
  return SETTING_FIELDS.find((f) => f.key === key);
}

export type SettingsValues = Record<string, SettingValue>;

/** What applies before anything is saved, for every setting of the type. */
export function defaultsOf(deviceType: DeviceTypeCode): SettingsValues {
  return Object.fromEntries(fieldsOf(deviceType).map((f) => [f.key, f.defaults[deviceType]]));
}

/** A value of the right kind for a field (what a stored row may hold). */
function fits(field: SettingField, v: unknown): v is SettingValue {
  switch (field.kind) {
    case 'flag':
      return typeof v === 'boolean';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) && v >= field.min && v <= field.max;
    case 'choice':
      return field.options.some((o) => o.value === v);
    case 'color':
      return typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v);
    case 'text':
      return typeof v === 'string' && v.length <= field.max && (!field.required || v.length > 0);
    case 'logo':
      return v === null || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v));
    default:
      return v === null || typeof v === 'string';
  }
}

/**
 * The settings of a device: the defaults of its type, then the global row, then its group's
 * row. A stored key the type does not have, or a value of the wrong kind, is ignored.
 */
export function mergeSettings(deviceType: DeviceTypeCode, ...layers: (Record<string, unknown> | undefined | null)[]): SettingsValues {
  const merged = defaultsOf(deviceType);
  const fields = new Map(fieldsOf(deviceType).map((f) => [f.key, f]));
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer ?? {})) {
      const f = fields.get(k);
      if (f && fits(f, v)) merged[k] = v;
    }
  }
  return merged;
}

/** The keys a row sets that are settings of the type (an override's visible part). */
export function keysSet(deviceType: DeviceTypeCode, row: Record<string, unknown> | undefined | null, section?: SettingsSectionKey): string[] {
  const fields = fieldsOf(deviceType, section);
  return fields.filter((f) => row && Object.hasOwn(row, f.key) && fits(f, row[f.key])).map((f) => f.key);
}

/** The flags and rules the server itself applies (enrollment, SIM locks). */
export type AgentSettings = Record<RestrictionFlag, boolean> & { allow_unregistered_enrollment: boolean };

/** The server's view of the merged settings: every reference §3 flag (false where the type does not have it). */
export function effectiveSettings(
  deviceType: DeviceTypeCode,
  global: Record<string, unknown> | undefined,
  group: Record<string, unknown> | undefined,
): AgentSettings & SettingsValues {
  const merged = mergeSettings(deviceType, global, group);
  const flags = Object.fromEntries(
    [...RESTRICTION_FLAGS, 'allow_unregistered_enrollment' as const].map((k) => [k, merged[k] === true]),
  ) as AgentSettings;
  return { ...merged, ...flags };
}

// Rules across fields ------------------------------------------------------------------

export interface SettingsIssue {
  field: string;
  message: string;
}

/** Whether a field applies given the other values (its `when`). */
export function isActive(field: SettingField, values: SettingsValues): boolean {
  return !field.when || values[field.when.key] === field.when.equals;
}

/**
 * The rules that involve more than one value, checked on the merged values of a section (a
 * group's override merged over the global row): the notice needs its text or URL, the warning
 * comes before the offline lock, quiet hours have both ends or none.
 */
export function crossFieldIssues(deviceType: DeviceTypeCode, section: SettingsSectionKey, v: SettingsValues): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  const label = (k: string) => settingField(k)!.label;
  if (section === 'enrollment') {
    if (v.enrollment_notice === 'text' && !v.enrollment_notice_text)
      issues.push({
        field: 'enrollment_notice_text',
        message: `El campo ${label('enrollment_notice_text')} es obligatorio cuando el aviso es un texto`,
      });
    if (v.enrollment_notice === 'url' && !v.enrollment_notice_url)
      issues.push({
        field: 'enrollment_notice_url',
        message: `El campo ${label('enrollment_notice_url')} es obligatorio cuando el aviso es un enlace`,
      });
  }
  if (section === 'lock') {
    if (
      v.offline_lock_enabled === true &&
      typeof v.offline_warning_days === 'number' &&
      typeof v.offline_lock_days === 'number' &&
      v.offline_warning_days >= v.offline_lock_days
    )
      issues.push({
        field: 'offline_warning_days',
        message: `El campo ${label('offline_warning_days')} debe ser menor que ${label('offline_lock_days')} (${v.offline_lock_days})`,
      });
    if (v.payment_reminder_enabled === true && (v.quiet_hours_start === null) !== (v.quiet_hours_end === null))
      issues.push({
        field: v.quiet_hours_start === null ? 'quiet_hours_start' : 'quiet_hours_end',
        message: `Indique las dos horas del horario de descanso, o ninguna`,
      });
    if (v.payment_reminder_enabled === true && v.quiet_hours_start !== null && v.quiet_hours_start === v.quiet_hours_end)
      issues.push({ field: 'quiet_hours_end', message: `El campo ${label('quiet_hours_end')} debe ser distinto de ${label('quiet_hours_start')}` });
  }
  void deviceType;
  return issues;
}

/** The public address of an uploaded logo (content-addressed: its bytes never change). */
export const logoUrl = (sha256: string) => `/agent/v1/logos/${sha256}`;
/** The API's path segment of a device type ('smartphone', 'tv'). */
export const typeSlug = (deviceType: DeviceTypeCode) => DEVICE_TYPE_SLUGS[deviceType];
