import { DEVICE_ACTION, DEVICE_ACTIONS } from './constants/deviceActions';
import { DEVICE_STATUS, DEVICE_STATUSES, LOCK_TYPES, type LockType } from './constants/domain';
import {
  acknowledged,
  agentLocked,
  cancelled,
  checkin,
  awaitsEnrollment,
  enroll,
  enrollmentRefused,
  hold,
  offlineRedeemed,
  rejected,
  requested,
  resume,
  temporaryExpired,
  type CheckinReport,
  type MachineCommand,
  type MachineFacts,
  type RefusalCode,
  type Transition,
} from './deviceStateMachine';
import { CONFIGURING_ACTIONS, LIFECYCLES, LOCK_STATES, STATEFUL_ACTIONS, baseStatus, type Lifecycle, type LockState } from './deviceStatus';

const NOW = new Date('2026-03-01T12:00:00Z');
const BEFORE = new Date(NOW.getTime() - 3600_000);
const LATER = new Date(NOW.getTime() + 86_400_000);

const S = DEVICE_STATUS;
const A = DEVICE_ACTION;

/** An operating, active device with nothing pending. */
const facts = (f: Partial<MachineFacts> = {}): MachineFacts => ({
  lifecycle: 'operating',
  lockState: 'active',
  lockType: null,
  lockMessage: null,
  temporaryUntil: null,
  pendingCommandId: null,
  pendingAction: null,
  pendingUntil: null,
  failureReason: null,
  heldLifecycle: null,
  ...f,
});
const lockedFacts = (f: Partial<MachineFacts> = {}): MachineFacts =>
  facts({ lockState: 'locked', lockType: 'PorCredito', lockMessage: 'Pague su mensualidad', ...f });
const pendingOf = (c: MachineCommand, until: Date | null = null): Partial<MachineFacts> => ({
  pendingCommandId: c.id,
  pendingAction: c.action,
  pendingUntil: until,
});

const cmd = (id: number, action: number, payload: Record<string, unknown> = {}): MachineCommand => ({ id, action, payload });
const report = (r: Partial<CheckinReport> = {}): CheckinReport => ({ now: NOW, simChanged: false, lockOnSimChange: false, ...r });

/** The reference §4 status code the facts map to (what `devices.base_status` would store). */
const status = (f: MachineFacts): number => baseStatus({ ...f, lastSeenAt: null });

/** The facts of an accepted transition (the test fails on a refusal). */
function accepted(t: Transition): MachineFacts {
  if (!t.ok) throw new Error(`refused with ${t.code}`);
  return t.facts;
}
const revokes = (t: Transition): boolean => (t.ok ? t.revokeToken : false);
const refusal = (t: Transition): RefusalCode | undefined => (t.ok ? undefined : t.code);
type Step = (f: MachineFacts) => Transition;

describe('enroll', () => {
  test.each<[string, MachineFacts]>([
    ['pre-enrolled starts enrolling', facts({ lifecycle: 'pre_enrolled' })],
    ['a refused enrollment tries again', facts({ lifecycle: 'enrolling', failureReason: 'IMEI fuera de rango' })],
  ])('%s, with or without an authorisation', (_name, before) => {
    for (const authorised of [false, true]) {
      const after = accepted(enroll(before, { authorised }));
      expect(after).toEqual({ ...before, lifecycle: 'enrolling', failureReason: null });
      expect(status(after)).toBe(S.enrolando);
    }
  });

  test.each<[string, MachineFacts, Lifecycle, number]>([
    ['enrolling (token issued, no check-in yet)', facts({ lifecycle: 'enrolling' }), 'enrolling', S.enrolando],
    ['enrolled again (reset)', facts({ lifecycle: 'enrolled' }), 'enrolled', S.enrolado],
    ['configured again', facts({ lifecycle: 'configured' }), 'configured', S.configurado],
    ['operating and locked keeps its lock', lockedFacts(), 'operating', S.bloqueado],
    ['reconfigured and locked', lockedFacts({ lifecycle: 'reconfigured' }), 'reconfigured', S.configurado_bloqueado],
    ['suspended stays on hold', facts({ lifecycle: 'suspended', heldLifecycle: 'operating' }), 'suspended', S.SUSPENDED],
  ])('%s: refused without an authorisation (ALREADY_ENROLLED), kept as it is with one', (_name, before, lifecycle, code) => {
    expect(refusal(enroll(before, { authorised: false }))).toBe('ALREADY_ENROLLED');
    const after = accepted(enroll(before, { authorised: true }));
    expect(after).toEqual({ ...before, lifecycle, failureReason: null });
    expect(status(after)).toBe(code);
    expect(revokes(enroll(before, { authorised: true }))).toBe(false);
  });

  test('an authorised re-enrollment loses a previous failure and keeps its lock and pending command', () => {
    const before = lockedFacts({ failureReason: 'rechazado', ...pendingOf(cmd(7, A.UNLOCK)) });
    expect(status(before)).toBe(S.desbloqueando);
    const after = accepted(enroll(before, { authorised: true }));
    expect(after).toEqual({ ...before, failureReason: null });
  });

  test('a released device is refused (RELEASED), authorised or not', () => {
    expect(refusal(enroll(facts({ lifecycle: 'released' }), { authorised: false }))).toBe('RELEASED');
    expect(refusal(enroll(facts({ lifecycle: 'released' }), { authorised: true }))).toBe('RELEASED');
  });
});

