import express, { Router } from 'express';
import { PATHS } from '../../shared/constants/routes';
import { ROLE_ACTION } from '../../shared/constants/roleActions';
import { creditBody, creditParams, paymentBody, paymentParams, reconciliationQuery } from '../../shared/contracts/credits';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { OFFLINE_CODE_ACTIONS } from '../../shared/constants/deviceActions';
import { deviceBody } from '../../shared/contracts/devices';
import {
  commandBody,
  commandIdParams,
  deviceLookupQuery,
  integrationBulkBody,
  jobResultsQuery,
  registerBatchBody,
  type IntegrationRoute,
} from '../../shared/contracts/integration';
import { INTEGRATION_MESSAGES as M } from '../../shared/areaMessages/integration';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import { actorOf } from '../audit/actorOf';
import type { Db } from '../db/Db';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { assertActionGranted, guard, listRoutes, requireAction, requireBodyAction, requirePath, type DeclaredRoute } from '../middleware/authorize';
import { route } from '../middleware/validate';
import { idempotencyOf, sendAnswer } from '../middleware/idempotency';
import type { Services } from '../services';
import { apiKeyAuth, apiKeyRateLimit } from './apiKeyAuth';
import { openApiDocument } from '../../shared/contracts/openapi';
import { BULK_MAX_DEVICES } from '../../shared/constants/limits';

export interface IntegrationDeps {
  db: Db;
  logger: Logger;
  /** The same services the portal API uses (devices, actions, jobs) and the integration's own reads. */
  services: Pick<Services, 'inventory' | 'devices' | 'deviceActions' | 'jobs' | 'integration' | 'credits' | 'reconciliation'>;
  rateLimitPerMinute: number;
}

/** Express's form of an INTEGRATION_ROUTES path (`/commands/{id}` → `/commands/:id`). */
export const expressPath = (r: Pick<IntegrationRoute, 'path'>) => r.path.replace(/\{(\w+)\}/g, ':$1');

/**
 * /api/integration/v1: the lender's API. `GET /openapi.json` is public; every other route needs
 * an API key (apiKeyAuth), is rate limited per key, and is guarded like the portal's route it
 * mirrors, with the same services: the reference §4 action rules, pending conflicts, Idempotency-Key and
 * audit rows (the key's name as the actor).
 */
