import express, { Router, type RequestHandler } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { idParams } from '../../../shared/contracts/fields';
import { IMPORT_MAX_BYTES, importQuery } from '../../../shared/contracts/deviceImport';
import { deviceBody, deviceExportQuery, deviceListQuery } from '../../../shared/contracts/devices';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages';
import { actorOf } from '../../audit/actorOf';
import { AppError } from '../../errors';
import { requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';
import { CSV_CONTENT_TYPES, IMPORT_MAX_MB, type DevicesService } from '../../devices';
import { streamDownload } from '../../audit/csvResponse';
import { API_PATHS } from '../../../shared/constants/apiPaths';

const notCsv = () => new AppError(415, 'CSV_NOT_CSV', M.csv.notCsv);

/** Charsets a client may declare for an import (the bytes decide between UTF-8 and Windows-1252). */
const CSV_CHARSETS = ['utf-8', 'utf8', 'windows-1252', 'cp1252', 'iso-8859-1', 'latin1', 'us-ascii'];

/**
 * The body of an import: the file's raw bytes, up to IMPORT_MAX_BYTES (decoded by the service:
 * UTF-8 or Windows-1252). Another content type or declared charset is a 415, a larger file a
 * 413, both with the Spanish message of the import.
 */
function csvBody(): RequestHandler {
  const parse = express.raw({ type: CSV_CONTENT_TYPES, limit: IMPORT_MAX_BYTES });
  return (req, res, next) => {
    if (!req.is(CSV_CONTENT_TYPES)) throw notCsv();
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && !CSV_CHARSETS.includes(charset)) throw notCsv();
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return next(new AppError(413, 'CSV_TOO_LARGE', M.csv.tooLarge(IMPORT_MAX_MB)));
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') return next(notCsv());
      next(err);
    });
  };
}

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
      const file: Uint8Array = Buffer.isBuffer(req.body) ? req.body : new Uint8Array();
      res.json(await service.import(actorOf(req, res), file, query.mode));
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
