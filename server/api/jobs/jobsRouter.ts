import { Router } from 'express';
import * as z from 'zod';
import { idParams, pagingParams, type IdParams } from '../../../shared/contracts/fields';
import { INVENTORY_MESSAGES as M } from '../../../shared/messages';
import { requirePath, type Guard } from '../../middleware/authorize';
import { validateParams, validateQuery } from '../../middleware/validate';
import { DEVICES_PATH } from '../devices/deviceActionsRouter';
import type { JobsService } from './jobsService';

/** GET /v5/jobs/:id/results: paging of the per-device results. */
const resultsQuery = z.object({ ...pagingParams(50) });

/** /api/v5/jobs: progress and results of bulk actions. */
export function jobsRouter(can: Guard, service: JobsService): Router {
  const router = Router();
  const guard = can(requirePath(DEVICES_PATH));
  const id = (params: unknown) => (params as IdParams).id;

  router.get('/:id', guard, validateParams(idParams), async (req, res) => {
    res.json(await service.get(id(req.params)));
  });
  router.get('/:id/results', guard, validateParams(idParams), validateQuery(resultsQuery), async (req, res) => {
    res.json(await service.results(id(req.params), req.query as unknown as z.infer<typeof resultsQuery>));
  });
  router.get('/:id/results.csv', guard, validateParams(idParams), async (req, res) => {
    const jobId = id(req.params);
    const csv = await service.resultsCsv(jobId);
    res
      .status(200)
      .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${M.bulk.resultsFileName(jobId)}"` })
      .send(csv);
  });
  return router;
}
