import { DEVICE_ACTIONS } from './deviceActions';
import {
  ACTION_ORIGIN,
  ACTION_ORIGINS,
  APP_TYPE,
  APP_TYPES,
  DEVICE_STATUS,
  DEVICE_STATUSES,
  DEVICE_TYPE,
  DEVICE_TYPES,
  LOCK_TYPES,
  RESTRICTION_FLAGS,
  SELECTABLE_APP_TYPES,
  STATUS_FILTERS,
  deviceStatusLabel,
  disabledActionsForStatus,
  findStatusFilter,
} from './domain';

/*
 * The lists of reference §3 and §4, written out one per line and parsed here, so a typo in the
 * constants, or in the order, fails.
 */
const SPEC_DEVICE_TYPE = 'Device type: 1 SMARTPHONE (label Móvil), 2 TV.';
const SPEC_APP_TYPES = 'App types: ENTERPRISE=1, INTERNAL=2, DOWNLOADER=4, TV=5. Selectable labels: 2 Macrolock, 4 Downloader, 5 Macrolock.TV.';
const SPEC_LOCK_TYPES =
  'Lock types: PorCredito (Por Crédito), PorNoConexion (Por No Conexión), PorCambioSIM (Por Cambio SIM), SinKiosko (Sin Kiosko).';
const SPEC_RESTRICTION_FLAGS =
  'Restriction flags: disable_incoming_calls, disable_outgoing_calls, lock_sim_change, disable_sms, disable_camera, disable_screen_capture, require_QR_validation, require_sim_for_enroll, enabled_lock_for_remove_sim, disable_tv_hospitality_mode, disable_media_player, disable_streaming.';
const SPEC_DEVICE_STATUSES =
  'Device status codes: 1 enrolado, 2 enrolando, 3 bloqueado, 4 bloqueando, 5 activo, 6 desbloqueando, 9 liberado, 10 liberando, 11 desbloqueado, 15 configurado, 16 configurando, 17 desbloqueado_offline, 18 configurado_bloqueado, 19 configurado_activo, 20 sin_conexion, 21 fallido, 22 SUSPENDED, 23 TEMPORARY_ACTIVE, 24 TEMPORARY_UNLOCKING, 25 PRE_ENROLLED.';
const SPEC_ACTION_ORIGINS = 'Action origins: 0 LOCK_BY_STOLEN, 1 ENROLL, 2 DELETE_DEVICE.';
const SPEC_DEVICE_ACTIONS =
  'Device action codes: 0 LOCK, 1 UNLOCK, 2 RELEASE, 3 UPDATE_APP_MACRO, 4 UPDATE_APP_BUSINESS, 5 SEND_NOTIFICATION, 6 CODE_BAR, 7 HISTORY, 8 RESTRICTIONS, 9 UNLOCK_OFFLINE, 10 SIM_CARD_SETTING, 11 DELETE_DEVICE, 12 UNLOCK_OFFLINE_WITH_DATE, 13 RELEASE_OFFLINE.';
/** The reference §4 table of the status filter, row by row: [Filter entry, Disabled actions]. */
const SPEC_STATUS_FILTER_TABLE = [
  [
    'Enrolado, Enrolando, Bloqueado, Bloqueando, Desbloqueado, Desbloqueando, Activo, Desbloqueado offline, Liberando, Activo temporal',
    '11 (delete)',
  ],
  ['Liberado', '0, 1, 6, 8, 9, 12, 4'],
  ['Fallido, Suspendido, Desbloqueando temporal', 'none'],
  ["One 'Bloqueado <lock type>' entry per lock type", '11 (delete)'],
] as const;

/** The Spanish label of every status, in code order (reference §4 names them, these label them). */
const STATUS_LABELS = [
  'Enrolado',
  'Enrolando',
  'Bloqueado',
  'Bloqueando',
  'Activo',
  'Desbloqueando',
  'Liberado',
  'Liberando',
  'Desbloqueado',
  'Configurado',
  'Configurando',
  'Desbloqueado offline',
  'Configurado bloqueado',
  'Configurado activo',
  'Sin conexión',
  'Fallido',
  'Suspendido',
  'Activo temporal',
  'Desbloqueando temporal',
  'Pre-enrolado',
];

/** 'Title: a, b, c.' → ['a', 'b', 'c'] */
function listOf(text: string): string[] {
  return text
    .slice(text.indexOf(':') + 1)
    .replace(/\.$/, '')
    .split(', ')
    .map((s) => s.trim());
}

