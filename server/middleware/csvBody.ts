import express, { type RequestHandler } from 'express';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import { CSV_CONTENT_TYPES, IMPORT_MAX_MB } from '../audit/csvRead';
import { AppError } from '../errors';
import { IMPORT_MAX_BYTES } from '../../shared/constants/limits';

const notCsv = () => new AppError(415, 'CSV_NOT_CSV', M.csv.notCsv);

/** Charsets a client may declare for an import (the bytes decide between UTF-8 and Windows-1252). */
const CSV_CHARSETS = ['utf-8', 'utf8', 'windows-1252', 'cp1252', 'iso-8859-1', 'latin1', 'us-ascii'];

/**
 * The body of every CSV import (devices, credit schedules, payments): the file's raw bytes, up
 * to IMPORT_MAX_BYTES (decoded by server/audit/csvRead.ts: UTF-8 or Windows-1252). Another
 * content type or declared charset is a 415, a larger file a 413, both with the Spanish message
 * of the import. The handler after it reads `csvFile(req)`.
 */
export function csvBody(): RequestHandler {
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

/** The bytes csvBody() read. */
export const csvFile = (req: express.Request): Uint8Array => (Buffer.isBuffer(req.body) ? req.body : new Uint8Array());