export function integrationRouter(deps: IntegrationDeps): { router: Router; routes: DeclaredRoute[] } {
  const { db } = deps;
  const { integration: service, devices, deviceActions: actions, jobs, inventory, credits } = deps.services;
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/openapi.json', (req, res) => {
    res.json(openApiDocument({ serverUrl: `${req.protocol}://${req.get('host') ?? 'localhost'}${INTEGRATION_BASE}` }));
  });

  const keyed = Router();
  keyed.use(express.json({ limit: '2mb' }));
  keyed.use(apiKeyRateLimit(deps.rateLimitPerMinute));
  keyed.use(apiKeyAuth(db, inventory, deps.logger));
  const can = guard(db);
  const register = () => can(requirePath(PATHS.addDevice));
  const enrolled = () => can(requirePath(PATHS.devices));

  keyed.post(
    '/devices',
    register(),
    route({ body: deviceBody }, async ({ body }, req, res) => {
      res.status(201).json(await devices.create(actorOf(req, res), body));
    }),
  );
  keyed.post(
    '/devices/batch',
    register(),
    route({ body: registerBatchBody }, async ({ body }, req, res) => {
      res.status(201).json({ data: await devices.createMany(actorOf(req, res), body.devices) });
    }),
  );
  keyed.get(
    '/devices',
    can(requirePath(PATHS.devices, PATHS.preEnrolled)),
    route({ query: deviceLookupQuery }, async ({ query }, req, res) => {
      res.json(await service.lookup(actorOf(req, res), query));
    }),
  );
  keyed.post(
    '/commands',
    can(requireBodyAction(PATHS.devices)),
    route({ body: commandBody }, async ({ body }, req, res) => {
      assertActionGranted(res, body.payload.action);
      const idem = idempotencyOf(req, res, body);
      const id = await service.resolveOne(body.device);
      sendAnswer(res, await actions.act(actorOf(req, res), id, body.payload, idem));
    }),
  );
  keyed.get(
    '/commands/:id',
    enrolled(),
    route({ params: commandIdParams }, async ({ params }, req, res) => {
      res.json(await service.command(actorOf(req, res), params.id));
    }),
  );
  keyed.post(
    '/jobs',
    can(requireBodyAction(PATHS.devices)),
    route({ body: integrationBulkBody }, async ({ body }, req, res) => {
      assertActionGranted(res, body.payload.action);
      if (OFFLINE_CODE_ACTIONS.includes(body.payload.action)) {
        throw new AppError(400, 'VALIDATION', INVENTORY_MESSAGES.field.action(FIELD_LABELS.actions.action), 'payload.action');
      }
      const idem = idempotencyOf(req, res, body);
      const { ids, notFound } =
        body.imeis !== undefined
          ? await service.resolveMany('imei', body.imeis, BULK_MAX_DEVICES + 1)
          : await service.resolveMany('creditReference', body.creditReferences!, BULK_MAX_DEVICES + 1);
      if (ids.length === 0) throw new AppError(404, 'DEVICE_NOT_FOUND', M.integration.noneFound);
      const answer = await jobs.create(actorOf(req, res), { selection: { ids }, payload: body.payload }, idem);
      sendAnswer(res, { ...answer, body: { job: answer.body, notFound } });
    }),
  );
  keyed.get(
    '/jobs/:id',
    enrolled(),
    route({ params: commandIdParams }, async ({ params }, req, res) => {
      const job = await jobs.get(params.id);
      await service.jobRead(actorOf(req, res), params.id);
      res.json(job);
    }),
  );
  keyed.get(
    '/jobs/:id/results',
    enrolled(),
    route({ params: commandIdParams, query: jobResultsQuery }, async ({ params, query }, req, res) => {
      const results = await jobs.results(params.id, query);
      await service.jobRead(actorOf(req, res), params.id);
      res.json(results);
    }),
  );
  // Credits: the lender's loans, their schedules and payments (the portal's rules and service).
  const portfolio = () => can(requirePath(PATHS.creditPortfolio));
  const payments = () => can(requireAction(PATHS.creditPortfolio, ROLE_ACTION.REGISTER_PAYMENTS));
  keyed.put(
    '/credits/:reference',
    portfolio(),
    route({ params: creditParams, body: creditBody }, async ({ params, body }, req, res) => {
      const { created, credit } = await credits.put(actorOf(req, res), params.reference, body);
      res.status(created ? 201 : 200).json(credit);
    }),
  );
  keyed.get(
    '/credits/:reference',
    portfolio(),
    route({ params: creditParams }, async ({ params }, req, res) => {
      res.json(await credits.lookup(actorOf(req, res), params.reference));
    }),
  );
  keyed.post(
    '/credits/:reference/payments',
    payments(),
    route({ params: creditParams, body: paymentBody }, async ({ params, body }, req, res) => {
      const { replayed, result } = await credits.registerPayment(actorOf(req, res), params.reference, body, 'integration');
      res.status(replayed ? 200 : 201).json(result);
    }),
  );
  keyed.post(
    '/credits/:reference/payments/:externalId/reversal',
    payments(),
    route({ params: paymentParams }, async ({ params }, req, res) => {
      res.json(await credits.reversePayment(actorOf(req, res), params.reference, params.externalId));
    }),
  );
  // Conciliación: the page's rows, with the page /credits/reconciliation.
  keyed.get(
    '/reconciliation',
    can(requirePath(PATHS.reconciliation)),
    route({ query: reconciliationQuery }, async ({ query }, _req, res) => {
      res.json(await deps.services.reconciliation.list(query));
    }),
  );
  keyed.use(() => {
    throw new AppError(404, 'NOT_FOUND', M.integration.notFound);
  });
  router.use(keyed);
  return { router, routes: listRoutes(keyed, INTEGRATION_BASE) };
}
