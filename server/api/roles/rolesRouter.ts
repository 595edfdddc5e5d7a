import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { idParams } from '../../../shared/contracts/fields';
import { duplicateRoleBody, roleBody } from '../../../shared/contracts/roles';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { RolesService } from './rolesService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** /api/v5/roles: the roles (profiles) and what they grant. */
export function rolesRouter(can: Guard, service: RolesService): Router {
  const router = Router();
  const guard = can(requirePath(PATHS.roles));

  router.get('/', guard, async (_req, res) => {
    res.json(await service.list());
  });
  router.post(
    '/',
    guard,
    route({ body: roleBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.create(actorOf(req, res), body));
    }),
  );
  router.get(
    '/:id',
    guard,
    route({ params: idParams }, async ({ params }, _req, res) => {
      res.json(await service.get(params.id));
    }),
  );
  router.put(
    '/:id',
    guard,
    route({ params: idParams, body: roleBody }, async ({ params, body }, req, res) => {
      res.json(await service.update(actorOf(req, res), params.id, body));
    }),
  );
  router.delete(
    '/:id',
    guard,
    route({ params: idParams }, async ({ params }, req, res) => {
      await service.remove(actorOf(req, res), params.id);
      res.status(204).end();
    }),
  );
  router.post(
    API_PATHS.roles.duplicate.pattern,
    guard,
    route({ params: idParams, body: duplicateRoleBody }, async ({ params, body }, req, res) => {
      res.status(201).json(await service.duplicate(actorOf(req, res), params.id, body));
    }),
  );
  return router;
}
