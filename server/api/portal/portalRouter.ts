import { Router } from 'express';
import type { AppVersion, PortalVersion } from '../../../shared/contracts/portal';
import { signedIn, type Guard } from '../../middleware/authorize';
import type { PortalRepository } from './portalRepository';
import { API_PATHS } from '../../../shared/constants/apiPaths';

/** `/api/portal`: the versions the header and the sidebar footer show (reference §7). */
export function portalRouter(can: Guard, repo: PortalRepository, portalVersion: string): Router {
  const router = Router();
  router.get(API_PATHS.portal.getVersion.pattern, can(signedIn()), (_req, res) => {
    const body: PortalVersion = { version_portal: portalVersion };
    res.json(body);
  });
  router.get(API_PATHS.portal.getVersionApp.pattern, can(signedIn()), async (_req, res) => {
    const current = await repo.currentAppVersion(1);
    const body: AppVersion = { version_name: current?.versionName ?? null, version_app: current?.versionApp ?? null };
    res.json(body);
  });
  return router;
}
