import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { dashboardQuery } from '../../../shared/contracts/dashboard';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { DashboardService } from './dashboardService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** /api/v5/dashboard: the numbers of each dashboard page, guarded by that page. */
export function dashboardRouter(can: Guard, service: DashboardService): Router {
  const router = Router();

  router.get(
    API_PATHS.dashboard.general.pattern,
    can(requirePath(PATHS.dashboardGeneral)),
    // The credit figures are the portfolio's: added only when the caller's role holds that page.
    route({ query: dashboardQuery }, async ({ query }, _req, res) => {
      res.json(await service.general(query, res.locals.grants!.paths.has(PATHS.creditPortfolio)));
    }),
  );

  router.get(
    API_PATHS.dashboard.android.pattern,
    can(requirePath(PATHS.dashboardAndroid)),
    route({}, async (_input, _req, res) => {
      res.json(await service.android());
    }),
  );
  return router;
}