/** '1 enrolado' → [1, 'enrolado'] */
function codeAndName(item: string): [number, string] {
  const m = /^(\d+) (\S+)$/.exec(item);
  if (!m) throw new Error(`not '<code> <name>': ${item}`);
  return [Number(m[1]), m[2]!];
}

function disabledFromSpec(cell: string): number[] {
  if (cell === 'none') return [];
  return cell
    .replace(/ \(delete\)$/, '')
    .split(', ')
    .map(Number);
}

describe('reference §3: entities', () => {
  test('device types and their labels', () => {
    expect(DEVICE_TYPES.map((t) => [t.code, t.key])).toEqual(listOf(SPEC_DEVICE_TYPE).map((s) => codeAndName(s.replace(/ \(.*\)$/, ''))));
    expect(DEVICE_TYPES.map((t) => t.label)).toEqual(['Móvil', 'TV']);
    expect(DEVICE_TYPE).toEqual({ SMARTPHONE: 1, TV: 2 });
  });

  test('app types and the selectable ones with their labels', () => {
    const [types, selectable] = SPEC_APP_TYPES.split('. ');
    const expected = listOf(types!).map((s) => {
      const [key, code] = s.split('=');
      return { code: Number(code), key };
    });
    expect(APP_TYPES).toEqual(expected);
    expect(APP_TYPE).toEqual({ ENTERPRISE: 1, INTERNAL: 2, DOWNLOADER: 4, TV: 5 });
    const expectedSelectable = listOf(selectable!).map((s) => {
      const m = /^(\d+) (.+)$/.exec(s)!;
      return [Number(m[1]), m[2]];
    });
    expect(expectedSelectable).toEqual([
      [2, 'Macrolock'],
      [4, 'Downloader'],
      [5, 'Macrolock.TV'],
    ]);
    expect(SELECTABLE_APP_TYPES.map((t) => [t.code, t.label])).toEqual(expectedSelectable);
    for (const t of SELECTABLE_APP_TYPES) expect(APP_TYPE[t.key]).toBe(t.code);
  });

  test('lock types and their labels', () => {
    const expected = listOf(SPEC_LOCK_TYPES).map((s) => {
      const m = /^(\S+) \((.+)\)$/.exec(s)!;
      return { key: m[1], label: m[2] };
    });
    expect(expected).toHaveLength(4);
    expect(LOCK_TYPES).toEqual(expected);
  });

  test('the 12 restriction flags, spelled exactly', () => {
    expect(RESTRICTION_FLAGS).toEqual(listOf(SPEC_RESTRICTION_FLAGS));
    expect(RESTRICTION_FLAGS).toHaveLength(12);
    expect(RESTRICTION_FLAGS).toContain('require_QR_validation');
  });
});

describe('reference §4: states', () => {
  test('device status codes with the reference §4 names and a Spanish label each', () => {
    const expected = listOf(SPEC_DEVICE_STATUSES).map(codeAndName);
    expect(expected).toHaveLength(20);
    expect(DEVICE_STATUSES.map((s) => [s.code, s.key])).toEqual(expected);
    expect(DEVICE_STATUSES.map((s) => s.label)).toEqual(STATUS_LABELS);
    expect(DEVICE_STATUS.SUSPENDED).toBe(22);
    expect(DEVICE_STATUS.desbloqueado_offline).toBe(17);
    expect(deviceStatusLabel(22)).toBe('Suspendido');
    expect(deviceStatusLabel(25)).toBe('Pre-enrolado');
    expect(deviceStatusLabel(7)).toBeUndefined();
  });

  test('action origins', () => {
    expect(ACTION_ORIGINS.map((o) => [o.code, o.key])).toEqual(listOf(SPEC_ACTION_ORIGINS).map(codeAndName));
    expect(ACTION_ORIGIN).toEqual({ LOCK_BY_STOLEN: 0, ENROLL: 1, DELETE_DEVICE: 2 });
  });

  test('the device action codes reused here are those of reference §4', () => {
    expect(DEVICE_ACTIONS.map((a) => [a.code, a.key])).toEqual(listOf(SPEC_DEVICE_ACTIONS).map(codeAndName));
  });
});

