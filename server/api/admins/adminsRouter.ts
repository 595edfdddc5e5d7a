import { Router } from 'express';
import { createAdminBody, listAdminsQuery, updateAdminBody, type CreateAdminBody, type ListAdminsQuery, type UpdateAdminBody } from '../../../shared/contracts/admins';
import { idParams, type IdParams } from '../../../shared/contracts/fields';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { validateBody, validateParams, validateQuery } from '../../middleware/validate';
import type { AdminsService } from './adminsService';

export const ADMINS_PAGE = '/admin-settings/admins';

/** /api/v5/admins: the portal's administrators and their identity users. */
export function adminsRouter(can: Guard, service: AdminsService): Router {
  const router = Router();
  const guard = can(requirePath(ADMINS_PAGE));
  const id = (params: unknown) => (params as IdParams).id;

  router.get('/', guard, validateQuery(listAdminsQuery), async (req, res) => {
    res.json(await service.list(req.query as unknown as ListAdminsQuery));
  });
  router.post('/', guard, validateBody(createAdminBody), async (req, res) => {
    res.status(201).json(await service.create(actorOf(req, res), req.body as CreateAdminBody));
  });
  router.get('/:id', guard, validateParams(idParams), async (req, res) => {
    res.json(await service.get(id(req.params)));
  });
  router.put('/:id', guard, validateParams(idParams), validateBody(updateAdminBody), async (req, res) => {
    res.json(await service.update(actorOf(req, res), id(req.params), req.body as UpdateAdminBody));
  });
  router.delete('/:id', guard, validateParams(idParams), async (req, res) => {
    await service.remove(actorOf(req, res), id(req.params));
    res.status(204).end();
  });
  router.post('/:id/disable', guard, validateParams(idParams), async (req, res) => {
    res.json(await service.disable(actorOf(req, res), id(req.params)));
  });
  router.post('/:id/enable', guard, validateParams(idParams), async (req, res) => {
    res.json(await service.enable(actorOf(req, res), id(req.params)));
  });
  router.post('/:id/reset-password', guard, validateParams(idParams), async (req, res) => {
    res.json(await service.resetPassword(actorOf(req, res), id(req.params)));
  });
  return router;
}
