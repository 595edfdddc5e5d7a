import express, { type Express } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { rateLimit } from 'express-rate-limit';
import { API_PATHS, INTEGRATION_BASE } from '../shared/constants/apiPaths';
import type { PublicConfig } from '../shared/contracts/publicConfig';
import type { Config } from './config';
import type { Db } from './db/Db';
import { apiNotFound, errorHandler } from './errors';
import { compressResponses } from './middleware/compress';
import { requestLog } from './middleware/requestLog';
import { securityHeaders } from './middleware/securityHeaders';
import { healthRouter } from './health/healthRouter';
import { createMetrics, type Metrics } from './health/metrics';
import { Readiness, databaseCheck, identityKeysCheck } from './health/readiness';
import { portalRouter } from './api/portal/portalRouter';
import { adminsRouter } from './api/admins/adminsRouter';
import { auditRouter } from './api/audit/auditRouter';
import { dashboardRouter } from './api/dashboard/dashboardRouter';
import { rolesRouter } from './api/roles/rolesRouter';
import { usersRouter } from './api/users/usersRouter';
import { deviceActionsRouter } from './api/devices/deviceActionsRouter';
import { devicesRouter } from './api/devices/devicesRouter';
import { agentSettingsRouter } from './api/agentSettings/agentSettingsRouter';
import { groupsRouter } from './api/groups/groupsRouter';
import { jobsRouter } from './api/jobs/jobsRouter';
import { enrollmentTokensRouter } from './api/enrollment/enrollmentTokensRouter';
import { creditsRouter } from './api/credits/creditsRouter';
import { collectionPolicyRouter } from './api/credits/collectionPolicyRouter';
import { reconciliationRouter } from './api/credits/reconciliationRouter';
import { deviceCreditRouter } from './api/credits/deviceCreditRouter';
import { agentRouter } from './agent/agentRouter';
import type { TokenVerifiers } from './auth/tokenVerifier';
import type { IdentityDirectory } from './identity/IdentityDirectory';
import type { IdentityService } from './identity/identityService';
import { identityRouter } from './identity/identityRouter';
import { authenticate } from './middleware/authenticate';
import { assertRoutesDeclared, guard, listRoutes, mount, type DeclaredRoute } from './middleware/authorize';
import type { Logger } from './logger';
import { ASSET_PREFIX, type ClientAssets } from './ssr/manifest';
import { ssrRouter } from './ssr/ssrRouter';
import { apiKeysRouter } from './integration/apiKeysRouter';
import { integrationRouter } from './integration/integrationRouter';
import { webhooksRouter } from './webhooks/webhooksRouter';
import { createServices, type Services } from './services';

/** Path of the embedded identity endpoint on the portal's own origin. */
export const IDENTITY_ENDPOINT_PATH = '/cognito/';
const IDENTITY_MOUNT = IDENTITY_ENDPOINT_PATH.replace(/\/$/, '');

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  assets: ClientAssets;
  /** Verifies the tokens the API receives (the embedded endpoint's keys or a real pool's). */
  verifiers: TokenVerifiers;
  /** The embedded identity endpoint; absent with a real Cognito pool. */
  identity?: IdentityService;
  /** Administrator operations on the identity users (embedded endpoint or Cognito pool). */
  directory: IdentityDirectory;
  /** Shared with the process owner, which flips it on SIGTERM. Created when absent. */
  readiness?: Readiness;
  metrics?: Metrics;
  /** The inventory's clock (tests move it); `Date` by default. */
  now?: () => Date;
  /** The services (built from the other dependencies when absent). */
  services?: Services;
}

/** The portal's Express app (it never listens: server/index.ts and the tests do). */
export type PortalApp = Express;

/** What createApp builds: the app, the services it mounts, its probes and its declared routes. */
export interface BuiltApp {
  app: PortalApp;
  services: Services;
  readiness: Readiness;
  metrics: Metrics;
  routes: {
    /** Every portal API route with its declared permission (the authorization matrix test walks it). */
    api: DeclaredRoute[];
    /** The integration API's routes (the matrix test walks them too). */
    integration: DeclaredRoute[];
  };
}

/** The settings the browser may see. */
export function publicConfig(config: Config): PublicConfig {
  const { region, userPoolId, clientId, mode } = config.identity;
  return {
    apiBase: config.apiBase,
    apiSendRefreshToken: config.apiSendRefreshToken,
    portalVersion: config.portalVersion,
    cognito: { region, userPoolId, clientId, ...(mode === 'embedded' ? { endpoint: IDENTITY_ENDPOINT_PATH } : {}) },
  };
}

/** Paths whose requests are not logged: the probes and the metrics scrape. */
const UNLOGGED = /^\/(healthz|readyz|metrics)(\?|$)/;

