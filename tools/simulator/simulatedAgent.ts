/**
 * One virtual device agent speaking the real agent API (/agent/v1, shared/contracts/agent.ts)
 * with the global fetch: it enrolls with a token, then checks in with long polls, carries out
 * each command after a realistic delay and acknowledges it (or rejects it with a Spanish
 * reason), never acting twice on a command delivered again; it goes offline and comes back,
 * changes its SIM now and then, and redeems the offline codes it is given. It stops when its
 * signal aborts or its token is revoked (released), and never throws out of its loop: failures
 * are counted and retried with back-off, 429 answers wait out their Retry-After.
 */
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import type * as z from 'zod';
import {
  CHECKIN_INTERVAL_SECONDS,
  CHECKIN_WAIT_MAX_SECONDS,
  type AgentCommand,
  type AgentSettingsAnswer,
  type eventBody,
  type CheckinBodyInput,
  type CheckinResponse,
  type CommandOutcome,
  type EnrollBodyInput,
  type EnrollResponse,
  type EventResponse,
  type Sim,
} from '../../shared/contracts/agent';
import type { DeviceTypeCode } from '../../shared/constants/domain';
import { newAgentKeys, signRequest, type AgentKeys } from '../../server/agent/requestSignature';
import { REJECT_REASONS } from './labels';
import { backoffMs, between, chance, generateSim, jittered, nextBattery, pick, retryAfterMs, type MsRange, type Rnd } from './random';

/** What a virtual device says of itself (and, when known, its id in the portal). */
export interface AgentSpec {
  imei: string;
  imei2?: string | null;
  serial?: string | null;
  deviceType: DeviceTypeCode;
  brand?: string | null;
  model?: string | null;
  osVersion?: string | null;
  agentVersion?: string | null;
  sim?: Sim | null;
  /** The token this device enrolls with; the fleet's shared token when absent. */
  enrollmentToken?: string | null;
  /** The device's id in the portal (the scenario and the demo act on it). */
  deviceId?: number;
}

/** How an agent behaves; every rate is a probability (0–1). */
export interface AgentBehaviour {
  /** Seconds each check-in asks the server to hold the answer (long poll), 0–25. */
  wait: number;
  /** How long carrying out a command takes before it is acknowledged. */
  commandDelayMs: MsRange;
  /** Chance of rejecting a command instead of carrying it out. */
  reject: number;
  /** Chance, before each check-in, of going offline for `offlineMs`. */
  offline: number;
  offlineMs: MsRange;
  /** Chance, before each check-in, of a new SIM (smartphones only). */
  simChange: number;
  /** Back-off after failures in a row: first wait and cap. */
  backoffMs: MsRange;
}

export const DEFAULT_BEHAVIOUR: AgentBehaviour = {
  wait: 20,
  commandDelayMs: [200, 1500],
  reject: 0,
  offline: 0,
  offlineMs: [15_000, 90_000],
  simChange: 0,
  backoffMs: [1_000, 30_000],
};

/** Counters an agent adds to (shared by a fleet). */
export interface AgentCounters {
  enrolled: number;
  enrollFailures: number;
  checkins: number;
  acknowledged: number;
  rejected: number;
  /** Commands delivered again after the agent had acted on them (not acted on twice). */
  duplicates: number;
  redeemed: number;
  events: number;
  errors: number;
  rateLimited: number;
  offlinePeriods: number;
  simChanges: number;
}

export const newCounters = (): AgentCounters => ({
  enrolled: 0,
  enrollFailures: 0,
  checkins: 0,
  acknowledged: 0,
  rejected: 0,
  duplicates: 0,
  redeemed: 0,
  events: 0,
  errors: 0,
  rateLimited: 0,
  offlinePeriods: 0,
  simChanges: 0,
});

export type AgentPhase = 'idle' | 'enrolling' | 'online' | 'offline' | 'paused' | 'released' | 'failed' | 'stopped';

