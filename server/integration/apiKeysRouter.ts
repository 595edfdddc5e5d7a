import { Router } from 'express';
import * as z from 'zod';
import { PATHS } from '../../shared/constants/routes';
import { apiKeyBody } from '../../shared/contracts/apiKeys';
import { idParams, pagingParams } from '../../shared/contracts/fields';
import { actorOf } from '../audit/actorOf';
import { requirePath, type Guard } from '../middleware/authorize';
import { route } from '../middleware/validate';
import type { ApiKeysService } from './apiKeysService';
import { API_PATHS } from '../../shared/constants/apiPaths';

const listQuery = z.object({ ...pagingParams(50) });

/** /api/v5/api-keys: the integration API's keys (the page Claves de API). */
export function apiKeysRouter(can: Guard, service: ApiKeysService): Router {
  const router = Router();
  const guard = () => can(requirePath(PATHS.apiKeys));

  router.get(
    '/',
    guard(),
    route({ query: listQuery }, async ({ query }, _req, res) => {
      res.json(await service.list(query, res.locals.grants!));
    }),
  );
  router.get(API_PATHS.apiKeys.roles.pattern, guard(), async (_req, res) => {
    res.json(await service.roles(res.locals.grants!));
  });
  router.post(
    '/',
    guard(),
    route({ body: apiKeyBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.create(actorOf(req, res), res.locals.grants!.adminId, body));
    }),
  );
  router.post(
    API_PATHS.apiKeys.revoke.pattern,
    guard(),
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.revoke(actorOf(req, res), res.locals.grants!.adminId, params.id));
    }),
  );
  return router;
}