describe('awaitsEnrollment', () => {
  test('only a registered device and one whose enrollment was refused before it completed', () => {
    expect(awaitsEnrollment(facts({ lifecycle: 'pre_enrolled' }))).toBe(true);
    expect(awaitsEnrollment(facts({ lifecycle: 'enrolling', failureReason: 'Modelo no permitido' }))).toBe(true);
    for (const lifecycle of ['enrolling', 'enrolled', 'configured', 'operating', 'reconfigured', 'suspended', 'released'] as const) {
      expect(awaitsEnrollment(facts({ lifecycle }))).toBe(false);
    }
    expect(awaitsEnrollment(lockedFacts({ failureReason: 'rechazado' }))).toBe(false);
  });
});

describe('enrollmentRefused', () => {
  test.each<[string, MachineFacts]>([
    ['pre-enrolled', facts({ lifecycle: 'pre_enrolled' })],
    ['refused before', facts({ lifecycle: 'enrolling', failureReason: 'Otra razón' })],
  ])('%s → fallido (21) with the reason', (_name, before) => {
    const after = accepted(enrollmentRefused(before, 'Modelo no permitido'));
    expect(after).toEqual(facts({ lifecycle: 'enrolling', failureReason: 'Modelo no permitido' }));
    expect(status(after)).toBe(S.fallido);
  });

  test.each<Lifecycle>(['enrolling', 'enrolled', 'configured', 'operating', 'reconfigured', 'suspended'])(
    '%s is left as it is (ALREADY_ENROLLED: no griefing)',
    (lifecycle) => {
      expect(refusal(enrollmentRefused(facts({ lifecycle, heldLifecycle: lifecycle === 'suspended' ? 'enrolled' : null }), 'x'))).toBe(
        'ALREADY_ENROLLED',
      );
    },
  );

  test('a released device is refused (RELEASED)', () => {
    expect(refusal(enrollmentRefused(facts({ lifecycle: 'released' }), 'x'))).toBe('RELEASED');
  });
});

describe('checkin', () => {
  test('the first check-in completes the enrollment: enrolando (2) → enrolado (1)', () => {
    const after = accepted(checkin(facts({ lifecycle: 'enrolling' }), report()));
    expect(after).toEqual(facts({ lifecycle: 'enrolled' }));
    expect(status(after)).toBe(S.enrolado);
  });

  test('a refused enrollment stays fallido (21) at check-in', () => {
    const before = facts({ lifecycle: 'enrolling', failureReason: 'Modelo no permitido' });
    const after = accepted(checkin(before, report()));
    expect(after).toEqual(before);
    expect(status(after)).toBe(S.fallido);
  });

  test('desbloqueado (11) becomes activo (5)', () => {
    const before = facts({ lockState: 'unlocked' });
    expect(status(before)).toBe(S.desbloqueado);
    const after = accepted(checkin(before, report()));
    expect(after).toEqual(facts({ lockState: 'active' }));
    expect(status(after)).toBe(S.activo);
  });

  test.each<[string, Date, LockState, number]>([
    ['before the date stays TEMPORARY_ACTIVE (23)', LATER, 'temporary_active', S.TEMPORARY_ACTIVE],
    ['at the date locks again', NOW, 'locked', S.bloqueado],
    ['after the date locks again', BEFORE, 'locked', S.bloqueado],
  ])('a temporary unlock %s', (_name, temporaryUntil, lockState, code) => {
    const before = facts({ lockState: 'temporary_active', temporaryUntil, lockType: 'SinKiosko', lockMessage: 'Llame a su asesor' });
    const after = accepted(checkin(before, report()));
    expect(after.lockState).toBe(lockState);
    expect(status(after)).toBe(code);
    // The lock type and message of the lock the temporary unlock suspended are kept.
    expect(after.lockType).toBe('SinKiosko');
    expect(after.lockMessage).toBe('Llame a su asesor');
    expect(after.temporaryUntil).toEqual(lockState === 'locked' ? null : LATER);
  });

  test('an expired temporary unlock without a lock type locks as Por Crédito', () => {
    const after = accepted(checkin(facts({ lockState: 'temporary_active', temporaryUntil: BEFORE }), report()));
    expect(after).toEqual(facts({ lockState: 'locked', lockType: 'PorCredito' }));
  });

  test.each<[string, MachineFacts, Partial<MachineFacts>]>([
    ['activo', facts(), { lifecycle: 'operating' }],
    ['enrolado', facts({ lifecycle: 'enrolled' }), { lifecycle: 'operating' }],
    ['configurado activo', facts({ lifecycle: 'reconfigured' }), { lifecycle: 'operating' }],
    ['TEMPORARY_ACTIVE', facts({ lockState: 'temporary_active', temporaryUntil: LATER }), { lifecycle: 'operating' }],
    ['suspended', facts({ lifecycle: 'suspended', heldLifecycle: 'configured' }), { lifecycle: 'suspended', heldLifecycle: 'operating' }],
  ])('a changed SIM with lock_sim_change locks %s as Por Cambio SIM', (_name, before, lifecycle) => {
    const after = accepted(checkin(before, report({ simChanged: true, lockOnSimChange: true })));
    expect(after).toEqual({ ...before, ...lifecycle, lockState: 'locked', lockType: 'PorCambioSIM', lockMessage: null, temporaryUntil: null });
    expect(status(after)).toBe(before.lifecycle === 'suspended' ? S.SUSPENDED : S.bloqueado);
  });

  test.each<[string, MachineFacts, Partial<CheckinReport>]>([
    ['lock_sim_change does not apply', facts(), { simChanged: true, lockOnSimChange: false }],
    ['the SIM did not change', facts(), { simChanged: false, lockOnSimChange: true }],
    ['the device is already locked (its lock type stays)', lockedFacts(), { simChanged: true, lockOnSimChange: true }],
  ])('no SIM lock when %s', (_name, before, r) => {
    const after = accepted(checkin(before, report(r)));
    expect(after).toEqual(before);
  });

  test('nothing else changes: a pending command and a failure stay', () => {
    const before = lockedFacts({ failureReason: 'rechazado', ...pendingOf(cmd(3, A.UNLOCK)) });
    expect(accepted(checkin(before, report()))).toEqual(before);
    const failed = facts({ failureReason: 'rechazado' });
    expect(accepted(checkin(failed, report()))).toEqual(failed);
  });

  test.each<[Lifecycle, RefusalCode]>([
    ['pre_enrolled', 'NOT_ENROLLED'],
    ['released', 'RELEASED'],
  ])('%s is refused (%s)', (lifecycle, code) => {
    expect(refusal(checkin(facts({ lifecycle }), report()))).toBe(code);
  });
});

