import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { deleteGroupQuery, groupBody } from '../../../shared/contracts/groups';
import { idParams } from '../../../shared/contracts/fields';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { GroupsService } from './groupsService';

/** Pages that show the groups (filters, forms, the settings pages' scope): any of them may read the list. */
export const GROUP_READER_PAGES = [
  PATHS.groups,
  PATHS.devices,
  PATHS.preEnrolled,
  PATHS.addDevice,
  PATHS.agentSettings,
  PATHS.restrictionsEnrollment,
  PATHS.restrictionsLock,
  PATHS.restrictionsRelease,
  PATHS.screenDesign,
  PATHS.businessApp,
  PATHS.agentSettingsTv,
  PATHS.restrictionsEnrollmentTv,
  PATHS.restrictionsLockTv,
  PATHS.restrictionsReleaseTv,
  // The portfolio's filter by the group of a credit's devices.
  PATHS.creditPortfolio,
] as const;

/** /api/v5/groups. */
export function groupsRouter(can: Guard, service: GroupsService): Router {
  const router = Router();
  const manage = () => can(requirePath(PATHS.groups));

  router.get('/', can(requirePath(...GROUP_READER_PAGES)), async (_req, res) => {
    res.json(await service.list());
  });
  router.post(
    '/',
    manage(),
    route({ body: groupBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.create(actorOf(req, res), body));
    }),
  );
  router.put(
    '/:id',
    manage(),
    route({ params: idParams, body: groupBody }, async ({ params, body }, req, res) => {
      res.json(await service.update(actorOf(req, res), params.id, body));
    }),
  );
  router.delete(
    '/:id',
    manage(),
    route({ params: idParams, query: deleteGroupQuery }, async ({ params, query }, req, res) => {
      await service.remove(actorOf(req, res), params.id, query.moveTo);
      res.status(204).end();
    }),
  );
  return router;
}
