import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { idParams } from '../../../shared/contracts/fields';
import { actionPayload, commandParams, historyQuery } from '../../../shared/contracts/deviceActions';
import { enrollmentAttemptsQuery } from '../../../shared/contracts/enrollment';
import { bulkBody } from '../../../shared/contracts/jobs';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { actorOf } from '../../audit/actorOf';
import { assertActionGranted, requireAction, requireBodyAction, requireCommandAction, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { JobsService } from '../jobs/jobsService';
import type { DeviceActionsService } from '../../devices';
import { idempotencyOf, sendAnswer } from '../../middleware/idempotency';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/**
 * /api/v5/devices/:id/actions, DELETE /api/v5/devices/:id, the history, /api/v5/devices/bulk-actions
 * and the lock type the lock dialog proposes (/api/v5/devices/lock-defaults).
 */
export function deviceActionsRouter(can: Guard, service: DeviceActionsService, jobs: JobsService): Router {
  const router = Router();

  // The bulk routes first: 'bulk-actions' is not a device id.
  router.post(
    API_PATHS.devices.bulkPreview.pattern,
    can(requireBodyAction(PATHS.devices)),
    route({ body: bulkBody }, async ({ body }, _req, res) => {
      assertActionGranted(res, body.payload.action);
      res.json(await service.preview(body));
    }),
  );
  router.post(
    API_PATHS.devices.bulkActions.pattern,
    can(requireBodyAction(PATHS.devices)),
    route({ body: bulkBody }, async ({ body }, req, res) => {
      assertActionGranted(res, body.payload.action);
      const idem = idempotencyOf(req, res, body);
      sendAnswer(res, await jobs.create(actorOf(req, res), body, idem));
    }),
  );

  // Before the '/:id' routes: 'lock-defaults' is not a device id.
  router.get(API_PATHS.devices.lockDefaults.pattern, can(requireAction(PATHS.devices, DEVICE_ACTION.LOCK)), async (_req, res) => {
    res.json(await service.lockDefaults());
  });

  router.post(
    API_PATHS.devices.actions.pattern,
    can(requireBodyAction(PATHS.devices)),
    route({ params: idParams, body: actionPayload }, async ({ params, body }, req, res) => {
      assertActionGranted(res, body.action);
      const idem = idempotencyOf(req, res, body);
      sendAnswer(res, await service.act(actorOf(req, res), params.id, body, idem));
    }),
  );
  router.post(
    API_PATHS.devices.cancelCommand.pattern,
    // The action to hold is the cancelled command's: the service checks it against the grants.
    can(requireCommandAction(PATHS.devices)),
    route({ params: commandParams }, async ({ params }, req, res) => {
      res.json(await service.cancel(actorOf(req, res), params.id, params.commandId, res.locals.grants!.actions));
    }),
  );
  router.post(
    API_PATHS.devices.deliverRelease.pattern,
    can(requireAction(PATHS.devices, DEVICE_ACTION.RELEASE)),
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.deliverReleaseNow(actorOf(req, res), params.id));
    }),
  );
  // Administrative hold: SUSPENDED until resumed (granted with the LOCK action).
  router.post(
    API_PATHS.devices.hold.pattern,
    can(requireAction(PATHS.devices, DEVICE_ACTION.LOCK)),
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.setHold(actorOf(req, res), params.id, true));
    }),
  );
  router.delete(
    API_PATHS.devices.hold.pattern,
    can(requireAction(PATHS.devices, DEVICE_ACTION.LOCK)),
    route({ params: idParams }, async ({ params }, req, res) => {
      res.json(await service.setHold(actorOf(req, res), params.id, false));
    }),
  );
  router.delete(
    API_PATHS.devices.one.pattern,
    can(requireAction([PATHS.devices, PATHS.preEnrolled], DEVICE_ACTION.DELETE_DEVICE)),
    route({ params: idParams }, async ({ params }, req, res) => {
      await service.remove(actorOf(req, res), params.id);
      res.status(204).end();
    }),
  );
  router.get(
    API_PATHS.devices.history.pattern,
    can(requireAction(PATHS.devices, DEVICE_ACTION.HISTORY)),
    route({ params: idParams, query: historyQuery }, async ({ params, query }, _req, res) => {
      res.json(await service.history(params.id, query));
    }),
  );
  // Enrollments and refused attempts: part of the device's history, granted with it.
  router.get(
    API_PATHS.devices.enrollments.pattern,
    can(requireAction(PATHS.devices, DEVICE_ACTION.HISTORY)),
    route({ params: idParams, query: enrollmentAttemptsQuery }, async ({ params, query }, _req, res) => {
      res.json(await service.enrollments(params.id, query));
    }),
  );
  return router;
}