describe('requested', () => {
  test.each<[string, MachineCommand, number, Date | null]>([
    ['LOCK → bloqueando (4)', cmd(1, A.LOCK, { lockType: 'PorCredito' }), S.bloqueando, null],
    ['UNLOCK → desbloqueando (6)', cmd(1, A.UNLOCK), S.desbloqueando, null],
    ['UNLOCK until a date → TEMPORARY_UNLOCKING (24)', cmd(1, A.UNLOCK, { until: LATER.toISOString() }), S.TEMPORARY_UNLOCKING, LATER],
    ['RELEASE → liberando (10)', cmd(1, A.RELEASE), S.liberando, null],
    ['RESTRICTIONS → configurando (16)', cmd(1, A.RESTRICTIONS), S.configurando, null],
    ['UPDATE_APP_MACRO → configurando (16)', cmd(1, A.UPDATE_APP_MACRO), S.configurando, null],
    ['UPDATE_APP_BUSINESS → configurando (16)', cmd(1, A.UPDATE_APP_BUSINESS), S.configurando, null],
    ['SIM_CARD_SETTING → configurando (16)', cmd(1, A.SIM_CARD_SETTING), S.configurando, null],
    // Only an UNLOCK lasts until a date.
    ['LOCK with a date stays bloqueando (4)', cmd(1, A.LOCK, { until: LATER.toISOString() }), S.bloqueando, null],
  ])('%s', (_name, c, code, until) => {
    const before = lockedFacts({ failureReason: 'rechazado' });
    const after = accepted(requested(before, c));
    expect(after).toEqual({ ...before, pendingCommandId: c.id, pendingAction: c.action, pendingUntil: until });
    // The command in flight shows before the failure and the lock.
    expect(status(after)).toBe(code);
  });

  test.each(DEVICE_ACTIONS.filter((a) => !STATEFUL_ACTIONS.includes(a.code)).map((a) => [a.key, a.code] as const))(
    '%s does not change the facts',
    (_key, action) => {
      const before = lockedFacts(pendingOf(cmd(9, A.LOCK)));
      expect(accepted(requested(before, cmd(10, action)))).toEqual(before);
    },
  );

  test('a suspended device records the command but shows SUSPENDED (22)', () => {
    const before = facts({ lifecycle: 'suspended', heldLifecycle: 'operating' });
    const after = accepted(requested(before, cmd(4, A.LOCK)));
    expect(after).toEqual({ ...before, ...pendingOf(cmd(4, A.LOCK)) });
    expect(status(after)).toBe(S.SUSPENDED);
  });
});

describe('cancelled', () => {
  test.each<[string, MachineCommand, Date | null]>([
    ['LOCK', cmd(5, A.LOCK), null],
    ['UNLOCK until a date', cmd(5, A.UNLOCK, { until: LATER.toISOString() }), LATER],
    ['RELEASE inside its window', cmd(5, A.RELEASE), null],
    ['RESTRICTIONS', cmd(5, A.RESTRICTIONS), null],
  ])('the pending %s: the device waits for nothing', (_name, c, until) => {
    const before = lockedFacts(pendingOf(c, until));
    const after = accepted(cancelled(before, c));
    expect(after).toEqual(lockedFacts());
    expect(status(after)).toBe(S.bloqueado);
  });

  test('a command that is not the pending one leaves the pending command in place', () => {
    const before = facts(pendingOf(cmd(5, A.LOCK)));
    expect(accepted(cancelled(before, cmd(4, A.RESTRICTIONS)))).toEqual(before);
    expect(accepted(cancelled(facts(), cmd(4, A.LOCK)))).toEqual(facts());
  });
});

