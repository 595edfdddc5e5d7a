import express, { Router, type RequestHandler } from 'express';
import { DEVICE_TYPE_SLUGS, LOGO_MAX_BYTES, sectionsOf } from '../../../shared/agentSettings';
import { businessAppBody, lockAppBody, settingsBody, settingsScopeQuery, type SettingsBody } from '../../../shared/contracts/agentSettings';
import { idParams } from '../../../shared/contracts/fields';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS, type RoutePath } from '../../../shared/constants/routes';
import { AGENT_SETTINGS_MESSAGES as M } from '../../../shared/areaMessages/agentSettings';
import { actorOf } from '../../audit/actorOf';
import { AppError } from '../../errors';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { AgentSettingsService } from './agentSettingsService';
import { API_PATHS } from '../../../shared/constants/apiPaths';

const OVERVIEW: Record<DeviceTypeCode, RoutePath> = { 1: PATHS.agentSettings, 2: PATHS.agentSettingsTv };
const APP_LOCK: Record<DeviceTypeCode, RoutePath> = { 1: PATHS.appLock, 2: PATHS.appLockTv };
const TYPES = [1, 2] as const satisfies readonly DeviceTypeCode[];

/**
 * The body of a logo upload: the image's bytes (any declared type: the content decides), at
 * most LOGO_MAX_BYTES; a larger one is a 413 with the page's message.
 */
function logoBody(): RequestHandler {
  const parse = express.raw({ type: () => true, limit: LOGO_MAX_BYTES });
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return next(new AppError(413, 'LOGO_TOO_LARGE', M.logo.tooLarge(LOGO_MAX_BYTES / 1024), 'logo'));
      next(err);
    });
  };
}

/** /api/v5/agent-settings: each route guarded by the path of the page that uses it. */
export function agentSettingsRouter(can: Guard, service: AgentSettingsService): Router {
  const router = Router();

  for (const deviceType of TYPES) {
    const base = `/${DEVICE_TYPE_SLUGS[deviceType]}`;

    router.get(`${base}/overview`, can(requirePath(OVERVIEW[deviceType])), async (_req, res) => {
      res.json(await service.overview(deviceType));
    });

    for (const section of sectionsOf(deviceType)) {
      const page = () => can(requirePath(section.paths[deviceType]!));
      const url = `${base}/${section.slug}`;
      router.get(
        url,
        page(),
        route({ query: settingsScopeQuery }, async ({ query }, _req, res) => {
          res.json(await service.section(deviceType, section.key, query.groupId ?? null));
        }),
      );
      router.put(
        url,
        page(),
        route({ query: settingsScopeQuery, body: settingsBody(deviceType, section.key) }, async ({ query, body }, req, res) => {
          res.json(await service.save(actorOf(req, res), deviceType, section.key, query.groupId ?? null, body as SettingsBody));
        }),
      );
    }

    const appLock = () => can(requirePath(APP_LOCK[deviceType]));
    router.get(`${base}/app-lock`, appLock(), async (_req, res) => {
      res.json(await service.lockApps(deviceType));
    });
    router.post(
      `${base}/app-lock`,
      appLock(),
      route({ body: lockAppBody }, async ({ body }, req, res) => {
        res.status(201).json(await service.createLockApp(actorOf(req, res), deviceType, body));
      }),
    );
    router.put(
      `${base}/app-lock/:id`,
      appLock(),
      route({ params: idParams, body: lockAppBody }, async ({ params, body }, req, res) => {
        res.json(await service.updateLockApp(actorOf(req, res), deviceType, params.id, body));
      }),
    );
    router.delete(
      `${base}/app-lock/:id`,
      appLock(),
      route({ params: idParams }, async ({ params }, req, res) => {
        await service.deleteLockApp(actorOf(req, res), deviceType, params.id);
        res.status(204).end();
      }),
    );
    router.post(
      `${base}/app-lock/:id/current`,
      appLock(),
      route({ params: idParams }, async ({ params }, req, res) => {
        res.json(await service.setCurrentLockApp(actorOf(req, res), deviceType, params.id));
      }),
    );
  }

  router.post(API_PATHS.agentSettings.logo.pattern, can(requirePath(PATHS.screenDesign)), logoBody(), async (req, res) => {
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res.status(201).json(await service.uploadLogo(actorOf(req, res), bytes));
  });

  const businessApps = () => can(requirePath(PATHS.businessApp));
  router.get(API_PATHS.agentSettings.businessApps.pattern, businessApps(), async (_req, res) => {
    res.json(await service.businessApps());
  });
  router.post(
    API_PATHS.agentSettings.businessApps.pattern,
    businessApps(),
    route({ body: businessAppBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.createBusinessApp(actorOf(req, res), body));
    }),
  );
  router.put(
    `${API_PATHS.agentSettings.businessApps.pattern}/:id`,
    businessApps(),
    route({ params: idParams, body: businessAppBody }, async ({ params, body }, req, res) => {
      res.json(await service.updateBusinessApp(actorOf(req, res), params.id, body));
    }),
  );
  router.delete(
    `${API_PATHS.agentSettings.businessApps.pattern}/:id`,
    businessApps(),
    route({ params: idParams }, async ({ params }, req, res) => {
      await service.deleteBusinessApp(actorOf(req, res), params.id);
      res.status(204).end();
    }),
  );
  return router;
}
