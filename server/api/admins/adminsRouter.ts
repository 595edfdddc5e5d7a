import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { createAdminBody, listAdminsQuery, updateAdminBody } from '../../../shared/contracts/admins';
import { idParams } from '../../../shared/contracts/fields';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { AdminsService } from './adminsService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** /api/v5/admins: the portal's administrators and their identity users. */
export function adminsRouter(can: Guard, service: AdminsService): Router {
  const router = Router();
  const guard = can(requirePath(PATHS.admins));

  router.get(
    '/',
    guard,
    route({ query: listAdminsQuery }, async ({ query }, _req, res) => {
      res.json(await service.list(query));
    }),
  );
  router.post(
    '/',
    guard,
    route({ body: createAdminBody }, async ({ body }, req, res) => {
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
    route({ params: idParams, body: updateAdminBody }, async ({ params, body }, req, res) => {
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
    API_PATHS.admins.disable.pattern,
    guard,
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.disable(actorOf(req, res), params.id));
    }),
  );
  router.post(
    API_PATHS.admins.enable.pattern,
    guard,
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.enable(actorOf(req, res), params.id));
    }),
  );
  router.post(
    API_PATHS.admins.resetPassword.pattern,
    guard,
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.resetPassword(actorOf(req, res), params.id));
    }),
  );
  return router;
}