describe('acknowledged', () => {
  test('LOCK: activo (5) → bloqueando (4) → bloqueado (3), lock type and message from the payload', () => {
    const lock = cmd(11, A.LOCK, { lockType: 'SinKiosko', message: 'Comuníquese con su distribuidor' });
    const waiting = accepted(requested(facts(), lock));
    expect(status(waiting)).toBe(S.bloqueando);
    const t = acknowledged(waiting, lock);
    const after = accepted(t);
    expect(after).toEqual(facts({ lockState: 'locked', lockType: 'SinKiosko', lockMessage: 'Comuníquese con su distribuidor' }));
    expect(status(after)).toBe(S.bloqueado);
    expect(revokes(t)).toBe(false);
  });

  test.each<[string, Record<string, unknown>, LockType, string | null]>([
    ['no lock type → Por Crédito', {}, 'PorCredito', null],
    ['an unknown lock type → Por Crédito', { lockType: 'Otro', message: 'Hola' }, 'PorCredito', 'Hola'],
    ['a message that is not text → none', { lockType: 'PorNoConexion', message: 42 }, 'PorNoConexion', null],
  ])('LOCK payload: %s', (_name, payload, lockType, lockMessage) => {
    const after = accepted(acknowledged(facts(), cmd(1, A.LOCK, payload)));
    expect(after.lockType).toBe(lockType);
    expect(after.lockMessage).toBe(lockMessage);
  });

  test('LOCK of an enrolled or configured device puts it in operation', () => {
    for (const lifecycle of ['enrolled', 'configured', 'reconfigured'] as const) {
      const after = accepted(acknowledged(facts({ lifecycle }), cmd(1, A.LOCK)));
      expect(after.lifecycle).toBe('operating');
      expect(status(after)).toBe(S.bloqueado);
    }
  });

  test('UNLOCK: bloqueado (3) → desbloqueando (6) → desbloqueado (11) → check-in → activo (5)', () => {
    const unlock = cmd(12, A.UNLOCK);
    const waiting = accepted(requested(lockedFacts(), unlock));
    expect(status(waiting)).toBe(S.desbloqueando);
    const unlocked = accepted(acknowledged(waiting, unlock));
    expect(unlocked).toEqual(facts({ lockState: 'unlocked' }));
    expect(status(unlocked)).toBe(S.desbloqueado);
    expect(status(accepted(checkin(unlocked, report())))).toBe(S.activo);
  });

  test('UNLOCK until a date: TEMPORARY_UNLOCKING (24) → TEMPORARY_ACTIVE (23), the lock type kept', () => {
    const unlock = cmd(13, A.UNLOCK, { until: LATER.toISOString() });
    const waiting = accepted(requested(lockedFacts(), unlock));
    expect(status(waiting)).toBe(S.TEMPORARY_UNLOCKING);
    const after = accepted(acknowledged(waiting, unlock));
    expect(after).toEqual(lockedFacts({ lockState: 'temporary_active', temporaryUntil: LATER }));
    expect(status(after)).toBe(S.TEMPORARY_ACTIVE);
  });

  test('RELEASE: liberando (10) → liberado (9), the token revoked, lock and pending cleared', () => {
    const release = cmd(14, A.RELEASE);
    const waiting = accepted(requested(lockedFacts({ lifecycle: 'reconfigured', failureReason: 'x' }), release));
    expect(status(waiting)).toBe(S.liberando);
    const t = acknowledged(waiting, release);
    expect(accepted(t)).toEqual(facts({ lifecycle: 'released' }));
    expect(status(accepted(t))).toBe(S.liberado);
    expect(revokes(t)).toBe(true);
  });

  test('RELEASE of a suspended device ends the hold', () => {
    const t = acknowledged(facts({ lifecycle: 'suspended', heldLifecycle: 'operating' }), cmd(1, A.RELEASE));
    expect(accepted(t)).toEqual(facts({ lifecycle: 'released' }));
    expect(revokes(t)).toBe(true);
  });

  const configuring = DEVICE_ACTIONS.filter((a) => CONFIGURING_ACTIONS.includes(a.code));
  test.each(
    configuring.flatMap((a) =>
      (
        [
          ['enrolado', facts({ lifecycle: 'enrolled' }), 'configured', S.configurado],
          ['enrolando', facts({ lifecycle: 'enrolling' }), 'configured', S.configurado],
          ['configurado', facts({ lifecycle: 'configured' }), 'configured', S.configurado],
          ['activo', facts(), 'reconfigured', S.configurado_activo],
          ['bloqueado', lockedFacts(), 'reconfigured', S.configurado_bloqueado],
          ['configurado activo', facts({ lifecycle: 'reconfigured' }), 'reconfigured', S.configurado_activo],
          ['configurado bloqueado', lockedFacts({ lifecycle: 'reconfigured' }), 'reconfigured', S.configurado_bloqueado],
          ['desbloqueado', facts({ lockState: 'unlocked' }), 'operating', S.desbloqueado],
          ['desbloqueado offline', facts({ lockState: 'unlocked_offline' }), 'operating', S.desbloqueado_offline],
          ['TEMPORARY_ACTIVE', facts({ lockState: 'temporary_active', temporaryUntil: LATER }), 'operating', S.TEMPORARY_ACTIVE],
        ] as const
      ).map(([name, before, lifecycle, code]) => [a.key, name, before, lifecycle, code] as const),
    ),
  )('%s acknowledged by a device %s', (key, _name, before, lifecycle, code) => {
    const c = cmd(20, DEVICE_ACTION[key]);
    const waiting = accepted(requested(before, c));
    expect(status(waiting)).toBe(S.configurando);
    const after = accepted(acknowledged(waiting, c));
    expect(after).toEqual({ ...before, lifecycle });
    expect(status(after)).toBe(code);
  });

  test('a configuring command acknowledged while suspended changes the lifecycle the device returns to', () => {
    const after = accepted(acknowledged(facts({ lifecycle: 'suspended', heldLifecycle: 'enrolled' }), cmd(1, A.RESTRICTIONS)));
    expect(after).toEqual(facts({ lifecycle: 'suspended', heldLifecycle: 'configured' }));
    expect(status(after)).toBe(S.SUSPENDED);
    expect(status(accepted(resume(after)))).toBe(S.configurado);
  });

  test.each(DEVICE_ACTIONS.filter((a) => !STATEFUL_ACTIONS.includes(a.code)).map((a) => [a.key, a.code] as const))(
    '%s changes nothing but the failure',
    (_key, action) => {
      const before = lockedFacts({ lifecycle: 'reconfigured', failureReason: 'rechazado', ...pendingOf(cmd(30, A.UNLOCK)) });
      const t = acknowledged(before, cmd(31, action));
      expect(accepted(t)).toEqual({ ...before, failureReason: null });
      expect(revokes(t)).toBe(false);
    },
  );

  test('the acknowledgement of a command that is not the pending one leaves the pending command in place', () => {
    const pendingLock = cmd(40, A.LOCK);
    const before = facts({ lifecycle: 'enrolled', ...pendingOf(pendingLock) });
    const after = accepted(acknowledged(before, cmd(39, A.RESTRICTIONS)));
    expect(after).toEqual({ ...before, lifecycle: 'configured' });
    expect(status(after)).toBe(S.bloqueando);
    expect(status(accepted(acknowledged(after, pendingLock)))).toBe(S.bloqueado);
  });

  test.each<[Lifecycle, RefusalCode]>([
    ['pre_enrolled', 'NOT_ENROLLED'],
    ['released', 'RELEASED'],
  ])('%s is refused (%s) for every action', (lifecycle, code) => {
    for (const a of DEVICE_ACTIONS) expect(refusal(acknowledged(facts({ lifecycle }), cmd(1, a.code)))).toBe(code);
  });
});

