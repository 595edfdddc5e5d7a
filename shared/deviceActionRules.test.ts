import { DEVICE_ACTIONS } from './constants/deviceActions';
import { DEVICE_STATUSES, LOCK_TYPES, STATUS_FILTERS, disabledActionsForStatus, type LockType } from './constants/domain';
import { actionLabel, commandLabel, refusal } from './deviceActionRules';
import { INVENTORY_MESSAGES as M } from './areaMessages/inventory';

/*
 * Expectations come from the reference §4 table (written out below) and the product's
 * Actions section (one stateful command at a time, pre-enrolled devices admit only the registry
 * actions, a released device cannot be released again), not from the function under test.
 */

/** The reference §4 table of the status filter: [Filter entry, Disabled actions]. */
const SPEC_TABLE = [
  [
    'Enrolado, Enrolando, Bloqueado, Bloqueando, Desbloqueado, Desbloqueando, Activo, Desbloqueado offline, Liberando, Activo temporal',
    '11 (delete)',
  ],
  ['Liberado', '0, 1, 6, 8, 9, 12, 4'],
  ['Fallido, Suspendido, Desbloqueando temporal', 'none'],
  ["One 'Bloqueado <lock type>' entry per lock type", '11 (delete)'],
] as const;

const codesOf = (cell: string): number[] =>
  cell === 'none'
    ? []
    : cell
        .replace(/\(.*?\)/g, '')
        .split(',')
        .map((s) => Number(s.trim()));

/** Filter entry label → disabled action codes, from the table. */
const SPEC_DISABLED = new Map<string, number[]>();
for (const [entries, disabled] of SPEC_TABLE) {
  if (entries.startsWith('One ')) for (const t of LOCK_TYPES) SPEC_DISABLED.set(`Bloqueado ${t.label}`, codesOf(disabled));
  else for (const label of entries.split(', ')) SPEC_DISABLED.set(label, codesOf(disabled));
}

const ALL_ACTIONS = DEVICE_ACTIONS.map((a) => a.code);
/** Product: commands that change the device's state while in flight (one at a time). */
const STATEFUL = [0, 1, 2, 3, 4, 8, 10];
const PRE_ENROLLED = 25;
const LIBERADO = 9;

const statusCode = (label: string) => DEVICE_STATUSES.find((s) => s.label === label)!.code;

describe('the disabled-actions table (reference §4)', () => {
  test("one filter entry per table entry, each with the table's disabled actions", () => {
    expect(STATUS_FILTERS.map((f) => f.label).sort()).toEqual([...SPEC_DISABLED.keys()].sort());
    for (const f of STATUS_FILTERS) {
      expect([...f.disabledActions].sort((a, b) => a - b)).toEqual([...SPEC_DISABLED.get(f.label)!].sort((a, b) => a - b));
    }
  });

  test.each(STATUS_FILTERS.map((f) => [f.label, f] as const))('%s: every action allowed or refused as the table says', (label, f) => {
    const disabled = SPEC_DISABLED.get(label)!;
    const status = f.lockType ? statusCode('Bloqueado') : statusCode(label);
    expect(f.status).toBe(status);
    expect([...disabledActionsForStatus(status, f.lockType ?? null)].sort()).toEqual([...disabled].sort());
    for (const action of ALL_ACTIONS) {
      const r = refusal({ status, lockType: f.lockType ?? null, pendingAction: null }, action);
      if (disabled.includes(action)) {
        expect(r).toEqual({
          status: 409,
          code: 'ACTION_DISABLED_FOR_STATUS',
          reason: M.actions.disabledForStatus(actionLabel(action), status === 3 ? 'Bloqueado' : label),
        });
      } else if (status === LIBERADO && (action === 2 || action === 13)) {
        expect(r).toEqual({ status: 409, code: 'ALREADY_RELEASED', reason: M.actions.alreadyReleased });
      } else if (status === LIBERADO && action !== 7 && action !== 11) {
        expect(r).toEqual({ status: 409, code: 'RELEASED_NO_AGENT', reason: M.actions.releasedNoAgent });
      } else {
        expect(r).toBeNull();
      }
    }
  });

  test('a locked device of any lock type (and without one) refuses deletion and admits the rest', () => {
    for (const lockType of [...LOCK_TYPES.map((t) => t.key), null] as (LockType | null)[]) {
      expect(refusal({ status: 3, lockType, pendingAction: null }, 11)?.status).toBe(409);
      expect(refusal({ status: 3, lockType, pendingAction: null }, 1)).toBeNull();
    }
  });

  test('statuses the table does not list disable nothing by the table', () => {
    const listed = new Set(STATUS_FILTERS.map((f) => f.status));
    for (const s of DEVICE_STATUSES.filter((x) => !listed.has(x.code) && x.code !== PRE_ENROLLED)) {
      expect(disabledActionsForStatus(s.code)).toEqual([]);
      for (const action of ALL_ACTIONS) expect(refusal({ status: s.code, lockType: null, pendingAction: null }, action)).toBeNull();
    }
  });
});