/** What the device shows for a status the server answered (undefined: it does not say). */
export function lockStateFor(status: number): 'locked' | 'unlocked' | undefined {
  switch (status) {
    case DEVICE_STATUS.bloqueado:
    case DEVICE_STATUS.configurado_bloqueado:
      return 'locked';
    case DEVICE_STATUS.activo:
    case DEVICE_STATUS.desbloqueado:
    case DEVICE_STATUS.desbloqueado_offline:
    case DEVICE_STATUS.configurado_activo:
    case DEVICE_STATUS.TEMPORARY_ACTIVE:
    case DEVICE_STATUS.liberado:
      return 'unlocked';
    default:
      return undefined;
  }
}

/** Waits `ms`, or less when `signal` aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Commands an agent remembers having acted on (the oldest are forgotten past this). */
const REMEMBERED_COMMANDS = 500;
/** Least time between the starts of two check-ins that brought nothing (a server that does not hold the long poll). */
const MIN_CHECKIN_GAP_MS = 1_000;
/** Longest a request other than a long poll may take. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Attempts of an acknowledgement or event answered 429 or not at all, before it is left for the next delivery. */
const SEND_ATTEMPTS = 4;

/** An event as the agent sends it (defaults filled in by the server). */
export type AgentEventInput = z.input<typeof eventBody>;

type Call<T> =
  | { ok: true; status: number; body: T; etag: string | null }
  | { ok: false; status: number; code: string | null; message: string; retryAfterMs?: number; aborted?: boolean };

interface Outcome {
  decision: 'ack' | 'reject';
  reason: string | null;
  /** The server answered it (no need to send it again). */
  sent: boolean;
}

export interface SimulatedAgentOptions {
  baseUrl: string;
  /** The token when the spec has none. */
  enrollmentToken?: string | null;
  behaviour?: Partial<AgentBehaviour>;
  counters?: AgentCounters;
  rnd?: Rnd;
  /** Told every status the server answers (the fleet keeps the statuses seen). */
  onStatus?: (status: number, agent: SimulatedAgent) => void;
}

export class SimulatedAgent {
  readonly spec: AgentSpec;
  readonly behaviour: AgentBehaviour;
  readonly counters: AgentCounters;
  /** The last status the server answered (null before the enrollment). */
  status: number | null = null;
  phase: AgentPhase = 'idle';
  /** What the screen shows. */
  lockState: 'locked' | 'unlocked' = 'unlocked';
  deviceId: number | null;
  sim: Sim | null;
  battery: number;
  lastError: string | null = null;
  /** The id of the last command carried out. */
  lastCommandId: number | null = null;
  /** Why the server refused the enrollment (status, stable code, Spanish message), as a device would show it. */
  refusal: { status: number; code: string | null; message: string } | null = null;

  /** The settings the agent applies (the last GET /agent/v1/settings answer), null before the first. */
  get settings(): AgentSettingsAnswer | null {
    return this.applied;
  }

  private readonly baseUrl: string;
  private readonly rnd: Rnd;
  private readonly onStatus?: SimulatedAgentOptions['onStatus'];
  private token: string | null = null;
  /** The key pair made at enrollment: every later request is signed with it. */
  private keys: AgentKeys | null = null;
  private settingsVersion: number | null = null;
  private settingsEtag: string | null = null;
  private applied: AgentSettingsAnswer | null = null;
  private checkedIn = false;
  /** The next check-in answers at once: right after enrolling or carrying out commands, to report and learn the status. */
  private quick = true;
  private temporaryUntil: number | null = null;
  private offlineUntil = 0;
  private paused = false;
  private pauseAfterCommand = false;
  /** Aborted to interrupt a sleep or a long poll when paused or resumed. */
  private wake = new AbortController();
  private readonly outcomes = new Map<number, Outcome>();
  private readonly watchers = new Set<() => void>();
  private enrollToken: string | null;

