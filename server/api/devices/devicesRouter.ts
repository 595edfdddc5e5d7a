import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { idParams } from '../../../shared/contracts/fields';
import { importQuery } from '../../../shared/contracts/deviceImport';
import { deviceBody, deviceExportQuery, deviceListQuery } from '../../../shared/contracts/devices';
import { actorOf } from '../../audit/actorOf';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import type { DevicesService } from '../../devices';
import { csvBody, csvFile } from '../../middleware/csvBody';
import { streamDownload } from '../../audit/csvResponse';
import { API_PATHS } from '../../../shared/constants/apiPaths';

const csvHeaders = (fileName: string) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': `attachment; filename="${fileName}"`,
});

/** /api/v5/devices: the device registry (list, export, registration, edit). */
export function devicesRouter(can: Guard, service: DevicesService): Router {
  const router = Router();
  const registry = () => can(requirePath(PATHS.devices, PATHS.preEnrolled));
  const register = () => can(requirePath(PATHS.addDevice));

  router.get(
    '/',
    registry(),
    route({ query: deviceListQuery }, async ({ query }, _req, res) => {
      res.json(await service.list(query));
    }),
  );

  // Fixed paths before '/:id'.
  router.get(
    API_PATHS.devices.export.pattern,
    registry(),
    route({ query: deviceExportQuery }, async ({ query }, req, res) => {
      const file = await service.export(actorOf(req, res), query, query.tz);
      res.status(200).set(csvHeaders(file.fileName));
      await streamDownload(req, res, file.chunks, 'device export');
    }),
  );

  router.get(API_PATHS.devices.importTemplate.pattern, register(), (_req, res) => {
    const file = service.template();
    res.status(200).set(csvHeaders(file.fileName)).send(file.content);
  });

  router.post(
    '/',
    register(),
    route({ body: deviceBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.create(actorOf(req, res), body));
    }),
  );

  router.post(
    API_PATHS.devices.import.pattern,
    register(),
    csvBody(),
    route({ query: importQuery }, async ({ query }, req, res) => {
      res.json(await service.import(actorOf(req, res), csvFile(req), query.mode));
    }),
  );

  router.get(
    API_PATHS.devices.one.pattern,
    registry(),
    route({ params: idParams }, async ({ params }, _req, res) => {
      res.json(await service.get(params.id));
    }),
  );

  // Editing the registry is the pre-enrolled page's grant; an enrolled device's customer, credit
  // reference and group also need the enrolled-devices page (checked by the service).
  router.put(
    API_PATHS.devices.one.pattern,
    can(requirePath(PATHS.preEnrolled)),
    route({ params: idParams, body: deviceBody }, async ({ params, body }, req, res) => {
      res.json(await service.update(actorOf(req, res), params.id, body, { enrolledAssignment: res.locals.grants!.paths.has(PATHS.devices) }));
    }),
  );
  return router;
}
