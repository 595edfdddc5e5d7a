import { DEVICE_STATUS } from '../../shared/constants/domain';
import type { FleetSnapshot, FleetSummary } from './fleet';
import { newCounters } from './simulatedAgent';
import { formatElapsed, formatLine, formatStatuses, jsonSummary, progressBar, summaryLines } from './summary';

const snapshot = (over: Partial<FleetSnapshot> = {}): FleetSnapshot => ({
  ...newCounters(),
  elapsedMs: 0,
  devices: 0,
  byStatus: [],
  unknown: 0,
  online: 0,
  offline: 0,
  commandsPerSecond: 0,
  statusesSeen: [],
  ...over,
});

test('the progress bar fills with the elapsed share, bounded', () => {
  expect(progressBar(0, 10)).toBe('[----------]');
  expect(progressBar(0.5, 10)).toBe('[#####-----]');
  expect(progressBar(1, 10)).toBe('[##########]');
  expect(progressBar(3, 10)).toBe('[##########]');
  expect(progressBar(Number.NaN, 4)).toBe('[----]');
});

test('elapsed time as mm:ss, h:mm:ss past an hour', () => {
  expect(formatElapsed(0)).toBe('00:00');
  expect(formatElapsed(65_400)).toBe('01:05');
  expect(formatElapsed(3_600_000)).toBe('1:00:00');
});

test('statuses by their Spanish label, then the devices without an answer', () => {
  expect(
    formatStatuses(
      [
        { status: DEVICE_STATUS.activo, count: 120 },
        { status: DEVICE_STATUS.bloqueado, count: 30 },
        { status: DEVICE_STATUS.sin_conexion, count: 1 },
      ],
      2,
    ),
  ).toBe('Activo 120 · Bloqueado 30 · Sin conexión 1 · Sin respuesta 2');
});

test('the live line: bar, time, statuses, commands per second and errors; cut to the terminal width', () => {
  const s = snapshot({ byStatus: [{ status: DEVICE_STATUS.enrolado, count: 5 }], commandsPerSecond: 2.345, errors: 3 });
  const line = formatLine(s, 30_000, 120_000);
  expect(line).toBe('[#####---------------] 00:30/02:00 | Enrolado 5 | 2.3 comandos/s | errores: 3');
  const cut = formatLine(s, 30_000, 120_000, 40);
  expect(cut).toHaveLength(40);
  expect(cut.endsWith('…')).toBe(true);
});

test('the --json summary and the closing lines', () => {
  const summary: FleetSummary = {
    devices: [
      { imei: '359900000000008', status: DEVICE_STATUS.bloqueado },
      { imei: '359900000000016', status: null },
    ],
    refusals: [],
    acknowledged: 10,
    rejected: 1,
    checkins: 200,
    errors: 0,
    rateLimited: 2,
    durationMs: 120_500,
    statusesSeen: [1, 3, 4],
    roles: [{ role: 'locked', imei: '359900000000008', deviceId: 1, goal: 3, status: 3, incomplete: null }],
  };
  expect(jsonSummary(summary)).toEqual({
    devices: summary.devices,
    refusals: [],
    acknowledged: 10,
    rejected: 1,
    checkins: 200,
    errors: 0,
    rateLimited: 2,
    durationMs: 120_500,
    statusesSeen: [1, 3, 4],
  });
  const lines = summaryLines(summary);
  expect(lines[1]).toBe('  Bloqueado 1 · Sin respuesta 1');
  expect(lines[2]).toBe('  Check-ins: 200 · comandos confirmados: 10 · rechazados: 1 · errores: 0');
  expect(lines.some((l) => l.includes('Roles sin completar'))).toBe(false);
  const short = summaryLines({ ...summary, roles: [{ ...summary.roles[0]!, incomplete: 'bloqueo: estado 4' }] });
  expect(short).toContain('  Roles sin completar: 1 de 1 (p. ej. locked: bloqueo: estado 4)');
});

test('refused enrollments are printed with their status, code and message, most first', () => {
  const base: FleetSummary = {
    devices: [{ imei: '359900000000016', status: null }],
    refusals: [
      { status: 409, code: 'ALREADY_ENROLLED', message: 'El dispositivo ya está enrolado', devices: 2 },
      { status: 403, code: 'ENROLLMENT_OTHER_GROUP', message: 'El dispositivo está registrado en otro grupo', devices: 1 },
    ],
    acknowledged: 0,
    rejected: 0,
    checkins: 0,
    errors: 3,
    rateLimited: 0,
    durationMs: 1_000,
    statusesSeen: [],
    roles: [],
  };
  const lines = summaryLines(base);
  expect(lines).toContain('  Enrolamiento rechazado (2 dispositivos): 409 ALREADY_ENROLLED: El dispositivo ya está enrolado');
  expect(lines).toContain('  Enrolamiento rechazado (1 dispositivo): 403 ENROLLMENT_OTHER_GROUP: El dispositivo está registrado en otro grupo');
  expect(jsonSummary(base).refusals).toEqual(base.refusals);
});
