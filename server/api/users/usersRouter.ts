import { Router } from 'express';
import { getUserByEmailBody } from '../../../shared/contracts/users';
import { signedIn, type Guard } from '../../middleware/authorize';
import { validateBody } from '../../middleware/validate';
import type { UsersService } from './usersService';

/** Authenticated routes of /api/v5/users (the caller's own record; no extra path grant). */
export function usersRouter(can: Guard, service: UsersService): Router {
  const router = Router();
  router.post('/getUserByEmail', can(signedIn()), validateBody(getUserByEmailBody), async (req, res) => {
    res.json(await service.getByEmail(res.locals.auth!, (req.body as { correo: string }).correo));
  });
  return router;
}
