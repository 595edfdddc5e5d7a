import { Router } from 'express';
import { idParams, type IdParams } from '../../../shared/contracts/fields';
import { duplicateRoleBody, roleBody, type DuplicateRoleBody, type RoleBody } from '../../../shared/contracts/roles';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { validateBody, validateParams } from '../../middleware/validate';
import type { RolesService } from './rolesService';

export const ROLES_PAGE = '/admin-settings/roles';

/** /api/v5/roles: the roles (profiles) and what they grant. */
export function rolesRouter(can: Guard, service: RolesService): Router {
  const router = Router();
  const guard = can(requirePath(ROLES_PAGE));
  const id = (params: unknown) => (params as IdParams).id;

  router.get('/', guard, async (_req, res) => {
    res.json(await service.list());
  });
  router.post('/', guard, validateBody(roleBody), async (req, res) => {
    res.status(201).json(await service.create(actorOf(req, res), req.body as RoleBody));
  });
  router.get('/:id', guard, validateParams(idParams), async (req, res) => {
    res.json(await service.get(id(req.params)));
  });
  router.put('/:id', guard, validateParams(idParams), validateBody(roleBody), async (req, res) => {
    res.json(await service.update(actorOf(req, res), id(req.params), req.body as RoleBody));
  });
  router.delete('/:id', guard, validateParams(idParams), async (req, res) => {
    await service.remove(actorOf(req, res), id(req.params));
    res.status(204).end();
  });
  router.post('/:id/duplicate', guard, validateParams(idParams), validateBody(duplicateRoleBody), async (req, res) => {
    res.status(201).json(await service.duplicate(actorOf(req, res), id(req.params), req.body as DuplicateRoleBody));
  });
  return router;
}
