import { Router, type Request } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { enrollmentTokenBody, enrollmentTokenQuery, reenrollmentBody } from '../../../shared/contracts/enrollment';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { idParams } from '../../../shared/contracts/fields';
import { actorOf } from '../../audit/actorOf';
import { requireAction, requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { EnrollmentTokensService } from './enrollmentTokensService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** The portal's origin as the browser reached it (the QR code's server URL when AGENT_SERVER_URL is not set). */
const originOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/**
 * /api/v5/enrollment-tokens. The groups page grants group and no-group tokens, the pre-enrolled
 * page one device's; the guard admits either page and the service checks the scope's. An enrolled
 * device's re-enrollment authorisation takes the enrolled devices' page and the LOCK action.
 */
export function enrollmentTokensRouter(can: Guard, service: EnrollmentTokensService): Router {
  const router = Router();
  const guard = can(requirePath(PATHS.groups, PATHS.preEnrolled));
  router.get(
    '/',
    guard,
    route({ query: enrollmentTokenQuery }, async ({ query }, _req, res) => {
      res.json({ data: await service.list(query, res.locals.grants!.paths) });
    }),
  );
  router.post(
    '/',
    guard,
    route({ body: enrollmentTokenBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.create(actorOf(req, res), body, res.locals.grants!.paths, originOf(req)));
    }),
  );
  router.post(
    API_PATHS.enrollmentTokens.reenrollments.pattern,
    can(requireAction(PATHS.devices, DEVICE_ACTION.LOCK)),
    route({ body: reenrollmentBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.authorizeReenrollment(actorOf(req, res), body, originOf(req)));
    }),
  );
  router.delete(
    '/:id',
    guard,
    route({ params: idParams }, async ({ params }, req, res) => {
      await service.revoke(actorOf(req, res), params.id, res.locals.grants!.paths);
      res.status(204).end();
    }),
  );
  return router;
}