describe('rejected', () => {
  test('the pending command rejected: fallido (21) with the reason, pending cleared, the rest unchanged', () => {
    const lock = cmd(50, A.LOCK, { lockType: 'PorCredito' });
    const before = facts({ lifecycle: 'reconfigured', ...pendingOf(lock) });
    expect(status(before)).toBe(S.bloqueando);
    const after = accepted(rejected(before, lock, 'Sin permisos de administrador'));
    expect(after).toEqual(facts({ lifecycle: 'reconfigured', failureReason: 'Sin permisos de administrador' }));
    expect(status(after)).toBe(S.fallido);
  });

  test('the next acknowledgement clears the failure', () => {
    const failed = accepted(rejected(lockedFacts(pendingOf(cmd(51, A.UNLOCK))), cmd(51, A.UNLOCK), 'Error'));
    expect(status(failed)).toBe(S.fallido);
    const after = accepted(acknowledged(failed, cmd(52, A.SEND_NOTIFICATION)));
    expect(after).toEqual(lockedFacts());
    expect(status(after)).toBe(S.bloqueado);
  });

  test('a rejected UNLOCK until a date clears the date too', () => {
    const unlock = cmd(53, A.UNLOCK, { until: LATER.toISOString() });
    const after = accepted(rejected(lockedFacts(pendingOf(unlock, LATER)), unlock, 'Error'));
    expect(after).toEqual(lockedFacts({ failureReason: 'Error' }));
  });

  test('a command that is not the pending one: the pending command stays and still shows', () => {
    const before = lockedFacts(pendingOf(cmd(60, A.UNLOCK)));
    const after = accepted(rejected(before, cmd(59, A.SEND_NOTIFICATION), 'Sin pantalla'));
    expect(after).toEqual({ ...before, failureReason: 'Sin pantalla' });
    expect(status(after)).toBe(S.desbloqueando);
    // Once the pending command is acknowledged, the failure is gone as well.
    expect(status(accepted(acknowledged(after, cmd(60, A.UNLOCK))))).toBe(S.desbloqueado);
  });

  test('an enrolling device can fail a command', () => {
    expect(status(accepted(rejected(facts({ lifecycle: 'enrolling' }), cmd(1, A.RESTRICTIONS), 'x')))).toBe(S.fallido);
  });

  test.each<[Lifecycle, RefusalCode]>([
    ['pre_enrolled', 'NOT_ENROLLED'],
    ['released', 'RELEASED'],
  ])('%s is refused (%s)', (lifecycle, code) => {
    expect(refusal(rejected(facts({ lifecycle }), cmd(1, A.LOCK), 'x'))).toBe(code);
  });
});

