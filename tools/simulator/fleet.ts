/**
 * A fleet of simulated agents against one server: `runAgents` runs agents that need no portal
 * (the in-process demo registers its devices and creates the token itself), `runFleet` prepares
 * the devices through the portal API and plays the scenario (scenario.ts) for `npm run simulate`
 * and the tests, `startDemoFleet` keeps a demo fleet alive inside the server. All of them share a
 * `FleetStats`: the devices per status from the last answers, the commands acknowledged and
 * rejected, the check-ins, the errors, commands per second.
 */
import { setMaxListeners } from 'node:events';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import type { Device } from '../../shared/contracts/devices';
import { prng } from '../seed/prng';
import { CLI_TEXT, CUSTOMER_NAMES, ROLE_TEXT } from './labels';
import { PortalError, type PortalApi } from './portalApi';
import { generateIdentity, generateImei, generateSim, pick, type Rnd } from './random';
import { ROLES, ROLE_GOALS, assignRoles, churnAction, needsPhone, playRole, rejectsAll, startsPaused, type Role } from './scenario';
import { SimulatedAgent, newCounters, sleep, type AgentBehaviour, type AgentCounters, type AgentSpec } from './simulatedAgent';

// Statistics -------------------------------------------------------------------------------

/** Events per second over a sliding window, from samples of a running total. */
export class RateMeter {
  private readonly samples: { t: number; total: number }[] = [];
  constructor(private readonly windowMs = 5_000) {}

  /** Records `total` at `now` and answers the rate over the window (0 until two samples). */
  sample(now: number, total: number): number {
    this.samples.push({ t: now, total });
    while (this.samples.length > 2 && this.samples[1]!.t <= now - this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const span = now - first.t;
    return span > 0 ? ((total - first.total) * 1000) / span : 0;
  }
}

export interface FleetSnapshot extends AgentCounters {
  elapsedMs: number;
  devices: number;
  /** Devices per status code from the last answers (devices never enrolled: PRE_ENROLLED), most first. */
  byStatus: { status: number; count: number }[];
  /** Agents still without an answer (not enrolled yet). */
  unknown: number;
  online: number;
  offline: number;
  commandsPerSecond: number;
  /** Every status an answer showed during the run, ascending. */
  statusesSeen: number[];
}

export class FleetStats {
  readonly counters: AgentCounters = newCounters();
  readonly startedAt = Date.now();
  private readonly seen = new Set<number>();
  private readonly agents: SimulatedAgent[] = [];
  /** Devices without an agent and their status (pre-enrolled ones the scenario never enrolls). */
  private readonly idle = new Map<string, number>();
  /** Final statuses read from the portal at the end (they win over the agents' last answers). */
  private readonly confirmed = new Map<string, number>();
  private readonly meter = new RateMeter();

  addAgent(agent: SimulatedAgent): void {
    this.agents.push(agent);
  }

  addIdle(imei: string, status: number): void {
    this.idle.set(imei, status);
    this.seen.add(status);
  }

  observe(status: number): void {
    this.seen.add(status);
  }

  confirm(imei: string, status: number): void {
    this.confirmed.set(imei, status);
    this.seen.add(status);
  }

  get agentList(): readonly SimulatedAgent[] {
    return this.agents;
  }

  /** The enrollments the server refused, by code (most first): what each device showed. */
  refusals(): FleetRefusal[] {
    const by = new Map<string, FleetRefusal>();
    for (const a of this.agents) {
      if (!a.refusal) continue;
      const key = `${a.refusal.status} ${a.refusal.code ?? ''} ${a.refusal.message}`;
      const r = by.get(key) ?? { ...a.refusal, devices: 0 };
      r.devices++;
      by.set(key, r);
    }
    return [...by.values()].sort((a, b) => b.devices - a.devices || (a.code ?? '').localeCompare(b.code ?? ''));
  }

  /** Each device and its status (null: no answer yet). */
  devices(): { imei: string; status: number | null }[] {
    const out: { imei: string; status: number | null }[] = [];
    for (const [imei, status] of this.idle) out.push({ imei, status: this.confirmed.get(imei) ?? status });
    for (const a of this.agents) out.push({ imei: a.spec.imei, status: this.confirmed.get(a.spec.imei) ?? a.status });
    return out;
  }

