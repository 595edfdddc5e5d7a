import { Router } from 'express';
import { idParams, type IdParams } from '../../../shared/contracts/fields';
import {
  actionPayload,
  bulkBody,
  commandParams,
  historyQuery,
  type ActionPayload,
  type BulkBody,
  type CommandParams,
  type HistoryQuery,
} from '../../../shared/contracts/devices';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { actorOf } from '../../audit/actorOf';
import { assertActionGranted, requireAction, requireBodyAction, type Guard } from '../../middleware/authorize';
import { validateBody, validateParams, validateQuery } from '../../middleware/validate';
import type { JobsService } from '../jobs/jobsService';
import type { DeviceActionsService } from './deviceActionsService';
import { idempotencyOf, sendAnswer } from './idempotency';

/** The portal pages the device routes serve (specification §2). */
export const DEVICES_PATH = '/inventory-management/devices';
export const PRE_ENROLLED_PATH = '/inventory-management/devices-pre-enrolled';

/** /api/v5/devices/:id/actions, DELETE /api/v5/devices/:id, the history, and /api/v5/devices/bulk-actions. */
export function deviceActionsRouter(can: Guard, service: DeviceActionsService, jobs: JobsService): Router {
  const router = Router();
  const id = (params: unknown) => (params as IdParams).id;

  // The bulk routes first: 'bulk-actions' is not a device id.
  router.post('/bulk-actions/preview', can(requireBodyAction(DEVICES_PATH)), validateBody(bulkBody), async (req, res) => {
    const body = req.body as BulkBody;
    assertActionGranted(res, body.payload.action);
    res.json(await service.preview(body));
  });
  router.post('/bulk-actions', can(requireBodyAction(DEVICES_PATH)), validateBody(bulkBody), async (req, res) => {
    const body = req.body as BulkBody;
    assertActionGranted(res, body.payload.action);
    const idem = idempotencyOf(req, res);
    sendAnswer(res, await jobs.create(actorOf(req, res), body, idem));
  });

  router.post('/:id/actions', can(requireBodyAction(DEVICES_PATH)), validateParams(idParams), validateBody(actionPayload), async (req, res) => {
    const body = req.body as ActionPayload;
    assertActionGranted(res, body.action);
    const idem = idempotencyOf(req, res);
    sendAnswer(res, await service.act(actorOf(req, res), id(req.params), body, idem));
  });
  router.post(
    '/:id/actions/:commandId/cancel',
    can(requireAction(DEVICES_PATH, DEVICE_ACTION.RELEASE)),
    validateParams(commandParams),
    async (req, res) => {
      const p = req.params as unknown as CommandParams;
      res.json(await service.cancel(actorOf(req, res), p.id, p.commandId));
    },
  );
  router.delete('/:id', can(requireAction([DEVICES_PATH, PRE_ENROLLED_PATH], DEVICE_ACTION.DELETE_DEVICE)), validateParams(idParams), async (req, res) => {
    await service.remove(actorOf(req, res), id(req.params));
    res.status(204).end();
  });
  router.get(
    '/:id/history',
    can(requireAction(DEVICES_PATH, DEVICE_ACTION.HISTORY)),
    validateParams(idParams),
    validateQuery(historyQuery),
    async (req, res) => {
      res.json(await service.history(id(req.params), req.query as unknown as HistoryQuery));
    },
  );
  return router;
}
