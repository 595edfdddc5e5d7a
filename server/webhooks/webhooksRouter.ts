import { Router } from 'express';
import { PATHS } from '../../shared/constants/routes';
import { idParams } from '../../shared/contracts/fields';
import { deliveriesQuery, deliveryParams, webhookBody } from '../../shared/contracts/webhooks';
import { actorOf } from '../audit/actorOf';
import { requirePath, type Guard } from '../middleware/authorize';
import { route } from '../middleware/validate';
import type { WebhooksService } from './webhooksService';
import { API_PATHS } from '../../shared/constants/apiPaths';

/** /api/v5/webhooks: the subscriptions and their delivery log, for the webhooks page only. */
export function webhooksRouter(can: Guard, service: WebhooksService): Router {
  const router = Router();
  const manage = () => can(requirePath(PATHS.webhooks));

  router.get('/', manage(), async (_req, res) => {
    res.json(await service.list());
  });
  router.post(
    '/',
    manage(),
    route({ body: webhookBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.create(actorOf(req, res), body));
    }),
  );
  router.put(
    '/:id',
    manage(),
    route({ params: idParams, body: webhookBody }, async ({ params, body }, req, res) => {
      res.json(await service.update(actorOf(req, res), params.id, body));
    }),
  );
  router.delete(
    '/:id',
    manage(),
    route({ params: idParams }, async ({ params }, req, res) => {
      await service.remove(actorOf(req, res), params.id);
      res.status(204).end();
    }),
  );
  router.get(
    API_PATHS.webhooks.deliveries.pattern,
    manage(),
    route({ params: idParams, query: deliveriesQuery }, async ({ params, query }, _req, res) => {
      res.json(await service.deliveries(params.id, query));
    }),
  );
  router.post(
    API_PATHS.webhooks.resend.pattern,
    manage(),
    route({ params: deliveryParams }, async ({ params }, req, res) => {
      res.json(await service.resend(actorOf(req, res), params.id, params.deliveryId));
    }),
  );
  return router;
}
