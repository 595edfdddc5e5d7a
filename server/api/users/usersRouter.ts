import { Router } from 'express';
import { getUserByEmailBody } from '../../../shared/contracts/users';
import { actorOf } from '../../audit/actorOf';
import { signedIn, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { UsersService } from './usersService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** Authenticated routes of /api/v5/users (the caller's own record and session; no extra path grant). */
export function usersRouter(can: Guard, service: UsersService): Router {
  const router = Router();
  router.post(
    API_PATHS.users.getUserByEmail.pattern,
    can(signedIn()),
    route({ body: getUserByEmailBody }, async ({ body }, _req, res) => {
      res.json(await service.getByEmail(res.locals.auth!, res.locals.grants!.adminId, body.correo));
    }),
  );
  // The portal's sign-out: ends this sign-in for the API before the browser forgets it.
  router.post(API_PATHS.users.signOut.pattern, can(signedIn()), async (req, res) => {
    await service.signOut(actorOf(req, res), res.locals.auth!);
    res.status(204).end();
  });
  return router;
}