describe('refusals beyond the table', () => {
  test('a command in flight: stateful actions and deletion conflict; notifications, barcodes and offline codes do not', () => {
    for (const pending of STATEFUL) {
      for (const action of ALL_ACTIONS) {
        // 'Configurado' disables nothing by the table: only the command in flight decides.
        const r = refusal({ status: 15, lockType: null, pendingAction: pending }, action);
        if (STATEFUL.includes(action) || action === 11) {
          expect(r).toEqual({ status: 409, code: 'PENDING_COMMAND', reason: M.actions.pendingConflict(actionLabel(pending)) });
        } else {
          expect(r).toBeNull();
        }
      }
    }
  });

  test("the table's reason comes first when both apply", () => {
    expect(refusal({ status: 4, lockType: null, pendingAction: 0 }, 11)?.code).toBe('ACTION_DISABLED_FOR_STATUS');
    expect(refusal({ status: 4, lockType: null, pendingAction: 0 }, 1)?.code).toBe('PENDING_COMMAND');
  });

  test('pre-enrolled devices admit only the registry actions (history and delete)', () => {
    for (const action of ALL_ACTIONS) {
      const r = refusal({ status: PRE_ENROLLED, lockType: null, pendingAction: null }, action);
      if (action === 7 || action === 11) expect(r).toBeNull();
      else expect(r).toEqual({ status: 409, code: 'NOT_ENROLLED', reason: M.actions.notEnrolled });
    }
  });

  test('a released device: no second release (online or offline), no command (its agent left); it may be deleted', () => {
    const released = { status: LIBERADO, lockType: null, pendingAction: null };
    expect(refusal(released, 2)?.code).toBe('ALREADY_RELEASED');
    expect(refusal(released, 13)?.code).toBe('ALREADY_RELEASED');
    expect(refusal(released, 11)).toBeNull();
    expect(refusal(released, 7)).toBeNull();
    for (const action of [3, 5, 10]) expect(refusal(released, action)?.code).toBe('RELEASED_NO_AGENT');
  });

  test('deleting an active or locked device is refused (409)', () => {
    for (const status of [5, 3]) expect(refusal({ status, lockType: null, pendingAction: null }, 11)?.status).toBe(409);
    for (const status of [21, 22, 9, 15, 20, PRE_ENROLLED]) expect(refusal({ status, lockType: null, pendingAction: null }, 11)).toBeNull();
  });

  test('grants: an action the profile does not grant is a 403 before anything else, as a set or a list', () => {
    const device = { status: LIBERADO, lockType: null, pendingAction: null };
    expect(refusal(device, 0, new Set([5, 7]))).toEqual({ status: 403, code: 'ACTION_NOT_GRANTED', reason: M.actions.notGranted('Bloquear') });
    expect(refusal(device, 0, [5, 7])?.status).toBe(403);
    expect(refusal({ status: 5, lockType: null, pendingAction: null }, 0, [0])).toBeNull();
    expect(refusal(device, 11, [11])).toBeNull();
    // Granted, the device rules still apply.
    expect(refusal(device, 0, [0])?.status).toBe(409);
  });

  test('labels of the actions', () => {
    expect(actionLabel(0)).toBe('Bloquear');
    expect(actionLabel(11)).toBe('Eliminar dispositivo');
    expect(actionLabel(99)).toBe('99');
  });
});

describe('commandLabel', () => {
  test('a RESTRICTIONS command says whether it applies or lifts the collection restrictions; other commands keep their action’s name', () => {
    expect(commandLabel(8, { collection: true })).toBe('Aplicar restricciones de cobranza');
    expect(commandLabel(8, { collection: false })).toBe('Quitar restricciones de cobranza');
    expect(commandLabel(8, {})).toBe('Aplicar restricciones');
    expect(commandLabel(0, { collection: true })).toBe('Bloquear');
    expect(commandLabel(99, {})).toBe('99');
  });
});