function connectSources(pub: PublicConfig): string[] {
  const sources = ["'self'"];
  if (!pub.cognito.endpoint) sources.push(`https://cognito-idp.${pub.cognito.region}.amazonaws.com`);
  if (/^https?:\/\//.test(pub.apiBase)) sources.push(new URL(pub.apiBase).origin);
  return sources;
}

/** Builds the Express app and its services; never listens (server/index.ts owns the port and signals). */
export function createApp(deps: AppDeps): BuiltApp {
  const { config, db, logger, assets } = deps;
  const readiness = deps.readiness ?? new Readiness([]);
  readiness.add(databaseCheck(db));
  readiness.add(identityKeysCheck(() => deps.verifiers.hydrate()));
  const metrics = deps.metrics ?? createMetrics();
  const services = deps.services ?? createServices({ config, db, logger, metrics, directory: deps.directory, now: deps.now });
  const pub = publicConfig(config);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  app.use(metrics.middleware);
  // The device side: its own API, authenticated by device tokens (no portal session), before the
  // page middleware (it logs its own requests; see agentRouter).
  app.use('/agent/v1', agentRouter(services.agent.service, services.agent.metrics, config.agent, logger));
  app.use(
    requestLog(logger, {
      message: 'request completed',
      // Probes and scrapes are not logged, whatever they answer.
      level: (status, url) => (UNLOGGED.test(url) ? 'silent' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'),
    }),
  );

  app.use(
    securityHeaders((nonce) => ({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", `'nonce-${nonce}'`],
          styleSrc: ["'self'"],
          styleSrcAttr: ["'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: connectSources(pub),
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      strictTransportSecurity: false,
    })),
  );
  // HSTS only where it means something: production behind TLS (directly or via the proxy).
  app.use((req, res, next) => {
    if (config.env === 'production' && req.secure) {
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
    if (readiness.isShuttingDown) res.setHeader('Connection', 'close');
    next();
  });
  app.use(compressResponses());

  app.use(healthRouter(readiness, metrics));
  if (deps.identity) {
    // Sign-in attempts per client IP (a sign-in is two requests, a refresh one), on top of the
    // per-name lock-out; answered in the protocol's own error shape.
    const identityLimit = rateLimit({
      windowMs: 60_000,
      limit: config.identityRateLimitPerMinute,
      skip: (req) => req.method !== 'POST',
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      validate: { xForwardedForHeader: false },
      handler: (_req, res) => {
        res
          .status(400)
          .set({ 'Content-Type': 'application/x-amz-json-1.1', 'x-amzn-ErrorType': 'TooManyRequestsException:' })
          .send(JSON.stringify({ __type: 'TooManyRequestsException', message: 'Too many requests' }));
      },
    });
    app.use(IDENTITY_MOUNT, identityLimit, identityRouter(deps.identity));
  }

  app.use(
    ASSET_PREFIX,
    (_req, res, next) => {
      res.locals.metricsRoute = ASSET_PREFIX;
      next();
    },
    // The build wrote .br and .gz next to every text asset: no compression work per request.
    expressStaticGzip(assets.dir, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '365d', index: false, fallthrough: false },
    }),
  );

  const api = express.Router();
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(express.json({ limit: '1mb' }));
  api.use(authenticate(deps.verifiers));
  const can = guard(db);
  const mounts = new Map<unknown, string>();
  mount(api, API_PATHS.portal.base, portalRouter(can, services.portal, config.portalVersion), mounts);
  mount(api, API_PATHS.users.base, usersRouter(can, services.users), mounts);
  mount(api, API_PATHS.roles.base, rolesRouter(can, services.roles), mounts);
  mount(api, API_PATHS.admins.base, adminsRouter(can, services.admins), mounts);
  mount(api, API_PATHS.audit.base, auditRouter(can, services.audit), mounts);
  // The action routes first: /bulk-actions must not be read as a device id.
  mount(api, API_PATHS.devices.base, deviceActionsRouter(can, services.deviceActions, services.jobs), mounts);
  mount(api, API_PATHS.devices.base, devicesRouter(can, services.devices), mounts);
  mount(api, API_PATHS.devices.base, deviceCreditRouter(can, services.credits), mounts);
  // Conciliación first: /reconciliation must not be read as a credit's reference.
  mount(api, API_PATHS.credits.base, reconciliationRouter(can, services.reconciliation), mounts);
  mount(api, API_PATHS.credits.base, creditsRouter(can, services.credits, services.collectionAdmin), mounts);
  mount(api, API_PATHS.collectionPolicy.base, collectionPolicyRouter(can, services.collectionAdmin), mounts);
  mount(api, API_PATHS.groups.base, groupsRouter(can, services.groups), mounts);
  mount(api, API_PATHS.jobs.base, jobsRouter(can, services.jobs), mounts);
  mount(api, API_PATHS.agentSettings.base, agentSettingsRouter(can, services.agentSettings), mounts);
  mount(api, API_PATHS.dashboard.base, dashboardRouter(can, services.dashboard), mounts);
  mount(api, API_PATHS.enrollmentTokens.base, enrollmentTokensRouter(can, services.enrollment), mounts);
  mount(api, API_PATHS.apiKeys.base, apiKeysRouter(can, services.apiKeys), mounts);
  mount(api, API_PATHS.webhooks.base, webhooksRouter(can, services.webhooks), mounts);
  api.use(apiNotFound);
  // Deny by default: a route without a declared permission stops the server here.
  const apiRoutes = listRoutes(api, '/api', mounts);
  assertRoutesDeclared(apiRoutes);
  // The lender's integration: API keys instead of portal sessions, the same guards and services.
  const integration = integrationRouter({ db, services, logger, rateLimitPerMinute: config.integrationRateLimitPerMinute });
  assertRoutesDeclared(integration.routes);
  app.use(INTEGRATION_BASE, integration.router);
  app.use('/api', api);

  app.use(ssrRouter({ config: pub, manifest: assets.manifest, cacheEntries: config.ssrCacheEntries }));
  app.use(errorHandler);
  return { app, services, readiness, metrics, routes: { api: apiRoutes, integration: integration.routes } };
}