  constructor(spec: AgentSpec, opts: SimulatedAgentOptions) {
    this.spec = spec;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...opts.behaviour };
    this.behaviour.wait = Math.max(0, Math.min(CHECKIN_WAIT_MAX_SECONDS, Math.round(this.behaviour.wait)));
    this.counters = opts.counters ?? newCounters();
    this.rnd = opts.rnd ?? Math.random;
    this.onStatus = opts.onStatus;
    this.deviceId = spec.deviceId ?? null;
    this.sim = spec.sim ?? null;
    this.enrollToken = spec.enrollmentToken ?? opts.enrollmentToken ?? null;
    this.battery = 40 + Math.floor(this.rnd() * 61);
  }

  get enrolled(): boolean {
    return this.token !== null;
  }

  /** The device was released (its token is revoked: nothing more to do). */
  get released(): boolean {
    return this.phase === 'released';
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Stops checking in (a long poll in progress is dropped) until `resume`; enrollment still happens. */
  pause(): void {
    this.paused = true;
    this.interrupt();
  }

  resume(): void {
    this.paused = false;
    this.pauseAfterCommand = false;
    this.interrupt();
  }

  /** Pauses right after the next command is acknowledged or rejected (the device goes quiet with what it shows). */
  pauseAfterNextCommand(): void {
    this.pauseAfterCommand = true;
  }

  /** Goes offline for `ms` now (no check-ins), then comes back on its own. */
  goOffline(ms: number): void {
    this.offlineUntil = Date.now() + ms;
    this.counters.offlinePeriods++;
    this.interrupt();
  }

  /** A new SIM (reported at the next check-in); TVs have none. */
  changeSim(): void {
    if (this.spec.deviceType !== 1) return;
    this.sim = generateSim(this.rnd);
    this.counters.simChanges++;
  }

  private interrupt(): void {
    const old = this.wake;
    this.wake = new AbortController();
    old.abort();
  }

  private setStatus(status: number): void {
    this.status = status;
    const shown = lockStateFor(status);
    if (shown) this.lockState = shown;
    this.onStatus?.(status, this);
    for (const w of [...this.watchers]) w();
  }

  /** Resolves true once `pred` holds for the status (now or later), false after `timeoutMs` or an abort. */
  waitForStatus(pred: (status: number) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.status !== null && pred(this.status)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.watchers.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const check = () => {
        if (this.status !== null && pred(this.status)) finish(true);
        else if (this.phase === 'released' || this.phase === 'failed' || this.phase === 'stopped') finish(false);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
      this.watchers.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) finish(false);
    });
  }

  // HTTP ----------------------------------------------------------------------------------

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    signal: AbortSignal,
    timeoutMs = REQUEST_TIMEOUT_MS,
    extraHeaders: Record<string, string> = {},
  ): Promise<Call<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (text !== undefined) headers['content-type'] = 'application/json';
    try {
      const url = new URL(`${this.baseUrl}/agent/v1${path}`);
      if (this.token && this.keys) {
        headers.authorization = `Bearer ${this.token}`;
        Object.assign(headers, await signRequest(this.keys.privateKey, { method, path: url.pathname + url.search, body: text }));
      }
      const res = await fetch(url, {
        method,
        headers,
        body: text,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      const answered = await res.text();
      let parsed: unknown = null;
      try {
        parsed = answered ? JSON.parse(answered) : null;
      } catch {
        parsed = null;
      }
      // 304: what the agent holds is current (a conditional GET).
      if (res.ok || res.status === 304) return { ok: true, status: res.status, body: parsed as T, etag: res.headers.get('etag') };
      const err = (parsed ?? {}) as { message?: unknown; code?: unknown };
      return {
        ok: false,
        status: res.status,
        code: typeof err.code === 'string' ? err.code : null,
        message: typeof err.message === 'string' ? err.message : `HTTP ${res.status}`,
        ...(res.status === 429 ? { retryAfterMs: retryAfterMs(res.headers, Date.now()) } : {}),
      };
    } catch (e) {
      const aborted = signal.aborted;
      return { ok: false, status: 0, code: null, message: e instanceof Error ? e.message : String(e), aborted };
    }
  }

  private fail(message: string): void {
    this.counters.errors++;
    this.lastError = message;
  }

  // Enrollment ----------------------------------------------------------------------------

  /** Enrolls (retrying 429s and failures with back-off); false when refused or aborted. */
  async enroll(signal: AbortSignal): Promise<boolean> {
    this.phase = 'enrolling';
    const s = this.spec;
    // A new key pair per enrollment, as a reset device makes one.
    const keys = await newAgentKeys();
    const body: EnrollBodyInput = {
      enrollmentToken: this.enrollToken,
      imei: s.imei,
      imei2: s.imei2 ?? null,
      serial: s.serial ?? null,
      deviceType: s.deviceType,
      brand: s.brand ?? null,
      model: s.model ?? null,
      osVersion: s.osVersion ?? null,
      agentVersion: s.agentVersion ?? null,
      sim: this.sim,
      publicKey: keys.publicJwk,
    };
    for (let attempt = 1; !signal.aborted; attempt++) {
      const res = await this.call<EnrollResponse>('POST', '/enroll', body, signal);
      if (res.ok) {
        this.token = res.body.deviceToken;
        this.keys = keys;
        this.refusal = null;
        this.deviceId = res.body.deviceId;
        this.counters.enrolled++;
        this.phase = 'online';
        this.setStatus(res.body.status);
        return true;
      }
      if (res.aborted) break;
      if (res.status === 429) {
        this.counters.rateLimited++;
        await sleep(res.retryAfterMs ?? 5_000, signal);
      } else if (res.status === 0 || res.status >= 500) {
        this.fail(res.message);
        await sleep(backoffMs(this.rnd, attempt, this.behaviour.backoffMs), signal);
      } else {
        // Refused (bad token, a broken restriction, released): a real device shows the reason and stops.
        this.counters.enrollFailures++;
        this.refusal = { status: res.status, code: res.code, message: res.message };
        this.fail(res.message);
        this.phase = 'failed';
        this.notifyWatchers();
        return false;
      }
    }
    this.phase = 'stopped';
    return false;
  }

  private notifyWatchers(): void {
    for (const w of [...this.watchers]) w();
  }

  // The loop ------------------------------------------------------------------------------

  /** Enrolls (unless already enrolled) and checks in until `signal` aborts or the token is revoked. Never throws. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      if (!this.token && !(await this.enroll(signal))) return;
      let failures = 0;
      while (!signal.aborted && this.phase !== 'released' && this.phase !== 'failed') {
        try {
          failures = await this.step(signal, failures);
        } catch (e) {
          // Unexpected: counted, and the loop goes on after a back-off.
          this.fail(e instanceof Error ? e.message : String(e));
          failures++;
          await sleep(backoffMs(this.rnd, failures, this.behaviour.backoffMs), signal);
        }
      }
    } finally {
      if (this.phase !== 'released' && this.phase !== 'failed') this.phase = 'stopped';
      this.notifyWatchers();
    }
  }

  /** One turn of the loop; answers the number of failures in a row. */
  private async step(signal: AbortSignal, failures: number): Promise<number> {
    if (this.paused) {
      this.phase = 'paused';
      await sleep(3_600_000, AbortSignal.any([signal, this.wake.signal]));
      return failures;
    }
    const now = Date.now();
    if (this.offlineUntil > now) {
      this.phase = 'offline';
      await sleep(this.offlineUntil - now, AbortSignal.any([signal, this.wake.signal]));
      return failures;
    }
    // A device that just enrolled is online: the chances apply from its first check-in on.
    if (this.checkedIn && chance(this.rnd, this.behaviour.offline)) {
      this.goOffline(between(this.rnd, this.behaviour.offlineMs));
      return failures;
    }
    this.phase = 'online';
    if (this.checkedIn && chance(this.rnd, this.behaviour.simChange)) this.changeSim();
    await this.expireTemporary(signal);

    const started = Date.now();
    // After enrolling or carrying out commands the check-in answers at once (the device learns
    // what it is now); otherwise it is a long poll.
    const wait = this.quick ? 0 : this.behaviour.wait;
    this.battery = nextBattery(this.rnd, this.battery);
    const body: CheckinBodyInput = {
      wait,
      osVersion: this.spec.osVersion ?? undefined,
      agentVersion: this.spec.agentVersion ?? undefined,
      ...(this.spec.deviceType === 1 ? { sim: this.sim } : {}),
      batteryLevel: this.battery,
      lockState: this.lockState,
    };
    const pollSignal = AbortSignal.any([signal, this.wake.signal]);
    const res = await this.call<CheckinResponse>('POST', '/checkin', body, pollSignal, (wait + 15) * 1000);
    if (!res.ok) {
      if (res.aborted || signal.aborted) return failures;
      if (res.status === 401) {
        // The token was revoked: released (expected) or deleted.
        if (this.status !== DEVICE_STATUS.liberado) this.fail(res.message);
        this.phase = this.status === DEVICE_STATUS.liberado ? 'released' : 'failed';
        return failures;
      }
      if (res.status === 429) {
        this.counters.rateLimited++;
        await sleep(res.retryAfterMs ?? 5_000, signal);
        return failures;
      }
      this.fail(res.message);
      await sleep(backoffMs(this.rnd, failures + 1, this.behaviour.backoffMs), signal);
      return failures + 1;
    }
    this.counters.checkins++;
    this.checkedIn = true;
    this.quick = false;
    const answer = res.body;
    this.setStatus(answer.status);
    if (this.settingsVersion !== answer.settingsVersion) {
      // As a real agent would: a conditional GET with the ETag of what it applies.
      const conditional: Record<string, string> = this.settingsEtag ? { 'if-none-match': this.settingsEtag } : {};
      const settings = await this.call<AgentSettingsAnswer>('GET', '/settings', undefined, signal, REQUEST_TIMEOUT_MS, conditional);
      if (settings.ok) {
        if (settings.status !== 304) {
          this.applied = settings.body;
          this.settingsEtag = settings.etag;
        }
        this.settingsVersion = answer.settingsVersion;
      } else if (settings.status === 429) this.counters.rateLimited++;
    }
    if (answer.commands.length > 0) {
      for (const command of answer.commands) {
        if (signal.aborted || this.paused || this.released) break;
        await this.handle(command, signal);
      }
      this.quick = true;
      return 0;
    }
    // Nothing to do: the next long poll at once (a little jitter), a plain check-in after the interval.
    const pause =
      this.behaviour.wait > 0
        ? Math.max(Math.floor(this.rnd() * 500), MIN_CHECKIN_GAP_MS - (Date.now() - started))
        : Math.max(MIN_CHECKIN_GAP_MS - (Date.now() - started), jittered(this.rnd, (answer.nextCheckinSeconds ?? CHECKIN_INTERVAL_SECONDS) * 1000));
    await sleep(pause, AbortSignal.any([signal, this.wake.signal]));
    return 0;
  }

  // Commands ------------------------------------------------------------------------------

  private remember(id: number, outcome: Outcome): void {
    this.outcomes.set(id, outcome);
    if (this.outcomes.size > REMEMBERED_COMMANDS) this.outcomes.delete(this.outcomes.keys().next().value!);
  }

  /** Carries out one command once: a command delivered again is only answered again if the first answer was lost. */
  async handle(command: AgentCommand, signal: AbortSignal): Promise<void> {
    let outcome = this.outcomes.get(command.id);
    if (outcome) {
      this.counters.duplicates++;
      if (outcome.sent) return;
    } else {
      await sleep(between(this.rnd, this.behaviour.commandDelayMs), signal);
      if (signal.aborted) return;
      const reject = chance(this.rnd, this.behaviour.reject);
      outcome = { decision: reject ? 'reject' : 'ack', reason: reject ? pick(this.rnd, REJECT_REASONS) : null, sent: false };
      this.remember(command.id, outcome);
    }
    const path = `/commands/${command.id}/${outcome.decision}`;
    const body = outcome.decision === 'reject' ? { reason: outcome.reason } : {};
    for (let attempt = 1; attempt <= SEND_ATTEMPTS && !signal.aborted; attempt++) {
      const res = await this.call<CommandOutcome>('POST', path, body, signal);
      if (res.ok) {
        outcome.sent = true;
        this.lastCommandId = command.id;
        if (res.body.status === 'acknowledged') {
          this.counters.acknowledged++;
          this.carriedOut(command);
        } else if (res.body.status === 'rejected') {
          this.counters.rejected++;
        }
        this.setStatus(res.body.deviceStatus);
        if (command.action === DEVICE_ACTION.RELEASE && res.body.status === 'acknowledged') this.phase = 'released';
        if (this.pauseAfterCommand) {
          this.pauseAfterCommand = false;
          this.pause();
        }
        return;
      }
      if (res.aborted) return;
      if (res.status === 429) {
        this.counters.rateLimited++;
        await sleep(res.retryAfterMs ?? 5_000, signal);
        continue;
      }
      if (res.status === 0 || res.status >= 500) {
        this.fail(res.message);
        await sleep(backoffMs(this.rnd, attempt, this.behaviour.backoffMs), signal);
        continue;
      }
      // 404 (cancelled meanwhile), 403, 409: the server will not take it; never sent again.
      outcome.sent = true;
      this.fail(res.message);
      return;
    }
  }

  /** What the device does when it carries out a command (what its screen shows). */
  private carriedOut(command: AgentCommand): void {
    if (command.action === DEVICE_ACTION.LOCK) {
      this.lockState = 'locked';
      this.temporaryUntil = null;
    } else if (command.action === DEVICE_ACTION.UNLOCK) {
      this.lockState = 'unlocked';
      const until = typeof command.payload.until === 'string' ? Date.parse(command.payload.until) : NaN;
      this.temporaryUntil = Number.isNaN(until) ? null : until;
    }
  }

  /** A temporary unlock past its date locks the device again, reported to the server. */
  private async expireTemporary(signal: AbortSignal): Promise<void> {
    if (this.temporaryUntil === null || this.temporaryUntil > Date.now()) return;
    this.temporaryUntil = null;
    this.lockState = 'locked';
    await this.reportEvent({ type: 'temporary_expired' }, signal);
  }

  // Events --------------------------------------------------------------------------------

  /** Reports an event (retrying 429s); the answer, or null when it could not be sent or was refused. */
  async reportEvent(event: AgentEventInput, signal: AbortSignal): Promise<EventResponse | null> {
    if (!this.token) return null;
    for (let attempt = 1; attempt <= SEND_ATTEMPTS && !signal.aborted; attempt++) {
      const res = await this.call<EventResponse>('POST', '/events', event, signal);
      if (res.ok) {
        this.counters.events++;
        this.setStatus(res.body.status);
        return res.body;
      }
      if (res.aborted) return null;
      if (res.status === 429) {
        this.counters.rateLimited++;
        await sleep(res.retryAfterMs ?? 5_000, signal);
        continue;
      }
      this.fail(res.message);
      if (res.status === 0 || res.status >= 500) {
        await sleep(backoffMs(this.rnd, attempt, this.behaviour.backoffMs), signal);
        continue;
      }
      return null;
    }
    return null;
  }

  /**
   * The customer typed an offline code the administrator read to them: the agent accepts it and
   * reports it (POST /agent/v1/events offline_code) with the instant it was typed (`redeemedAt`:
   * earlier when the device was offline then). Null when the server refused it.
   */
  async redeemCode(code: string, signal: AbortSignal = new AbortController().signal, redeemedAt = new Date()): Promise<EventResponse | null> {
    const answer = await this.reportEvent({ type: 'offline_code', code, redeemedAt: redeemedAt.toISOString() }, signal);
    if (!answer) return null;
    if (answer.applied) {
      this.counters.redeemed++;
      if (answer.action === DEVICE_ACTION.RELEASE_OFFLINE) {
        this.phase = 'released';
        this.interrupt();
      } else {
        this.lockState = 'unlocked';
      }
    }
    return answer;
  }
}