describe('offlineRedeemed', () => {
  test('UNLOCK_OFFLINE → desbloqueado_offline (17), the lock cleared', () => {
    const t = offlineRedeemed(lockedFacts({ lifecycle: 'configured' }), A.UNLOCK_OFFLINE, null);
    expect(accepted(t)).toEqual(facts({ lockState: 'unlocked_offline' }));
    expect(status(accepted(t))).toBe(S.desbloqueado_offline);
    expect(revokes(t)).toBe(false);
  });

  test('UNLOCK_OFFLINE_WITH_DATE → TEMPORARY_ACTIVE (23) until the code date, the lock type kept', () => {
    const after = accepted(offlineRedeemed(lockedFacts(), A.UNLOCK_OFFLINE_WITH_DATE, LATER));
    expect(after).toEqual(lockedFacts({ lockState: 'temporary_active', temporaryUntil: LATER }));
    expect(status(after)).toBe(S.TEMPORARY_ACTIVE);
  });

  test('RELEASE_OFFLINE → liberado (9), the token revoked', () => {
    const t = offlineRedeemed(lockedFacts(pendingOf(cmd(3, A.LOCK))), A.RELEASE_OFFLINE, null);
    expect(accepted(t)).toEqual(facts({ lifecycle: 'released' }));
    expect(status(accepted(t))).toBe(S.liberado);
    expect(revokes(t)).toBe(true);
  });

  test('a pending command and a failure stay (it is not an acknowledgement)', () => {
    const before = lockedFacts({ failureReason: 'x', ...pendingOf(cmd(3, A.RESTRICTIONS)) });
    const after = accepted(offlineRedeemed(before, A.UNLOCK_OFFLINE, null));
    expect(after).toEqual({ ...before, lockState: 'unlocked_offline', lockType: null, lockMessage: null });
    expect(status(after)).toBe(S.configurando);
  });

  test('an enrolling device can redeem a code; a suspended one changes the lifecycle it returns to', () => {
    expect(accepted(offlineRedeemed(facts({ lifecycle: 'enrolling' }), A.UNLOCK_OFFLINE, null)).lifecycle).toBe('operating');
    const held = accepted(offlineRedeemed(lockedFacts({ lifecycle: 'suspended', heldLifecycle: 'enrolled' }), A.UNLOCK_OFFLINE, null));
    expect(held).toMatchObject({ lifecycle: 'suspended', heldLifecycle: 'operating', lockState: 'unlocked_offline' });
    expect(status(held)).toBe(S.SUSPENDED);
  });

  const OFFLINE: readonly number[] = [A.UNLOCK_OFFLINE, A.UNLOCK_OFFLINE_WITH_DATE, A.RELEASE_OFFLINE];
  test.each(DEVICE_ACTIONS.filter((a) => !OFFLINE.includes(a.code)).map((a) => [a.key, a.code] as const))(
    '%s is refused (NOT_AN_OFFLINE_CODE)',
    (_key, action) => {
      expect(refusal(offlineRedeemed(lockedFacts(), action, null))).toBe('NOT_AN_OFFLINE_CODE');
    },
  );

  test.each<[Lifecycle, RefusalCode]>([
    ['pre_enrolled', 'NOT_ENROLLED'],
    ['released', 'RELEASED'],
  ])('%s is refused (%s)', (lifecycle, code) => {
    for (const action of OFFLINE) expect(refusal(offlineRedeemed(facts({ lifecycle }), action, LATER))).toBe(code);
  });
});

describe('agentLocked', () => {
  test.each(LOCK_TYPES.map((t) => t.key))('%s: bloqueado (3) with that lock type and no message', (lockType) => {
    const before = facts({ lockState: 'temporary_active', temporaryUntil: LATER, lockType: 'PorCredito', lockMessage: 'antes' });
    const t = agentLocked(before, lockType);
    expect(accepted(t)).toEqual(facts({ lockState: 'locked', lockType, lockMessage: null }));
    expect(status(accepted(t))).toBe(S.bloqueado);
    expect(revokes(t)).toBe(false);
  });

  test('an enrolled device goes into operation; a suspended one changes the lifecycle it returns to', () => {
    expect(accepted(agentLocked(facts({ lifecycle: 'enrolled' }), 'PorNoConexion')).lifecycle).toBe('operating');
    const held = accepted(agentLocked(facts({ lifecycle: 'suspended', heldLifecycle: 'configured' }), 'PorCambioSIM'));
    expect(held).toEqual(facts({ lifecycle: 'suspended', heldLifecycle: 'operating', lockState: 'locked', lockType: 'PorCambioSIM' }));
  });

  test.each<[Lifecycle, RefusalCode]>([
    ['pre_enrolled', 'NOT_ENROLLED'],
    ['enrolling', 'NOT_ENROLLED'],
    ['released', 'RELEASED'],
  ])('%s is refused (%s)', (lifecycle, code) => {
    expect(refusal(agentLocked(facts({ lifecycle }), 'PorNoConexion'))).toBe(code);
  });
});

describe('temporaryExpired', () => {
  test('TEMPORARY_ACTIVE (23) → bloqueado (3), the lock type and message kept', () => {
    const before = lockedFacts({ lockState: 'temporary_active', lockType: 'PorNoConexion', temporaryUntil: LATER });
    const after = accepted(temporaryExpired(before));
    expect(after).toEqual(lockedFacts({ lockType: 'PorNoConexion' }));
    expect(status(after)).toBe(S.bloqueado);
  });

  test('without a lock type it locks as Por Crédito', () => {
    expect(accepted(temporaryExpired(facts({ lockState: 'temporary_active', temporaryUntil: NOW }))).lockType).toBe('PorCredito');
  });

  test.each(LOCK_STATES.filter((s) => s !== 'temporary_active'))('%s is refused (NOT_TEMPORARY)', (lockState) => {
    expect(refusal(temporaryExpired(facts({ lockState, lockType: lockState === 'locked' ? 'PorCredito' : null })))).toBe('NOT_TEMPORARY');
  });
});

