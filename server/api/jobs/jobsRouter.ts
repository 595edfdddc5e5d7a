import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import * as z from 'zod';
import { csvZoneQuery, idParams, pagingParams } from '../../../shared/contracts/fields';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { JobsService } from './jobsService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** GET /v5/jobs/:id/results: paging of the per-device results. */
const resultsQuery = z.object({ ...pagingParams(50) });

/** /api/v5/jobs: progress and results of bulk actions. */
export function jobsRouter(can: Guard, service: JobsService): Router {
  const router = Router();
  const guard = can(requirePath(PATHS.devices));

  router.get(
    API_PATHS.jobs.one.pattern,
    guard,
    route({ params: idParams }, async ({ params }, _req, res) => {
      res.json(await service.get(params.id));
    }),
  );
  router.get(
    API_PATHS.jobs.results.pattern,
    guard,
    route({ params: idParams, query: resultsQuery }, async ({ params, query }, _req, res) => {
      res.json(await service.results(params.id, query));
    }),
  );
  router.get(
    API_PATHS.jobs.resultsCsv.pattern,
    guard,
    // `tz` is validated like every download's; the results have no date-time column to write in it.
    route({ params: idParams, query: csvZoneQuery }, async ({ params }, _req, res) => {
      const jobId = params.id;
      const csv = await service.resultsCsv(jobId);
      res
        .status(200)
        .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${M.bulk.resultsFileName(jobId)}"` })
        .send(csv);
    }),
  );
  return router;
}
