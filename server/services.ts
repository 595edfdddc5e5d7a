/**
 * The composition root: every service of the server, built once from its dependencies. createApp
 * mounts their routers; server/index.ts starts and stops the ones that run in the background (the
 * job runner, the webhook dispatcher, the agents' waiters and presence writer); tests take what
 * they need from the same object.
 */
import type { Config } from './config';
import type { Db } from './db/Db';
import type { Logger } from './logger';
import type { Metrics } from './health/metrics';
import type { IdentityDirectory } from './identity/IdentityDirectory';
import { AdminsService } from './api/admins/adminsService';
import { AgentSettingsService } from './api/agentSettings/agentSettingsService';
import { AuditService } from './api/audit/auditService';
import { DashboardService } from './api/dashboard/dashboardService';
import { DeviceActionsService, type InventorySettings, DevicesService } from './devices';
import { EnrollmentTokensService } from './api/enrollment/enrollmentTokensService';
import { GroupsService } from './api/groups/groupsService';
import { JobRunner } from './api/jobs/jobRunner';
import { JobsService } from './api/jobs/jobsService';
import { PortalRepository } from './api/portal/portalRepository';
import { RolesService } from './api/roles/rolesService';
import { UsersRepository } from './api/users/usersRepository';
import { UsersService } from './api/users/usersService';
import { createAgentMetrics, type AgentMetrics } from './agent/agentMetrics';
import { CommandRepository } from './devices';
import { AgentService } from './agent/agentService';
import { CommandWaiters } from './agent/commandWaiters';
import { PresenceWriter } from './agent/presenceWriter';
import { COLLECTION_BATCH, COLLECTION_BATCH_PGLITE, CollectionEngine, CollectionService, CreditsService, ReconciliationService } from './credits';
import { ApiKeysService } from './integration/apiKeysService';
import { IntegrationService } from './integration/integrationService';
import { WebhookDispatcher } from './webhooks/webhookDispatcher';
import { WebhooksService } from './webhooks/webhooksService';

export interface ServiceDeps {
  config: Config;
  db: Db;
  logger: Logger;
  metrics: Metrics;
  /** Administrator operations on the identity users (embedded endpoint or Cognito pool). */
  directory: IdentityDirectory;
  /** The inventory's and the credits' clock (tests move it); `Date` by default. */
  now?: () => Date;
}

export interface Services {
  /** The offline threshold and the clock every device read and write uses. */
  inventory: InventorySettings;
  /** The device side: the agent API's service, the long polls' waiters, the check-ins' reports. */
  agent: {
    service: AgentService;
    metrics: AgentMetrics;
    waiters: CommandWaiters;
    /** Check-ins' reports, written in batches; after `stop`, each at once (the server flushes it before closing the database). */
    presence: PresenceWriter;
    /** Shutdown: waiting check-ins answer now, and the reports recorded so far are written. */
    stop(): Promise<void>;
  };
  enrollment: EnrollmentTokensService;
  devices: DevicesService;
  deviceActions: DeviceActionsService;
  jobs: JobsService;
  /** Runs the bulk-action jobs; server/index.ts starts and stops it. */
  jobRunner: JobRunner;
  groups: GroupsService;
  roles: RolesService;
  admins: AdminsService;
  audit: AuditService;
  users: UsersService;
  portal: PortalRepository;
  agentSettings: AgentSettingsService;
  /** The dashboards' numbers (the server's clock refreshes their offline snapshot). */
  dashboard: DashboardService;
  apiKeys: ApiKeysService;
  /** The integration API's own reads (devices by IMEI or credit reference, commands). */
  integration: IntegrationService;
  webhooks: WebhooksService;
  /** Credits, their installments and payments (the portfolio and the lender's API). */
  credits: CreditsService;
  /** The collection policy's engine; server/index.ts ticks it (tests call `tick` with a moved clock). */
  collection: CollectionEngine;
  /** The collection policy's settings, a credit's pause, the releases waiting for approval. */
  collectionAdmin: CollectionService;
  /** Conciliación: devices whose state contradicts their credit, and the daily summary; server/index.ts ticks it. */
  reconciliation: ReconciliationService;
  /** Sends the webhooks' outbox; server/index.ts starts and stops it. */
  webhookDispatcher: WebhookDispatcher;
}

export function createServices({ config, db, logger, metrics, directory, now }: ServiceDeps): Services {
  const inventory: InventorySettings = { offlineAfterHours: config.deviceOfflineAfterHours, now: now ?? (() => new Date()) };
  const waiters = new CommandWaiters(db);
  const presence: PresenceWriter = new PresenceWriter(db, logger, config.agent.presenceFlushMs, (outcome, devices) =>
    agentMetrics.presence(outcome, devices),
  );
  const agentMetrics = createAgentMetrics(
    metrics.registry,
    () => waiters.size,
    () => new CommandRepository(db),
    () => presence.size,
  );
  const jobs = new JobsService(db, inventory, logger);
  // A person's unlock holds the collection policy's lock off: the device side calls back into it.
  const deviceActions: DeviceActionsService = new DeviceActionsService(db, inventory, {
    unlocked: (tx, actor, reference, at) => collection.holdAfterUnlock(tx, actor, reference, at),
  });
  const collection = new CollectionEngine(
    db,
    deviceActions,
    { timeZone: config.companyTimeZone, inventory },
    logger,
    db.engine === 'pglite' ? COLLECTION_BATCH_PGLITE : COLLECTION_BATCH,
  );
  const credits = new CreditsService(db, { timeZone: config.companyTimeZone, inventory, collection });
  return {
    inventory,
    agent: {
      service: new AgentService(db, inventory, waiters, agentMetrics, presence),
      metrics: agentMetrics,
      waiters,
      presence,
      stop: async () => {
        await waiters.stop();
        await presence.stop();
      },
    },
    enrollment: new EnrollmentTokensService(db, inventory, config.agent.serverUrl),
    devices: new DevicesService(db, inventory),
    deviceActions,
    jobs,
    jobRunner: new JobRunner(jobs),
    groups: new GroupsService(db),
    roles: new RolesService(db),
    admins: new AdminsService(db, directory, logger),
    audit: new AuditService(db),
    users: new UsersService(new UsersRepository(db)),
    portal: new PortalRepository(db),
    agentSettings: new AgentSettingsService(db),
    dashboard: new DashboardService(db, inventory, { timeZone: config.companyTimeZone, summary: () => credits.summary() }),
    apiKeys: new ApiKeysService(db, inventory),
    integration: new IntegrationService(db, inventory),
    webhooks: new WebhooksService(db, config.webhooks),
    credits,
    collection,
    collectionAdmin: new CollectionService(db, collection, deviceActions, credits, { timeZone: config.companyTimeZone, now: inventory.now }),
    reconciliation: new ReconciliationService(db, { timeZone: config.companyTimeZone, inventory }),
    webhookDispatcher: new WebhookDispatcher(db, config.webhooks, logger),
  };
}