describe('hold and resume', () => {
  test.each<[Lifecycle, LockState, number]>([
    ['enrolled', 'active', S.enrolado],
    ['configured', 'active', S.configurado],
    ['operating', 'locked', S.bloqueado],
    ['reconfigured', 'active', S.configurado_activo],
  ])('%s (%s): SUSPENDED (22), then back', (lifecycle, lockState, code) => {
    const before = facts({ lifecycle, lockState, lockType: lockState === 'locked' ? 'PorCredito' : null });
    const held = accepted(hold(before));
    expect(held).toEqual({ ...before, lifecycle: 'suspended', heldLifecycle: lifecycle });
    expect(status(held)).toBe(S.SUSPENDED);
    const back = accepted(resume(held));
    expect(back).toEqual(before);
    expect(status(back)).toBe(code);
  });

  test('changes while suspended go to the lifecycle the device returns to', () => {
    const held = accepted(hold(facts({ lifecycle: 'enrolled' })));
    const lock = cmd(70, A.LOCK, { lockType: 'PorCredito', message: 'Pague' });
    const locked = accepted(acknowledged(accepted(requested(held, lock)), lock));
    expect(locked).toEqual(
      facts({ lifecycle: 'suspended', heldLifecycle: 'operating', lockState: 'locked', lockType: 'PorCredito', lockMessage: 'Pague' }),
    );
    expect(status(locked)).toBe(S.SUSPENDED);
    const back = accepted(resume(locked));
    expect(back).toEqual(facts({ lockState: 'locked', lockType: 'PorCredito', lockMessage: 'Pague' }));
    expect(status(back)).toBe(S.bloqueado);
  });

  test('a hold without a recorded lifecycle resumes into operation', () => {
    expect(accepted(resume(facts({ lifecycle: 'suspended', heldLifecycle: null })))).toEqual(facts());
  });

  test.each<[Lifecycle, RefusalCode]>([
    ['suspended', 'ALREADY_SUSPENDED'],
    ['released', 'RELEASED'],
    ['pre_enrolled', 'NOT_ENROLLED'],
    ['enrolling', 'NOT_ENROLLED'],
  ])('hold of %s is refused (%s)', (lifecycle, code) => {
    expect(refusal(hold(facts({ lifecycle, heldLifecycle: lifecycle === 'suspended' ? 'operating' : null })))).toBe(code);
  });

  test.each(LIFECYCLES.filter((l) => l !== 'suspended'))('resume of %s is refused (NOT_SUSPENDED)', (lifecycle) => {
    expect(refusal(resume(facts({ lifecycle })))).toBe('NOT_SUSPENDED');
  });
});

describe('journeys through the reference §4 statuses', () => {
  /** The status after each step, starting with the initial one. */
  function walk(start: MachineFacts, steps: readonly Step[]): number[] {
    const codes = [status(start)];
    let f = start;
    for (const step of steps) {
      f = accepted(step(f));
      codes.push(status(f));
    }
    return codes;
  }

  test('PRE_ENROLLED (25) → enroll → enrolando (2) → check-in → enrolado (1) → RESTRICTIONS → configurando (16) → configurado (15)', () => {
    const r = cmd(1, A.RESTRICTIONS);
    expect(
      walk(facts({ lifecycle: 'pre_enrolled' }), [
        (f) => enroll(f, { authorised: false }),
        (f) => checkin(f, report()),
        (f) => requested(f, r),
        (f) => acknowledged(f, r),
      ]),
    ).toEqual([S.PRE_ENROLLED, S.enrolando, S.enrolado, S.configurando, S.configurado]);
  });

  test('activo → LOCK → UNLOCK until a date → the date passes → bloqueado with the same lock type', () => {
    const lock = cmd(1, A.LOCK, { lockType: 'SinKiosko', message: 'Aviso' });
    const unlock = cmd(2, A.UNLOCK, { until: LATER.toISOString() });
    const steps: Step[] = [
      (f) => requested(f, lock),
      (f) => acknowledged(f, lock),
      (f) => requested(f, unlock),
      (f) => acknowledged(f, unlock),
      (f) => checkin(f, report()),
      (f) => checkin(f, report({ now: new Date(LATER.getTime() + 1000) })),
    ];
    expect(walk(facts(), steps)).toEqual([
      S.activo,
      S.bloqueando,
      S.bloqueado,
      S.TEMPORARY_UNLOCKING,
      S.TEMPORARY_ACTIVE,
      S.TEMPORARY_ACTIVE,
      S.bloqueado,
    ]);
    let f = facts();
    for (const step of steps) f = accepted(step(f));
    expect(f).toEqual(facts({ lockState: 'locked', lockType: 'SinKiosko', lockMessage: 'Aviso' }));
  });

  test('a refused enrollment → fallido (21) → enroll again → enrolando (2) → enrolado (1)', () => {
    expect(
      walk(facts({ lifecycle: 'pre_enrolled' }), [
        (f) => enrollmentRefused(f, 'Modelo no permitido'),
        (f) => enroll(f, { authorised: false }),
        (f) => checkin(f, report()),
      ]),
    ).toEqual([S.PRE_ENROLLED, S.fallido, S.enrolando, S.enrolado]);
  });

  test('activo → RELEASE → liberado (9), then every agent event is refused', () => {
    const release = cmd(1, A.RELEASE);
    const released = accepted(acknowledged(accepted(requested(facts(), release)), release));
    expect(status(released)).toBe(S.liberado);
    expect(refusal(checkin(released, report()))).toBe('RELEASED');
    expect(refusal(enroll(released, { authorised: true }))).toBe('RELEASED');
    expect(refusal(acknowledged(released, cmd(2, A.LOCK)))).toBe('RELEASED');
    expect(refusal(offlineRedeemed(released, A.UNLOCK_OFFLINE, null))).toBe('RELEASED');
    expect(refusal(agentLocked(released, 'PorNoConexion'))).toBe('RELEASED');
    expect(refusal(hold(released))).toBe('RELEASED');
  });
});

