/**
 * The embedded demo's simulated fleet (DEMO_AGENTS, default 50; never in production): devices
 * of the group 'Agentes simulados' whose agents run in this process and talk to the agent API
 * over HTTP like real ones, so a new user who locks one sees it go 'Bloqueando' → 'Bloqueado'.
 * The group and its devices are registered once through the inventory services (audited as
 * 'demo'). The agents' keys live in this process only, so each start enrolls them again as a
 * factory-reset device would: the devices never enrolled use a new token of the group, and each
 * enrolled one an authorisation of its own, issued as an administrator would ('Autorizar
 * reenrolamiento', audited as 'demo'); each keeps its state and gets new credentials.
 */
import type { DeviceTypeCode } from '../../shared/constants/domain';
import { PATHS } from '../../shared/constants/routes';
import { AppError } from '../../server/errors';
import { DevicesService, type InventorySettings } from '../../server/devices';
import { GroupsService } from '../../server/api/groups/groupsService';
import type { EnrollmentTokensService } from '../../server/api/enrollment/enrollmentTokensService';
import type { AuditActor } from '../../server/audit/auditRepository';
import type { Db } from '../../server/db/Db';
import type { Logger } from '../../server/logger';
import { prng } from '../seed/prng';
import { startDemoFleet } from '../simulator/fleet';
import { generateIdentity, generateSim } from '../simulator/random';
import type { AgentBehaviour, AgentSpec } from '../simulator/simulatedAgent';

export const DEMO_AGENTS_GROUP = { name: 'Agentes simulados', description: 'Dispositivos cuyos agentes simula el servidor de demostración' };
const DEMO_ACTOR: AuditActor = { adminId: null, email: 'demo', ip: null, requestId: null };

export interface DemoAgents {
  stop(): Promise<void>;
}

/** Registers what is missing, then starts the agents against `baseUrl` (this server). */
export async function startDemoAgents(opts: {
  db: Db;
  inventory: InventorySettings;
  enrollment: EnrollmentTokensService;
  baseUrl: string;
  count: number;
  logger: Logger;
  /** Overrides of the demo's behaviour (tests turn off going offline and rejecting). */
  behaviour?: Partial<AgentBehaviour>;
}): Promise<DemoAgents> {
  const groups = new GroupsService(opts.db);
  const devices = new DevicesService(opts.db, opts.inventory);
  const existing = (await groups.list()).data.find((g) => g.name === DEMO_AGENTS_GROUP.name);
  const groupId = existing?.id ?? (await groups.create(DEMO_ACTOR, DEMO_AGENTS_GROUP)).id;

  const rnd = prng(0xa6e7);
  const registered = [];
  for (let page = 1; registered.length < opts.count; page++) {
    const { data } = await devices.list({ groupId, sort: 'createdAt', order: 'asc', page, perPage: 100 });
    registered.push(...data);
    if (data.length < 100) break;
  }
  const specs: AgentSpec[] = registered.slice(0, opts.count).map((d) => ({
    ...generateIdentity(rnd, d.deviceType as DeviceTypeCode),
    imei: d.imei,
    serial: d.serial,
    brand: d.brand,
    model: d.model,
    deviceId: d.id,
  }));
  while (specs.length < opts.count) {
    const identity = generateIdentity(rnd, rnd() < 0.8 ? 1 : 2);
    try {
      const d = await devices.create(DEMO_ACTOR, {
        imei: identity.imei,
        imei2: null,
        serial: identity.serial,
        deviceType: identity.deviceType,
        brand: identity.brand,
        model: identity.model,
        groupId,
        customerName: `Cliente simulado ${specs.length + 1}`,
        creditReference: `SIM-${identity.imei.slice(-8)}`,
      });
      specs.push({ ...identity, sim: identity.deviceType === 1 ? generateSim(rnd) : null, deviceId: d.id });
    } catch {
      // An IMEI already registered elsewhere: draw another.
    }
  }
  const token = await opts.enrollment.create(DEMO_ACTOR, { groupId, deviceId: null, validHours: 24 }, new Set([PATHS.groups]), opts.baseUrl);
  for (const spec of specs) {
    try {
      const own = await opts.enrollment.authorizeReenrollment(DEMO_ACTOR, { deviceId: spec.deviceId!, validHours: 24 }, opts.baseUrl);
      spec.enrollmentToken = own.token;
    } catch (err) {
      // Never enrolled: the group's token. Released: its agent is refused, as a real one would be.
      if (!(err instanceof AppError && err.status === 409)) throw err;
    }
  }
  const abort = new AbortController();
  const fleet = startDemoFleet({
    baseUrl: opts.baseUrl,
    agents: specs.slice(0, opts.count),
    enrollmentToken: token.token,
    logger: opts.logger,
    signal: abort.signal,
    logEveryMs: 0,
    ...(opts.behaviour ? { behaviour: opts.behaviour } : {}),
  });
  opts.logger.info({ agents: Math.min(specs.length, opts.count), group: DEMO_AGENTS_GROUP.name }, `demo: ${opts.count} simulated agents running`);
  return {
    async stop() {
      abort.abort();
      await fleet.done.catch(() => undefined);
    },
  };
}
