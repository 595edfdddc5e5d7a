import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS, DEVICE_STATUSES, STATUS_FILTERS } from '../../shared/constants/domain';
import { actionPayload } from '../../shared/contracts/deviceActions';
import { prng } from '../seed/prng';
import { ROLES, ROLE_GOALS, assignRoles, churnAction, needsPhone, rejectsAll, startsPaused } from './scenario';

describe('scenario roles', () => {
  test('the goals cover every reference §4 status but Sin conexión, and every Bloqueado <tipo> entry', () => {
    const goals = new Set(Object.values(ROLE_GOALS).map((g) => g.status));
    const all = DEVICE_STATUSES.map((s) => s.code).filter((c) => c !== DEVICE_STATUS.sin_conexion);
    expect([...goals].sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b));
    const lockTypes = new Set(Object.values(ROLE_GOALS).flatMap((g) => (g.lockType ? [g.lockType] : [])));
    const filterTypes = STATUS_FILTERS.flatMap((f) => (f.lockType ? [f.lockType] : []));
    expect([...lockTypes].sort()).toEqual([...filterTypes].sort());
  });

  test('a small fleet takes the roles in order; a large one has one of each, then draws by share', () => {
    expect(assignRoles(3, prng(1))).toEqual(['preEnrolled', 'enrolled', 'locked']);
    expect(assignRoles(0, prng(1))).toEqual([]);
    const big = assignRoles(2_000, prng(1));
    expect(big).toHaveLength(2_000);
    expect(big.slice(0, ROLES.length)).toEqual([...ROLES]);
    const count = (r: string) => big.filter((x) => x === r).length;
    // 'active' has the largest share, 'held' one of the smallest.
    expect(count('active')).toBeGreaterThan(count('locked'));
    expect(count('locked')).toBeGreaterThan(count('held'));
    expect(assignRoles(500, prng(9))).toEqual(assignRoles(500, prng(9)));
  });

  test('a restricted choice of roles is kept', () => {
    const roles = assignRoles(100, prng(2), ['enrolled', 'active']);
    expect(new Set(roles)).toEqual(new Set(['enrolled', 'active']));
  });

  test('agents of special roles: enrolando stays quiet, fallido rejects, the SIM change needs a phone', () => {
    expect(ROLES.filter(startsPaused)).toEqual(['enrolling']);
    expect(ROLES.filter(rejectsAll)).toEqual(['failed']);
    expect(ROLES.filter(needsPhone)).toEqual(['simSwap']);
  });
});

describe('demo churn', () => {
  test('a locked device is unlocked, an unlocked one locked, the others left alone; always a valid action', () => {
    const high = () => 0.9;
    expect(churnAction(DEVICE_STATUS.bloqueado, high)).toEqual({ action: DEVICE_ACTION.UNLOCK, until: null });
    expect(churnAction(DEVICE_STATUS.activo, high)).toMatchObject({ action: DEVICE_ACTION.LOCK, lockType: 'SinKiosko' });
    expect(churnAction(DEVICE_STATUS.enrolado, () => 0.3)).toEqual({ action: DEVICE_ACTION.RESTRICTIONS });
    expect(churnAction(DEVICE_STATUS.bloqueando, high)).toBeNull();
    expect(churnAction(DEVICE_STATUS.liberado, high)).toBeNull();
    expect(churnAction(DEVICE_STATUS.bloqueando, () => 0.1)).toMatchObject({ action: DEVICE_ACTION.SEND_NOTIFICATION });
    const rnd = prng(4);
    for (const { code } of DEVICE_STATUSES) {
      for (let i = 0; i < 20; i++) {
        const p = churnAction(code, rnd);
        if (p) expect(actionPayload.safeParse(p).success).toBe(true);
      }
    }
  });
});
