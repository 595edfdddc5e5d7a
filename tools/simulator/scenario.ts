/**
 * The fleet scenario: each device gets a role, a short script of portal actions and agent
 * behaviour that leaves it in one status of the list in reference §4, so a run shows every
 * status: PRE_ENROLLED (never enrolled), enrolando (enrolled, never checked in), enrolado,
 * configurando/configurado, bloqueando/bloqueado of every lock type, desbloqueando/desbloqueado/
 * activo, the temporary unlocks, the offline codes (desbloqueado offline, activo temporal,
 * liberado), liberando (a RELEASE waits out its cancellation window), configurado bloqueado/
 * activo, fallido (the agent rejects), suspendido (hold) and a hold that is resumed. In-flight
 * statuses stay visible on devices whose agent went quiet before the command. 'Sin conexión'
 * needs the server's DEVICE_OFFLINE_AFTER_HOURS to pass (see README.md).
 */
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS, deviceStatusLabel, type LockType } from '../../shared/constants/domain';
import type { ActionPayloadInput, ActionResult } from '../../shared/contracts/deviceActions';
import { ROLE_TEXT, SCENARIO_TEXT } from './labels';
import type { PortalApi } from './portalApi';
import type { Rnd } from './random';
import type { SimulatedAgent } from './simulatedAgent';

export const ROLES = [
  'preEnrolled',
  'enrolled',
  'locked',
  'active',
  'failed',
  'held',
  'pendingLock',
  'temporary',
  'offlineUnlocked',
  'releasedOffline',
  'configured',
  'enrolling',
  'configuredLocked',
  'configuredActive',
  'unlockedQuiet',
  'releasing',
  'pendingUnlock',
  'pendingTemporary',
  'pendingConfig',
  'offlineTemporary',
  'heldResumed',
  'simSwap',
  'offlineLock',
  'lockedNoKiosk',
] as const;
export type Role = (typeof ROLES)[number];

const S = DEVICE_STATUS;

/** The status each role leaves its device in, and the lock type for the locked ones. */
export const ROLE_GOALS: Readonly<Record<Role, { status: number; lockType?: LockType }>> = {
  preEnrolled: { status: S.PRE_ENROLLED },
  enrolled: { status: S.enrolado },
  locked: { status: S.bloqueado, lockType: 'PorCredito' },
  active: { status: S.activo },
  failed: { status: S.fallido },
  held: { status: S.SUSPENDED },
  pendingLock: { status: S.bloqueando },
  temporary: { status: S.TEMPORARY_ACTIVE },
  offlineUnlocked: { status: S.desbloqueado_offline },
  releasedOffline: { status: S.liberado },
  configured: { status: S.configurado },
  enrolling: { status: S.enrolando },
  configuredLocked: { status: S.configurado_bloqueado },
  configuredActive: { status: S.configurado_activo },
  unlockedQuiet: { status: S.desbloqueado },
  releasing: { status: S.liberando },
  pendingUnlock: { status: S.desbloqueando },
  pendingTemporary: { status: S.TEMPORARY_UNLOCKING },
  pendingConfig: { status: S.configurando },
  offlineTemporary: { status: S.TEMPORARY_ACTIVE },
  heldResumed: { status: S.bloqueado, lockType: 'PorCredito' },
  simSwap: { status: S.bloqueado, lockType: 'PorCambioSIM' },
  offlineLock: { status: S.bloqueado, lockType: 'PorNoConexion' },
  lockedNoKiosk: { status: S.bloqueado, lockType: 'SinKiosko' },
};

/** Shares of the roles past the first of each (a fleet is mostly operating devices). */
const ROLE_WEIGHTS: Readonly<Record<Role, number>> = {
  preEnrolled: 6,
  enrolled: 8,
  locked: 12,
  active: 30,
  failed: 2,
  held: 1,
  pendingLock: 1,
  temporary: 3,
  offlineUnlocked: 2,
  releasedOffline: 2,
  configured: 3,
  enrolling: 2,
  configuredLocked: 2,
  configuredActive: 3,
  unlockedQuiet: 2,
  releasing: 1,
  pendingUnlock: 1,
  pendingTemporary: 1,
  pendingConfig: 1,
  offlineTemporary: 2,
  heldResumed: 2,
  simSwap: 3,
  offlineLock: 3,
  lockedNoKiosk: 4,
};