describe('every lifecycle × lock state', () => {
  const VALID_STATUS: ReadonlySet<number> = new Set(DEVICE_STATUSES.map((s) => s.code));
  /** A consistent starting point: a lock has a type, a temporary unlock has a date, a hold a lifecycle. */
  const starts: MachineFacts[] = LIFECYCLES.flatMap((lifecycle) =>
    LOCK_STATES.flatMap((lockState) =>
      (lifecycle === 'suspended' ? (['enrolled', 'configured', 'operating', 'reconfigured'] as const) : [null]).flatMap((heldLifecycle) =>
        [null, cmd(99, A.LOCK)].map((pending) =>
          facts({
            lifecycle,
            lockState,
            heldLifecycle,
            lockType: lockState === 'locked' || lockState === 'temporary_active' ? 'PorCambioSIM' : null,
            temporaryUntil: lockState === 'temporary_active' ? BEFORE : null,
            ...(pending ? pendingOf(pending) : {}),
          }),
        ),
      ),
    ),
  );

  const commands = DEVICE_ACTIONS.flatMap((a) => [cmd(99, a.code), cmd(98, a.code, { until: LATER.toISOString(), lockType: 'PorNoConexion' })]);
  const events: [string, Step][] = [
    ['enroll', (f) => enroll(f, { authorised: false })],
    ['enroll (authorised)', (f) => enroll(f, { authorised: true })],
    ['enrollmentRefused', (f) => enrollmentRefused(f, 'x')],
    ...[false, true].flatMap((simChanged) =>
      [false, true].map((lockOnSimChange): [string, Step] => [
        `checkin sim ${simChanged}/${lockOnSimChange}`,
        (f) => checkin(f, report({ simChanged, lockOnSimChange })),
      ]),
    ),
    ...commands.flatMap((c): [string, Step][] => [
      [`requested ${c.action}`, (f) => requested(f, c)],
      [`cancelled ${c.action}`, (f) => cancelled(f, c)],
      [`acknowledged ${c.action}`, (f) => acknowledged(f, c)],
      [`rejected ${c.action}`, (f) => rejected(f, c, 'x')],
      [`offlineRedeemed ${c.action}`, (f) => offlineRedeemed(f, c.action, LATER)],
    ]),
    ...LOCK_TYPES.map((t): [string, Step] => [`agentLocked ${t.key}`, (f) => agentLocked(f, t.key)]),
    ['temporaryExpired', temporaryExpired],
    ['hold', hold],
    ['resume', resume],
  ];
  const reachable = (f: MachineFacts): boolean => !['pre_enrolled', 'released'].includes(f.lifecycle) || f.lockState === 'active';

  const REFUSALS: readonly RefusalCode[] = [
    'RELEASED',
    'NOT_ENROLLED',
    'ALREADY_ENROLLED',
    'NOT_TEMPORARY',
    'ALREADY_SUSPENDED',
    'NOT_SUSPENDED',
    'NOT_AN_OFFLINE_CODE',
  ];

  test('each transition refuses with a code or returns valid, consistent facts (never throws)', () => {
    expect(starts.length).toBe(LIFECYCLES.length * LOCK_STATES.length * 2 + (4 - 1) * LOCK_STATES.length * 2);
    let applied = 0;
    for (const start of starts) {
      for (const [name, step] of events) {
        const t = step(start);
        const where = `${name} from ${start.lifecycle}/${start.lockState}/${start.heldLifecycle}`;
        if (!t.ok) {
          expect({ where, code: REFUSALS.includes(t.code) }).toEqual({ where, code: true });
          continue;
        }
        applied++;
        const f = t.facts;
        const problems = [
          !LIFECYCLES.includes(f.lifecycle) && 'lifecycle',
          !LOCK_STATES.includes(f.lockState) && 'lockState',
          // A hold records a lifecycle it can return to, and only a hold does.
          (f.lifecycle === 'suspended') !== (f.heldLifecycle !== null) && 'heldLifecycle presence',
          f.heldLifecycle !== null && !['enrolled', 'configured', 'operating', 'reconfigured'].includes(f.heldLifecycle) && 'heldLifecycle',
          (f.pendingCommandId === null) !== (f.pendingAction === null) && 'pending',
          f.pendingUntil !== null && f.pendingAction !== A.UNLOCK && 'pendingUntil',
          f.lockState === 'locked' && f.lockType === null && 'lockType',
          f.lockState !== 'temporary_active' && f.temporaryUntil !== null && 'temporaryUntil',
          reachable(start) &&
            f.lifecycle === 'released' &&
            (f.lockState !== 'active' || f.lockType !== null || f.heldLifecycle !== null) &&
            'released',
          // Released is terminal; pre-enrolled is only left by enroll (or a refused enrollment). Both are
          // always 'active' (nothing can lock a device before enrollment, a release clears the lock).
          reachable(start) && start.lifecycle === 'released' && f.lifecycle !== 'released' && 'left released',
          reachable(start) && start.lifecycle === 'pre_enrolled' && !['pre_enrolled', 'enrolling'].includes(f.lifecycle) && 'left pre_enrolled',
          t.revokeToken && f.lifecycle !== 'released' && 'revokeToken',
          !VALID_STATUS.has(status(f)) && 'status',
        ].filter(Boolean);
        expect({ where, problems }).toEqual({ where, problems: [] });
      }
    }
    // The walk is not vacuous: most combinations are accepted.
    expect(applied).toBeGreaterThan((starts.length * events.length) / 2);
  });

  test('hold and resume round-trip the lifecycle', () => {
    let held = 0;
    for (const start of starts.filter((f) => f.lifecycle !== 'suspended')) {
      const h = hold(start);
      if (!h.ok) continue;
      held++;
      expect(h.facts.lifecycle).toBe('suspended');
      expect(accepted(resume(h.facts))).toEqual(start);
    }
    expect(held).toBe(4 * LOCK_STATES.length * 2);
    for (const start of starts.filter((f) => f.lifecycle === 'suspended')) {
      const r = accepted(resume(start));
      expect(r.lifecycle).toBe(start.heldLifecycle);
      expect(accepted(hold(r))).toEqual(start);
    }
  });
});
