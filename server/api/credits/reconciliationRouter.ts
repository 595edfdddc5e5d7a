import { Router } from 'express';
import { API_PATHS } from '../../../shared/constants/apiPaths';
import { PATHS } from '../../../shared/constants/routes';
import { reconciliationExportQuery, reconciliationQuery } from '../../../shared/contracts/credits';
import { actorOf } from '../../audit/actorOf';
import { streamDownload } from '../../audit/csvResponse';
import type { ReconciliationService } from '../../credits';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';

/**
 * /api/v5/credits/reconciliation: Conciliación, the devices whose state contradicts their credit
 * (a page of one kind or all, with every kind's count) and its CSV, with the page
 * /credits/reconciliation. Mounted before creditsRouter: its fixed paths are not references. The
 * fixes are the device actions' own route (POST /v5/devices/:id/actions), guarded as always.
 */
export function reconciliationRouter(can: Guard, service: ReconciliationService): Router {
  const router = Router();
  const page = () => can(requirePath(PATHS.reconciliation));

  router.get(
    API_PATHS.credits.reconciliation.pattern,
    page(),
    route({ query: reconciliationQuery }, async ({ query }, _req, res) => {
      res.json(await service.list(query));
    }),
  );

  router.get(
    API_PATHS.credits.reconciliationExport.pattern,
    page(),
    route({ query: reconciliationExportQuery }, async ({ query }, req, res) => {
      const file = await service.export(actorOf(req, res), query.kind, query.tz);
      res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.fileName}"` });
      await streamDownload(req, res, file.chunks, 'reconciliation export');
    }),
  );
  return router;
}