/**
 * The role of each of `count` devices: one of each role first (in ROLES order, so a small fleet
 * covers the most common statuses), then drawn by ROLE_WEIGHTS. `roles` limits the choice.
 */
export function assignRoles(count: number, rnd: Rnd, roles: readonly Role[] = ROLES): Role[] {
  const out: Role[] = roles.slice(0, Math.max(0, count));
  const total = roles.reduce((sum, r) => sum + ROLE_WEIGHTS[r], 0);
  while (out.length < count) {
    let x = rnd() * total;
    let chosen = roles[roles.length - 1]!;
    for (const r of roles) {
      x -= ROLE_WEIGHTS[r];
      if (x < 0) {
        chosen = r;
        break;
      }
    }
    out.push(chosen);
  }
  return out;
}

/** Whether a role's agent must not check in (it enrolls and stays quiet). */
export const startsPaused = (role: Role): boolean => role === 'enrolling';
/** Whether a role's agent rejects every command. */
export const rejectsAll = (role: Role): boolean => role === 'failed';
/** Whether a role needs a smartphone (a SIM to change). */
export const needsPhone = (role: Role): boolean => role === 'simSwap';

export interface RoleContext {
  role: Role;
  deviceId: number;
  agent: SimulatedAgent;
  portal: PortalApi;
  /** When the role must be done (epoch ms). */
  deadline: number;
  signal: AbortSignal;
  /** Told every status the portal answers (the fleet keeps the statuses seen). */
  observe(status: number): void;
}

/** Why a role stopped short of its goal (kept for the summary; not an exception out of the fleet). */
export class RoleIncomplete extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoleIncomplete';
  }
}

const remaining = (ctx: RoleContext) => Math.max(0, ctx.deadline - Date.now());
const T = ROLE_TEXT.steps;
const stoppedAt = (step: string, status: number | null | undefined) =>
  new RoleIncomplete(ROLE_TEXT.stoppedAt(step, status == null ? '-' : (deviceStatusLabel(status) ?? String(status))));

async function expectStatus(ctx: RoleContext, wanted: readonly number[], what: string): Promise<void> {
  // A rejection (fallido) or the end of the agent ends the wait too.
  const ok = await ctx.agent.waitForStatus((s) => wanted.includes(s) || s === S.fallido, remaining(ctx), ctx.signal);
  const status = ctx.agent.status;
  if (!ok || status === null || !wanted.includes(status)) throw stoppedAt(what, status);
}

/** The first check-in happened (enrolado, or further along). */
const enrolled = (ctx: RoleContext) =>
  ctx.agent
    .waitForStatus((s) => s !== S.enrolando && s !== S.PRE_ENROLLED, remaining(ctx), ctx.signal)
    .then((ok) => {
      if (!ok) throw new RoleIncomplete(ROLE_TEXT.noFirstCheckin);
    });

async function act(ctx: RoleContext, payload: ActionPayloadInput): Promise<ActionResult> {
  const result = await ctx.portal.act(ctx.deviceId, payload);
  if (result.device) ctx.observe(result.device.status);
  return result;
}

const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

async function lock(ctx: RoleContext, lockType: LockType = 'PorCredito'): Promise<void> {
  await act(ctx, { action: DEVICE_ACTION.LOCK, lockType, message: SCENARIO_TEXT.lockMessage });
  await expectStatus(ctx, [S.bloqueado], T.lock);
}

async function unlock(ctx: RoleContext, until?: string): Promise<void> {
  await act(ctx, { action: DEVICE_ACTION.UNLOCK, until: until ?? null });
  await expectStatus(ctx, until ? [S.TEMPORARY_ACTIVE] : [S.desbloqueado, S.activo], T.unlock);
}

