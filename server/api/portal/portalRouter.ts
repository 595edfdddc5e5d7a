import { Router } from 'express';
import type { PortalRepository } from './portalRepository';

/** `/api/portal`: the versions the header and the sidebar footer show (specification §7). */
export function portalRouter(repo: PortalRepository, portalVersion: string): Router {
  const router = Router();
  router.get('/getVersion', (_req, res) => {
    res.json({ version_portal: portalVersion });
  });
  router.get('/getVersionApp', async (_req, res) => {
    const current = await repo.currentAppVersion(1);
    res.json({ version_name: current?.versionName ?? null, version_app: current?.versionApp ?? null });
  });
  return router;
}
