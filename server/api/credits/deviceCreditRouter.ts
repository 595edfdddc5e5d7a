import { API_PATHS } from '../../../shared/constants/apiPaths';
import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { idParams } from '../../../shared/contracts/fields';
import type { CreditsService } from '../../credits';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';

/**
 * /api/v5/devices/:id/credit: the credit panel of a device's detail (the credit whose reference
 * the device carries, or null), readable with the enrolled devices' page alone.
 */
export function deviceCreditRouter(can: Guard, service: CreditsService): Router {
  const router = Router();
  router.get(
    API_PATHS.devices.credit.pattern,
    can(requirePath(PATHS.devices)),
    route({ params: idParams }, async ({ params }, _req, res) => {
      res.json(await service.ofDevice(params.id));
    }),
  );
  return router;
}