  snapshot(now = Date.now()): FleetSnapshot {
    const counts = new Map<number, number>();
    let unknown = 0;
    for (const d of this.devices()) {
      if (d.status === null) unknown++;
      else counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
    }
    let online = 0;
    let offline = 0;
    for (const a of this.agents) {
      if (a.phase === 'online') online++;
      else if (a.phase === 'offline' || a.phase === 'paused') offline++;
    }
    const c = this.counters;
    return {
      ...c,
      elapsedMs: now - this.startedAt,
      devices: this.idle.size + this.agents.length,
      byStatus: [...counts].sort(([a, x], [b, y]) => y - x || a - b).map(([status, count]) => ({ status, count })),
      unknown,
      online,
      offline,
      commandsPerSecond: this.meter.sample(now, c.acknowledged + c.rejected),
      statusesSeen: [...this.seen].sort((a, b) => a - b),
    };
  }
}

// Running agents ---------------------------------------------------------------------------

export interface RunAgentsOptions {
  baseUrl: string;
  agents: readonly AgentSpec[];
  /** The token of the specs that carry none. */
  enrollmentToken?: string | null;
  signal: AbortSignal;
  behaviour?: Partial<AgentBehaviour>;
  /** Changes of behaviour for one agent (the scenario's rejecting devices). */
  behaviourFor?: (index: number) => Partial<AgentBehaviour> | undefined;
  /** Called once per agent before it starts (the scenario pauses the ones that stay 'enrolando'). */
  prepare?: (agent: SimulatedAgent, index: number) => void;
  /** The agents start spread over this many ms (default: 5 s, or 1 s per 100 agents up to 30 s). */
  rampUpMs?: number;
  seed?: number;
  stats?: FleetStats;
  onStats?: (snapshot: FleetSnapshot) => void;
  /** How often `onStats` is called (default 1 s). */
  statsEveryMs?: number;
}

export interface RunningAgents {
  agents: SimulatedAgent[];
  stats: FleetStats;
  /** Resolves once every agent has stopped (after `signal` aborted, or all were released or refused). */
  done: Promise<FleetSnapshot>;
}

/** Default spread of the agents' first enrollment. */
export const rampUpFor = (count: number): number => Math.min(30_000, Math.max(5_000, count * 10));

/** Starts one agent per spec against `baseUrl`; they run until `signal` aborts. */
export function runAgents(opts: RunAgentsOptions): RunningAgents {
  const stats = opts.stats ?? new FleetStats();
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const ramp = opts.rampUpMs ?? rampUpFor(opts.agents.length);
  const spread = prng(seed ^ 0x51a7);
  // Every agent waits on the same signal.
  setMaxListeners(0, opts.signal);
  const agents = opts.agents.map((spec, i) => {
    const agent = new SimulatedAgent(spec, {
      baseUrl: opts.baseUrl,
      enrollmentToken: opts.enrollmentToken ?? null,
      behaviour: { ...opts.behaviour, ...opts.behaviourFor?.(i) },
      counters: stats.counters,
      rnd: prng(seed + i * 7919),
      onStatus: (status) => stats.observe(status),
    });
    stats.addAgent(agent);
    opts.prepare?.(agent, i);
    return agent;
  });
  const runs = agents.map(async (agent) => {
    await sleep(Math.floor(spread() * ramp), opts.signal);
    if (!opts.signal.aborted) await agent.run(opts.signal);
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  if (opts.onStats) {
    const report = opts.onStats;
    timer = setInterval(() => report(stats.snapshot()), opts.statsEveryMs ?? 1_000);
    timer.unref?.();
  }
  const done = Promise.all(runs).then(() => {
    if (timer) clearInterval(timer);
    return stats.snapshot();
  });
  return { agents, stats, done };
}

// The scenario fleet -----------------------------------------------------------------------

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The portal API with at most `limit` requests at a time (the scenario never floods the server). */
export function limitPortal(api: PortalApi, limit: number): PortalApi {
  let active = 0;
  const queue: (() => void)[] = [];
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
  return {
    createDevice: (b) => run(() => api.createDevice(b)),
    preEnrolledDevices: (n) => run(() => api.preEnrolledDevices(n)),
    groups: () => run(() => api.groups()),
    createEnrollmentToken: (g, h) => run(() => api.createEnrollmentToken(g, h)),
    act: (id, p) => run(() => api.act(id, p)),
    hold: (id) => run(() => api.hold(id)),
    resume: (id) => run(() => api.resume(id)),
    device: (id) => run(() => api.device(id)),
  };
}

export interface FleetOptions {
  baseUrl: string;
  devices: number;
  durationMs: number;
  signal?: AbortSignal;
  behaviour?: Partial<AgentBehaviour>;
  seed?: number;
  /** With a portal: devices registered (or taken with `existing`), tokens created, the scenario played. */
  portal?: PortalApi;
  /** Take existing PRE_ENROLLED devices instead of registering new ones. */
  existing?: boolean;
  /** Without a portal: the enrollment token every agent uses. */
  enrollmentToken?: string;
  rampUpMs?: number;
  onStats?: (snapshot: FleetSnapshot) => void;
  statsEveryMs?: number;
  /** Preparation messages (Spanish) for the person running it. */
  onProgress?: (message: string) => void;
}

export interface RoleResult {
  role: Role;
  imei: string;
  deviceId: number;
  goal: number;
  status: number | null;
  /** What stopped the role short of its goal (null: reached). */
  incomplete: string | null;
}

/** Enrollments refused with the same answer: its status, stable code and Spanish message. */
export interface FleetRefusal {
  status: number;
  code: string | null;
  message: string;
  devices: number;
}

export interface FleetSummary {
  devices: { imei: string; status: number | null }[];
  /** Enrollments the server refused, by answer (empty when every agent enrolled). */
  refusals: FleetRefusal[];
  acknowledged: number;
  rejected: number;
  checkins: number;
  errors: number;
  rateLimited: number;
  durationMs: number;
  statusesSeen: number[];
  /** The scenario's roles (empty without a portal). */
  roles: RoleResult[];
}

interface Prepared {
  id: number;
  role: Role;
  spec: AgentSpec;
  groupId: number | null;
}

/** Registers one device, drawing a new IMEI when the drawn one is taken. */
async function registerDevice(portal: PortalApi, rnd: Rnd, role: Role, groups: readonly number[]): Promise<{ device: Device; spec: AgentSpec }> {
  const identity = generateIdentity(rnd, needsPhone(role) ? 1 : undefined);
  const groupId = groups.length > 0 && rnd() < 0.7 ? pick(rnd, groups) : null;
  for (let attempt = 1; ; attempt++) {
    try {
      const device = await portal.createDevice({
        imei: identity.imei,
        serial: identity.serial,
        deviceType: identity.deviceType,
        brand: identity.brand,
        model: identity.model,
        groupId,
        customerName: pick(rnd, CUSTOMER_NAMES),
        creditReference: `SIM-${identity.imei.slice(-8)}`,
      });
      return { device, spec: { ...identity, deviceId: device.id } };
    } catch (e) {
      if (!(e instanceof PortalError) || e.status !== 409 || attempt >= 5) throw e;
      identity.imei = generateImei(rnd);
    }
  }
}

/** A spec for a device registered before (existing PRE_ENROLLED): what it says of itself at enrollment. */
function specOf(d: Device, rnd: Rnd): AgentSpec {
  const phone = d.deviceType === 1;
  const made = generateIdentity(rnd, d.deviceType);
  return {
    imei: d.imei,
    imei2: d.imei2,
    serial: d.serial ?? made.serial,
    deviceType: d.deviceType,
    brand: d.brand ?? made.brand,
    model: d.model ?? made.model,
    osVersion: made.osVersion,
    agentVersion: made.agentVersion,
    sim: phone ? generateSim(rnd) : null,
    deviceId: d.id,
  };
}

/**
 * Prepares the devices (portal), runs the agents for `durationMs` and, with a portal, plays the
 * scenario; answers the summary. Stops early when `signal` aborts (the summary has what was done).
 */
export async function runFleet(opts: FleetOptions): Promise<FleetSummary> {
  const started = Date.now();
  const outer = opts.signal ?? new AbortController().signal;
  const stop = new AbortController();
  const signal = AbortSignal.any([outer, stop.signal]);
  setMaxListeners(0, outer, signal);
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rnd = prng(seed);
  const stats = new FleetStats();
  const portal = opts.portal ? limitPortal(opts.portal, 8) : undefined;

  let prepared: Prepared[] = [];
  if (portal) {
    opts.onProgress?.(CLI_TEXT.preparing(opts.devices));
    if (opts.existing) {
      const found = await portal.preEnrolledDevices(opts.devices);
      if (found.length < opts.devices) opts.onProgress?.(CLI_TEXT.noPreEnrolled(opts.devices, found.length));
      const roles = assignRoles(found.length, rnd);
      prepared = found.map((d, i) => ({ id: d.id, role: roles[i]!, spec: specOf(d, rnd), groupId: d.groupId }));
    } else {
      const groups = (await portal.groups()).slice(0, 3).map((g) => g.id);
      const roles = assignRoles(opts.devices, rnd);
      prepared = await mapLimit(roles, 8, async (role) => {
        if (signal.aborted) throw new Error(ROLE_TEXT.interrupted);
        const { device, spec } = await registerDevice(portal, rnd, role, groups);
        return { id: device.id, role, spec, groupId: device.groupId };
      });
    }
    // One token per group of the devices that enroll, and one for devices with no group.
    const validHours = Math.max(1, Math.ceil(opts.durationMs / 3_600_000) + 1);
    const scopes = [...new Set(prepared.filter((p) => p.role !== 'preEnrolled').map((p) => p.groupId))];
    const tokens = new Map<number | null, string>();
    for (const scope of scopes) tokens.set(scope, (await portal.createEnrollmentToken(scope, validHours)).token);
    for (const p of prepared) p.spec.enrollmentToken = tokens.get(p.groupId) ?? null;
  } else {
    prepared = Array.from({ length: opts.devices }, () => ({ id: 0, role: 'enrolled' as Role, spec: generateIdentity(rnd), groupId: null }));
  }

  const enrolling = prepared.filter((p) => p.role !== 'preEnrolled');
  for (const p of prepared) if (p.role === 'preEnrolled') stats.addIdle(p.spec.imei, DEVICE_STATUS.PRE_ENROLLED);
  const running = runAgents({
    baseUrl: opts.baseUrl,
    agents: enrolling.map((p) => p.spec),
    enrollmentToken: opts.enrollmentToken ?? null,
    signal,
    behaviour: opts.behaviour,
    behaviourFor: (i) => (rejectsAll(enrolling[i]!.role) ? { reject: 1 } : undefined),
    prepare: (agent, i) => {
      if (startsPaused(enrolling[i]!.role)) agent.pause();
    },
    rampUpMs: opts.rampUpMs,
    seed,
    stats,
    onStats: opts.onStats,
    statsEveryMs: opts.statsEveryMs,
  });

  const deadline = Date.now() + opts.durationMs;
  const roleRuns: Promise<RoleResult>[] = [];
  if (portal) {
    // Roles start spread over the first third of the run (at most 20 s), and must be done by its end.
    const spreadMs = Math.min(20_000, opts.durationMs / 3);
    enrolling.forEach((p, i) => {
      const agent = running.agents[i]!;
      roleRuns.push(
        (async (): Promise<RoleResult> => {
          await sleep(Math.floor(rnd() * spreadMs), signal);
          const incomplete = signal.aborted
            ? ROLE_TEXT.interrupted
            : await playRole({ role: p.role, deviceId: p.id, agent, portal, deadline, signal, observe: (s) => stats.observe(s) });
          return { role: p.role, imei: p.spec.imei, deviceId: p.id, goal: ROLE_GOALS[p.role].status, status: agent.status, incomplete };
        })(),
      );
    });
  }
  await sleep(deadline - Date.now(), signal);
  stop.abort();
  const roles = await Promise.all(roleRuns);
  await running.done;

  if (portal) {
    // The final word is the portal's (holds and releases the agents only learn at their next check-in).
    const budget = AbortSignal.any([outer, AbortSignal.timeout(30_000)]);
    const byId = new Map(roles.map((r) => [r.deviceId, r]));
    await mapLimit(prepared, 8, async (p) => {
      if (budget.aborted) return;
      try {
        const d = await portal.device(p.id);
        stats.confirm(p.spec.imei, d.status);
        const r = byId.get(p.id);
        if (r) r.status = d.status;
      } catch {
        // The agent's last answer stays.
      }
    });
    for (const p of prepared) {
      if (p.role === 'preEnrolled') {
        roles.push({
          role: p.role,
          imei: p.spec.imei,
          deviceId: p.id,
          goal: DEVICE_STATUS.PRE_ENROLLED,
          status: DEVICE_STATUS.PRE_ENROLLED,
          incomplete: null,
        });
      }
    }
  }
  const snap = stats.snapshot();
  return {
    devices: stats.devices(),
    refusals: stats.refusals(),
    acknowledged: snap.acknowledged,
    rejected: snap.rejected,
    checkins: snap.checkins,
    errors: snap.errors,
    rateLimited: snap.rateLimited,
    durationMs: Date.now() - started,
    statusesSeen: snap.statusesSeen,
    roles,
  };
}

// The in-process demo ----------------------------------------------------------------------

/** What the demo fleet logs with (a pino logger fits). */
export interface FleetLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface DemoFleetOptions {
  /** Where the server listens (http://127.0.0.1:<port>). */
  baseUrl: string;
  /** Devices the server registered (PRE_ENROLLED, `deviceId` set when `portal` is given). */
  agents: readonly AgentSpec[];
  /** The token of the specs that carry none. */
  enrollmentToken: string;
  logger: FleetLogger;
  signal: AbortSignal;
  /** When given: the scenario's roles are played on the devices, then a portal action every `churnEveryMs` keeps statuses moving. */
  portal?: PortalApi;
  behaviour?: Partial<AgentBehaviour>;
  seed?: number;
  churnEveryMs?: number;
  /** How often a summary line is logged (default 60 s; 0: never). */
  logEveryMs?: number;
}

export interface DemoFleet {
  stats: FleetStats;
  agents: SimulatedAgent[];
  /** Resolves once every agent stopped after `signal` aborted. */
  done: Promise<void>;
}

/** The demo's behaviour: a few devices go offline now and then, a few reject. */
export const DEMO_BEHAVIOUR: Partial<AgentBehaviour> = { offline: 0.01, offlineMs: [30_000, 180_000], reject: 0.01, simChange: 0 };

/**
 * The server's demo fleet: the agents of `agents` enroll with their token and keep checking in
 * until `signal` aborts; with `portal`, every role of the scenario is played once (devices
 * without `deviceId` only run), then one portal action every `churnEveryMs` (default 5 s).
 */
export function startDemoFleet(opts: DemoFleetOptions): DemoFleet {
  const seed = opts.seed ?? 2026;
  const rnd = prng(seed ^ 0xde70);
  const withIds = opts.agents.filter((a) => a.deviceId !== undefined);
  const roles = opts.portal
    ? assignRoles(
        withIds.length,
        rnd,
        ROLES.filter((r) => r !== 'preEnrolled'),
      )
    : [];
  const roleOf = new Map<string, Role>(withIds.map((a, i) => [a.imei, roles[i]!]));
  const running = runAgents({
    baseUrl: opts.baseUrl,
    agents: opts.agents,
    enrollmentToken: opts.enrollmentToken,
    signal: opts.signal,
    behaviour: { ...DEMO_BEHAVIOUR, ...opts.behaviour },
    behaviourFor: (i) => {
      const role = roleOf.get(opts.agents[i]!.imei);
      return role && rejectsAll(role) ? { reject: 1 } : undefined;
    },
    prepare: (agent) => {
      const role = roleOf.get(agent.spec.imei);
      if (role && startsPaused(role)) agent.pause();
    },
    seed,
    ...(opts.logEveryMs !== 0
      ? {
          onStats: (s: FleetSnapshot) =>
            opts.logger.info(
              {
                devices: s.devices,
                byStatus: s.byStatus,
                acknowledged: s.acknowledged,
                rejected: s.rejected,
                checkins: s.checkins,
                errors: s.errors,
              },
              'demo fleet',
            ),
          statsEveryMs: opts.logEveryMs ?? 60_000,
        }
      : {}),
  });
  const portal = opts.portal ? limitPortal(opts.portal, 4) : undefined;
  const tasks: Promise<unknown>[] = [running.done];
  if (portal) {
    const deadline = () => Date.now() + 10 * 60_000;
    const scripted = running.agents.map(async (agent) => {
      const role = roleOf.get(agent.spec.imei);
      if (!role || agent.spec.deviceId === undefined) return;
      await sleep(Math.floor(rnd() * 60_000), opts.signal);
      if (opts.signal.aborted) return;
      const incomplete = await playRole({
        role,
        deviceId: agent.spec.deviceId,
        agent,
        portal,
        deadline: deadline(),
        signal: opts.signal,
        observe: (s) => running.stats.observe(s),
      });
      if (incomplete && !opts.signal.aborted) opts.logger.warn({ imei: agent.spec.imei, role, incomplete }, 'demo fleet role incomplete');
    });
    tasks.push(...scripted);
    tasks.push(
      (async () => {
        const movable = running.agents.filter((a) => {
          const role = roleOf.get(a.spec.imei);
          return a.spec.deviceId !== undefined && (role === 'active' || role === 'locked' || role === 'enrolled' || role === 'lockedNoKiosk');
        });
        while (!opts.signal.aborted && movable.length > 0) {
          await sleep(opts.churnEveryMs ?? 5_000, opts.signal);
          const agent = pick(rnd, movable);
          if (opts.signal.aborted || agent.status === null || agent.isPaused || agent.phase !== 'online') continue;
          const payload = churnAction(agent.status, rnd);
          if (!payload) continue;
          try {
            const result = await portal.act(agent.spec.deviceId!, payload);
            if (result.device) running.stats.observe(result.device.status);
          } catch (e) {
            // A command still in flight (409) and the like: the next turn picks another device.
            if (!(e instanceof PortalError)) opts.logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'demo fleet action failed');
          }
        }
      })(),
    );
  }
  return { stats: running.stats, agents: running.agents, done: Promise.all(tasks).then(() => undefined) };
}
