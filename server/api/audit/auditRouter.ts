import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { auditExportQuery, auditQuery } from '../../../shared/contracts/audit';
import { actorOf } from '../../audit/actorOf';
import { streamDownload } from '../../audit/csvResponse';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { AuditService } from './auditService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** /api/v5/audit: the audit log, read-only. */
export function auditRouter(can: Guard, service: AuditService): Router {
  const router = Router();
  const guard = can(requirePath(PATHS.audit));

  router.get(
    '/',
    guard,
    route({ query: auditQuery }, async ({ query }, _req, res) => {
      res.json(await service.list(query));
    }),
  );

  router.get(
    API_PATHS.audit.export.pattern,
    guard,
    route({ query: auditExportQuery }, async ({ query }, req, res) => {
      const file = await service.export(actorOf(req, res), query, query.tz);
      res.status(200).set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
      });
      // Streamed with back-pressure; a failure once the first bytes are out resets the connection.
      await streamDownload(req, res, file.chunks, 'audit export');
    }),
  );
  return router;
}