/** Asks for an offline code and has the agent redeem it (the customer types it). */
async function offlineCode(ctx: RoleContext, payload: ActionPayloadInput, wanted: number): Promise<void> {
  const result = await act(ctx, payload);
  const code = result.offlineCode?.code;
  if (!code) throw new RoleIncomplete(ROLE_TEXT.noCode);
  const answer = await ctx.agent.redeemCode(code, ctx.signal);
  if (!answer) throw new RoleIncomplete(ROLE_TEXT.codeRefused);
  ctx.observe(answer.status);
  if (answer.status !== wanted) throw stoppedAt(T.redeemed, answer.status);
}

/** The agent goes quiet, then the command is requested: it stays in flight. */
async function quietThen(ctx: RoleContext, payload: ActionPayloadInput, wanted: number): Promise<void> {
  ctx.agent.pause();
  const result = await act(ctx, payload);
  if (result.device?.status !== wanted) throw stoppedAt(T.inFlight, result.device?.status);
}

async function hold(ctx: RoleContext): Promise<void> {
  ctx.observe((await ctx.portal.hold(ctx.deviceId)).status);
}

const SCRIPTS: Readonly<Record<Role, (ctx: RoleContext) => Promise<void>>> = {
  preEnrolled: async () => {},
  enrolling: async () => {},
  enrolled: (ctx) => enrolled(ctx),
  async configured(ctx) {
    await enrolled(ctx);
    await act(ctx, { action: DEVICE_ACTION.RESTRICTIONS });
    await expectStatus(ctx, [S.configurado], T.restrictions);
  },
  async locked(ctx) {
    await enrolled(ctx);
    await lock(ctx, 'PorCredito');
    await act(ctx, { action: DEVICE_ACTION.SEND_NOTIFICATION, title: SCENARIO_TEXT.notificationTitle, message: SCENARIO_TEXT.notificationMessage });
  },
  async lockedNoKiosk(ctx) {
    await enrolled(ctx);
    await lock(ctx, 'SinKiosko');
  },
  async active(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await unlock(ctx);
    await expectStatus(ctx, [S.activo], T.activeAfterUnlock);
    await act(ctx, { action: DEVICE_ACTION.SEND_NOTIFICATION, title: SCENARIO_TEXT.notificationTitle, message: SCENARIO_TEXT.notificationMessage });
  },
  async unlockedQuiet(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    // The device goes quiet right after it unlocks: the portal keeps showing 'Desbloqueado'.
    ctx.agent.pauseAfterNextCommand();
    await act(ctx, { action: DEVICE_ACTION.UNLOCK, until: null });
    await expectStatus(ctx, [S.desbloqueado], T.unlockedQuiet);
  },
  async temporary(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await unlock(ctx, inOneDay());
  },
  async offlineUnlocked(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await offlineCode(ctx, { action: DEVICE_ACTION.UNLOCK_OFFLINE }, S.desbloqueado_offline);
  },
  async offlineTemporary(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await offlineCode(ctx, { action: DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, until: inOneDay() }, S.TEMPORARY_ACTIVE);
  },
  async releasedOffline(ctx) {
    await enrolled(ctx);
    await offlineCode(ctx, { action: DEVICE_ACTION.RELEASE_OFFLINE }, S.liberado);
  },
  async releasing(ctx) {
    await enrolled(ctx);
    // RELEASE waits out its cancellation window (RELEASE_CANCEL_HOURS) before the agent receives it.
    const result = await act(ctx, { action: DEVICE_ACTION.RELEASE });
    if (result.device?.status !== S.liberando) throw stoppedAt(T.release, result.device?.status);
  },
  async configuredLocked(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await act(ctx, { action: DEVICE_ACTION.RESTRICTIONS });
    await expectStatus(ctx, [S.configurado_bloqueado], T.restrictionsLocked);
  },
  async configuredActive(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await unlock(ctx);
    await expectStatus(ctx, [S.activo], T.activeAfterUnlock);
    await act(ctx, { action: DEVICE_ACTION.RESTRICTIONS });
    await expectStatus(ctx, [S.configurado_activo], T.restrictionsActive);
  },
  async failed(ctx) {
    await enrolled(ctx);
    await act(ctx, { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: SCENARIO_TEXT.lockMessage });
    await expectStatus(ctx, [S.fallido], T.rejection);
  },
  async held(ctx) {
    await enrolled(ctx);
    await hold(ctx);
  },
  async heldResumed(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await hold(ctx);
    ctx.observe((await ctx.portal.resume(ctx.deviceId)).status);
  },
  async pendingLock(ctx) {
    await enrolled(ctx);
    await quietThen(ctx, { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: SCENARIO_TEXT.lockMessage }, S.bloqueando);
  },
  async pendingUnlock(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await quietThen(ctx, { action: DEVICE_ACTION.UNLOCK, until: null }, S.desbloqueando);
  },
  async pendingTemporary(ctx) {
    await enrolled(ctx);
    await lock(ctx);
    await quietThen(ctx, { action: DEVICE_ACTION.UNLOCK, until: inOneDay() }, S.TEMPORARY_UNLOCKING);
  },
  async pendingConfig(ctx) {
    await enrolled(ctx);
    await quietThen(ctx, { action: DEVICE_ACTION.RESTRICTIONS }, S.configurando);
  },
  async simSwap(ctx) {
    await enrolled(ctx);
    // A smartphone whose settings lock on a SIM change (lock_sim_change) locks 'Por Cambio SIM' at
    // the next check-in; where they do not (a TV, a group that turned it off), the portal locks it.
    if (ctx.agent.spec.deviceType === 1) {
      ctx.agent.changeSim();
      const locked = await ctx.agent.waitForStatus((s) => s === S.bloqueado, Math.min(remaining(ctx), 30_000), ctx.signal);
      if (locked) return;
    }
    await lock(ctx, 'PorCambioSIM');
  },
  async offlineLock(ctx) {
    await enrolled(ctx);
    // The agent locked the device itself after too long without connection, and says so when it is back.
    ctx.agent.pause();
    const answer = await ctx.agent.reportEvent({ type: 'offline_lock' }, ctx.signal);
    ctx.agent.resume();
    if (!answer || answer.status !== S.bloqueado) throw stoppedAt(T.offlineLock, answer?.status);
  },
};

