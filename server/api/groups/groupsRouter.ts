import { Router } from 'express';
import { deleteGroupQuery, groupBody, type DeleteGroupQuery, type GroupBody } from '../../../shared/contracts/devices';
import { idParams, type IdParams } from '../../../shared/contracts/fields';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { validateBody, validateParams, validateQuery } from '../../middleware/validate';
import type { GroupsService } from './groupsService';

export const GROUPS_PAGE = '/inventory-management/devices-group';
/** Pages that show the groups (filters, forms): any of them may read the list. */
export const GROUP_READER_PAGES = [
  GROUPS_PAGE,
  '/inventory-management/devices',
  '/inventory-management/devices-pre-enrolled',
  '/inventory-management/add-device',
] as const;

/** /api/v5/groups. */
export function groupsRouter(can: Guard, service: GroupsService): Router {
  const router = Router();
  const manage = () => can(requirePath(GROUPS_PAGE));
  const id = (params: unknown) => (params as IdParams).id;

  router.get('/', can(requirePath(...GROUP_READER_PAGES)), async (_req, res) => {
    res.json(await service.list());
  });
  router.post('/', manage(), validateBody(groupBody), async (req, res) => {
    res.status(201).json(await service.create(actorOf(req, res), req.body as GroupBody));
  });
  router.put('/:id', manage(), validateParams(idParams), validateBody(groupBody), async (req, res) => {
    res.json(await service.update(actorOf(req, res), id(req.params), req.body as GroupBody));
  });
  router.delete('/:id', manage(), validateParams(idParams), validateQuery(deleteGroupQuery), async (req, res) => {
    await service.remove(actorOf(req, res), id(req.params), (req.query as unknown as DeleteGroupQuery).moveTo);
    res.status(204).end();
  });
  return router;
}