describe('reference §4: status filter list', () => {
  /** The table expanded into one entry per filter entry, in the table's order. */
  const expected = SPEC_STATUS_FILTER_TABLE.flatMap(([entries, disabled]) => {
    const disabledActions = disabledFromSpec(disabled);
    if (entries.startsWith('One ')) {
      return LOCK_TYPES.map((t) => ({ label: `Bloqueado ${t.label}`, disabledActions }));
    }
    return entries.split(', ').map((label) => ({ label, disabledActions }));
  });

  test('one entry per filter entry of the table, in order, with its disabled actions', () => {
    expect(expected).toHaveLength(14 + 4);
    expect(STATUS_FILTERS.map((f) => ({ label: f.label, disabledActions: [...f.disabledActions] }))).toEqual(expected);
  });

  test('the labels, literally', () => {
    expect(STATUS_FILTERS.map((f) => f.label)).toEqual([
      'Enrolado',
      'Enrolando',
      'Bloqueado',
      'Bloqueando',
      'Desbloqueado',
      'Desbloqueando',
      'Activo',
      'Desbloqueado offline',
      'Liberando',
      'Activo temporal',
      'Liberado',
      'Fallido',
      'Suspendido',
      'Desbloqueando temporal',
      'Bloqueado Por Crédito',
      'Bloqueado Por No Conexión',
      'Bloqueado Por Cambio SIM',
      'Bloqueado Sin Kiosko',
    ]);
  });

  test('each entry selects its status code (and lock type for Bloqueado <tipo>)', () => {
    expect(STATUS_FILTERS.map((f) => [f.label, f.status, f.lockType ?? null, f.value])).toEqual([
      ['Enrolado', 1, null, '1'],
      ['Enrolando', 2, null, '2'],
      ['Bloqueado', 3, null, '3'],
      ['Bloqueando', 4, null, '4'],
      ['Desbloqueado', 11, null, '11'],
      ['Desbloqueando', 6, null, '6'],
      ['Activo', 5, null, '5'],
      ['Desbloqueado offline', 17, null, '17'],
      ['Liberando', 10, null, '10'],
      ['Activo temporal', 23, null, '23'],
      ['Liberado', 9, null, '9'],
      ['Fallido', 21, null, '21'],
      ['Suspendido', 22, null, '22'],
      ['Desbloqueando temporal', 24, null, '24'],
      ['Bloqueado Por Crédito', 3, 'PorCredito', '3:PorCredito'],
      ['Bloqueado Por No Conexión', 3, 'PorNoConexion', '3:PorNoConexion'],
      ['Bloqueado Por Cambio SIM', 3, 'PorCambioSIM', '3:PorCambioSIM'],
      ['Bloqueado Sin Kiosko', 3, 'SinKiosko', '3:SinKiosko'],
    ]);
    for (const f of STATUS_FILTERS) if (!f.lockType) expect(deviceStatusLabel(f.status)).toBe(f.label);
    expect(new Set(STATUS_FILTERS.map((f) => f.value)).size).toBe(STATUS_FILTERS.length);
    expect(findStatusFilter('3:SinKiosko')?.label).toBe('Bloqueado Sin Kiosko');
    expect(findStatusFilter('99')).toBeUndefined();
    // A reference §4 status outside the list filters too (the dashboards link to it); PRE_ENROLLED is a page of its own.
    expect(findStatusFilter('20')).toEqual({ value: '20', label: 'Sin conexión', status: 20, disabledActions: [] });
    expect(findStatusFilter('16')?.label).toBe('Configurando');
    expect(findStatusFilter('25')).toBeUndefined();
    expect(findStatusFilter('3')).toBe(STATUS_FILTERS.find((f) => f.value === '3'));
  });

  test('disabled actions are device action codes', () => {
    const codes = DEVICE_ACTIONS.map((a) => a.code as number);
    for (const f of STATUS_FILTERS) for (const a of f.disabledActions) expect(codes).toContain(a);
  });

  test('disabledActionsForStatus follows the table', () => {
    expect(disabledActionsForStatus(1)).toEqual([11]);
    expect(disabledActionsForStatus(23)).toEqual([11]);
    expect(disabledActionsForStatus(9)).toEqual([0, 1, 6, 8, 9, 12, 4]);
    expect(disabledActionsForStatus(21)).toEqual([]);
    expect(disabledActionsForStatus(22)).toEqual([]);
    expect(disabledActionsForStatus(24)).toEqual([]);
    expect(disabledActionsForStatus(3)).toEqual([11]);
    for (const t of LOCK_TYPES) expect(disabledActionsForStatus(3, t.key)).toEqual([11]);
    // The lock type only matters for the locked status; statuses outside the table disable nothing.
    expect(disabledActionsForStatus(9, 'PorCredito')).toEqual([0, 1, 6, 8, 9, 12, 4]);
    expect(disabledActionsForStatus(25)).toEqual([]);
    expect(disabledActionsForStatus(20)).toEqual([]);
  });
});