/** Plays a role's script on its device; resolves with what stopped it short, or null when it reached its goal. */
export async function playRole(ctx: RoleContext): Promise<string | null> {
  try {
    await SCRIPTS[ctx.role](ctx);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * One portal action that keeps a demo fleet moving: locks an unlocked device, unlocks a locked
 * one, now and then a notification or restrictions. Null when there was nothing to do.
 */
export function churnAction(status: number, rnd: Rnd): ActionPayloadInput | null {
  const r = rnd();
  if (r < 0.15)
    return { action: DEVICE_ACTION.SEND_NOTIFICATION, title: SCENARIO_TEXT.notificationTitle, message: SCENARIO_TEXT.notificationMessage };
  switch (status) {
    case S.bloqueado:
    case S.configurado_bloqueado:
      return { action: DEVICE_ACTION.UNLOCK, until: null };
    case S.enrolado:
    case S.configurado:
      return r < 0.4
        ? { action: DEVICE_ACTION.RESTRICTIONS }
        : { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: SCENARIO_TEXT.lockMessage };
    case S.activo:
    case S.desbloqueado:
    case S.desbloqueado_offline:
    case S.configurado_activo:
    case S.TEMPORARY_ACTIVE:
      return { action: DEVICE_ACTION.LOCK, lockType: r < 0.85 ? 'PorCredito' : 'SinKiosko', message: SCENARIO_TEXT.lockMessage };
    default:
      return null;
  }
}
