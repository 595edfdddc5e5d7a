import { randomBytes } from 'node:crypto';
import type { ImportQuery, ImportResult } from '../../shared/contracts/deviceImport';
import {
  deviceFilterFields,
  type Device,
  type DeviceBody,
  type DeviceFilter,
  type DeviceList,
  type DeviceListQuery,
} from '../../shared/contracts/devices';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { offlineCutoff } from '../../shared/deviceStatus';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import { AUTHZ_MESSAGES } from '../../shared/areaMessages/authz';
import { record, type AuditActor } from '../audit/auditRepository';
import type { Db, Queryable } from '../db/Db';
import { isUniqueViolation, pgCode } from '../db/pgErrors';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import { csvZone } from '../audit/csv';
import { exportHeader, exportLines, importTemplate, invalidRows, markTaken, readImportCsv, validateImportRows } from './deviceCsv';
import { keyPrefixOf, type InventorySettings } from './deviceQueries';
import { DeviceRepository } from './deviceRepository';

/**
 * When the counters cannot answer (a search, a clock-dependent status), the list counts exactly
 * up to this many matching devices, and above it answers the planner's estimate.
 */
export const EXACT_COUNT_CAP = 1_000;
/** A search of words estimated to match at most this many devices has its matches gathered and sorted for the page. */
export const SEARCH_GATHER_MAX = 10_000;
/** Devices per query of the export (keyset on the id). */
export const EXPORT_BATCH = 5_000;
/** Valid rows an import preview shows. */
export const IMPORT_SAMPLE = 100;

/** What the audit log keeps of a device (its registry fields; never the secret). */
const snapshot = (d: Device) => ({
  id: d.id,
  imei: d.imei,
  imei2: d.imei2,
  serial: d.serial,
  deviceType: d.deviceType,
  brand: d.brand,
  model: d.model,
  groupId: d.groupId,
  customerName: d.customerName,
  creditReference: d.creditReference,
});

const notFound = () => new AppError(404, 'DEVICE_NOT_FOUND', M.devices.notFound);

/** What an enrolled device is: never changed through the portal once the agent enrolled it. */
const IDENTITY_FIELDS = ['imei2', 'serial', 'deviceType', 'brand', 'model'] as const;
/** The credit an enrolled device is under: changed only with the enrolled-devices page too. */
const ASSIGNMENT_FIELDS = ['customerName', 'creditReference', 'groupId'] as const;

/** The edit rules of an enrolled device (see DevicesService.update). */
function assertEnrolledEdit(before: Device, body: DeviceBody, enrolledAssignment: boolean): void {
  if (body.imei !== before.imei) throw new AppError(409, 'IMEI_NOT_EDITABLE', M.devices.imeiNotEditable, 'imei');
  const identity = IDENTITY_FIELDS.find((f) => body[f] !== before[f]);
  if (identity) throw new AppError(409, 'IDENTITY_NOT_EDITABLE', AUTHZ_MESSAGES.deviceIdentity(identity), identity);
  if (!enrolledAssignment && ASSIGNMENT_FIELDS.some((f) => body[f] !== before[f]))
    throw new AppError(403, 'ASSIGNMENT_NOT_GRANTED', AUTHZ_MESSAGES.deviceAssignment);
}
const imeiTaken = (imei: string) => new AppError(409, 'IMEI_TAKEN', M.devices.imeiTaken(imei), 'imei');
const groupNotFound = () => new AppError(400, 'GROUP_NOT_FOUND', M.devices.groupNotFound, 'groupId');

/** A constraint the checks could not see coming (a concurrent request) as the answer the check gives. */
function constraintError(err: unknown, imei: string | undefined): unknown {
  if (isUniqueViolation(err)) return imei === undefined ? new AppError(409, 'IMEI_TAKEN', M.csv.duplicateInDb) : imeiTaken(imei);
  if (pgCode(err) === '23503') return groupNotFound();
  return err;
}

/** The filter part of a list query: every field of the shared filter (deviceFilterFields), nothing else. */
export const filterOf = (q: DeviceFilter): DeviceFilter =>
  Object.fromEntries(Object.keys(deviceFilterFields).map((k) => [k, q[k as keyof DeviceFilter]])) as DeviceFilter;

export interface CsvDownload {
  fileName: string;
  /** The file in pieces (BOM and header first), read from the database batch by batch. */
  chunks: AsyncIterable<string>;
}

/** Devices: list, read, register (one or from CSV), edit, export. */
export class DevicesService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
  ) {}

  private cutoff(): Date {
    return offlineCutoff(this.settings.now(), this.settings.offlineAfterHours);
  }

  async list(q: DeviceListQuery): Promise<DeviceList> {
    const repo = new DeviceRepository(this.db);
    const filter = filterOf(q);
    const cutoff = this.cutoff();
    // A search of words: the planner's estimate of its matches (right, from the words' statistics:
    // migration 0014) decides how the page is read. Few matches are gathered through the word
    // index and sorted; the planner alone would read the sort's index until the page is full, far
    // too many rows when the matches are a few thousand.
    // A search of digits likewise (IMEI prefixes: the planner reads the sort's index past
    // thousands of rows when the prefix's devices are old ones; its ranges gather them at once).
    const offset = (q.page - 1) * q.perPage;
    // Four digits match whole models (thousands of devices): their page is read in the order of
    // the registration from device_key_prefixes and stops when full, their number counted in its
    // index (migration 0020); shown as exact up to EXACT_COUNT_CAP, as the gathered matches are.
    const prefix = q.sort === 'createdAt' ? keyPrefixOf(filter) : undefined;
    if (prefix !== undefined) {
      const page = await repo.listByKeyPrefix(filter.stage, prefix, cutoff, q.order, q.perPage, offset);
      return { data: page.data, total: page.matches, totalIsEstimate: page.matches > EXACT_COUNT_CAP };
    }
    const estimate = filter.search !== undefined ? await repo.estimate(filter, cutoff) : undefined;
    if (estimate !== undefined && estimate <= SEARCH_GATHER_MAX) {
      // The gathered matches are all of them: their number is the total (one statement), shown as
      // exact up to EXACT_COUNT_CAP as any bounded count is, and flagged above it as before.
      const page = await repo.listGathered(filter, cutoff, q.sort, q.order, q.perPage, offset);
      if (page.matches !== undefined) return { data: page.data, total: page.matches, totalIsEstimate: page.matches > EXACT_COUNT_CAP };
      const total = await this.total(repo, filter, cutoff, estimate);
      return { data: page.data, total: total.n, totalIsEstimate: total.estimate };
    }
    const [data, total] = await Promise.all([
      repo.list(filter, cutoff, q.sort, q.order, q.perPage, offset),
      this.total(repo, filter, cutoff, estimate),
    ]);
    return { data, total: total.n, totalIsEstimate: total.estimate };
  }

  /**
   * The maintained counters when they can answer the filter (exact, no scan); otherwise exact up
   * to EXACT_COUNT_CAP (a bounded count) and above it the planner's estimate (flagged as such).
   */
  private async total(repo: DeviceRepository, filter: DeviceFilter, cutoff: Date, estimate?: number): Promise<{ n: number; estimate: boolean }> {
    const counted = await repo.countFromCounters(filter);
    if (counted !== undefined) return { n: counted, estimate: false };
    // A search of words estimated far above the cap (its page is read in the order of the sort):
    // the estimate, without counting (the words' statistics are right; migration 0014).
    if (estimate !== undefined && estimate > SEARCH_GATHER_MAX) return { n: Math.round(estimate), estimate: true };
    const n = await repo.countUpTo(filter, cutoff, EXACT_COUNT_CAP + 1);
    if (n <= EXACT_COUNT_CAP) return { n, estimate: false };
    return { n: Math.max(EXACT_COUNT_CAP + 1, Math.round(estimate ?? (await repo.estimate(filter, cutoff)))), estimate: true };
  }

  async get(id: number): Promise<Device> {
    const device = await new DeviceRepository(this.db).find(id, this.cutoff());
    if (!device) throw notFound();
    return device;
  }

  /** Registers one device (PRE_ENROLLED, with a new secret). */
  async create(actor: AuditActor, body: DeviceBody): Promise<Device> {
    try {
      return await transaction(this.db, async (tx) => {
        const repo = new DeviceRepository(tx);
        if (body.groupId !== null && !(await repo.groupExists(body.groupId))) throw groupNotFound();
        if (await repo.imeiTaken(body.imei)) throw imeiTaken(body.imei);
        const id = await repo.insert(body, randomBytes(32));
        const device = (await repo.find(id, this.cutoff()))!;
        await record(tx, { actor, entity: 'device', entityId: id, action: 'create', after: snapshot(device) });
        return device;
      });
    } catch (err) {
      throw constraintError(err, body.imei);
    }
  }

  /**
   * Registers several devices in one transaction (the integration API's batch): all or none. An
   * error names the device by its index (`devices.3.imei`); one audit row like an import's.
   */
  async createMany(actor: AuditActor, bodies: readonly DeviceBody[]): Promise<Device[]> {
    const seen = new Map<string, number>();
    bodies.forEach((b, i) => {
      if (seen.has(b.imei)) throw new AppError(400, 'VALIDATION', M.csv.duplicateInFile(seen.get(b.imei)! + 1), `devices.${i}.imei`);
      seen.set(b.imei, i);
    });
    try {
      return await transaction(this.db, async (tx) => {
        const repo = new DeviceRepository(tx);
        const groups = [...new Set(bodies.flatMap((b) => (b.groupId === null ? [] : [b.groupId])))];
        for (const g of groups) {
          if (!(await repo.groupExists(g))) {
            throw new AppError(400, 'GROUP_NOT_FOUND', M.devices.groupNotFound, `devices.${bodies.findIndex((b) => b.groupId === g)}.groupId`);
          }
        }
        const taken = await repo.takenImeis(bodies.map((b) => b.imei));
        const first = bodies.findIndex((b) => taken.has(b.imei));
        if (first >= 0) throw new AppError(409, 'IMEI_TAKEN', M.devices.imeiTaken(bodies[first]!.imei), `devices.${first}.imei`);
        await repo.insertMany(bodies, randomBytes(32 * bodies.length));
        const devices = await repo.findByImeis(
          bodies.map((b) => b.imei),
          this.cutoff(),
        );
        await record(tx, { actor, entity: 'device', action: 'import', after: { count: devices.length, imeis: devices.map((d) => d.imei) } });
        return devices;
      });
    } catch (err) {
      throw constraintError(err, undefined);
    }
  }

  /**
   * Edits the registry fields. A pre-enrolled device: every field. An enrolled device: never
   * its identity (IMEI, IMEI 2, serial, type, brand, model); its customer, credit reference and
   * group only with `enrolledAssignment` (the caller's profile also grants the enrolled-devices
   * page).
   */
  async update(
    actor: AuditActor,
    id: number,
    body: DeviceBody,
    grants: { enrolledAssignment: boolean } = { enrolledAssignment: false },
  ): Promise<Device> {
    try {
      return await transaction(this.db, async (tx) => {
        const repo = new DeviceRepository(tx);
        const found = await repo.findForEdit(id, this.cutoff());
        if (!found) throw notFound();
        const before = found.device;
        if (found.baseStatus !== DEVICE_STATUS.PRE_ENROLLED) assertEnrolledEdit(before, body, grants.enrolledAssignment);
        if (body.imei !== before.imei && (await repo.imeiTaken(body.imei, id))) throw imeiTaken(body.imei);
        if (body.groupId !== null && body.groupId !== before.groupId && !(await repo.groupExists(body.groupId))) throw groupNotFound();
        const unchanged = JSON.stringify(snapshot(before)) === JSON.stringify(snapshot({ ...before, ...body }));
        if (unchanged) return before;
        await repo.update(id, body);
        const after = (await repo.find(id, this.cutoff()))!;
        await record(tx, { actor, entity: 'device', entityId: id, action: 'update', before: snapshot(before), after: snapshot(after) });
        return after;
      });
    } catch (err) {
      throw constraintError(err, body.imei);
    }
  }

  /**
   * Validates a CSV file row by row (preview) or also registers its valid rows (commit): all of
   * them in one statement and one transaction, with one audit row; nothing when anything fails.
   */
  async import(actor: AuditActor, file: Uint8Array, mode: ImportQuery['mode']): Promise<ImportResult> {
    const { records, encoding, ignoredColumns } = readImportCsv(file);
    const run = async (q: Queryable): Promise<ImportResult> => {
      const repo = new DeviceRepository(q);
      const rows = validateImportRows(records, await repo.groupsByName());
      markTaken(rows, await repo.takenImeis(rows.flatMap((r) => (r.body ? [r.body.imei] : []))));
      const valid = rows.flatMap((r) => (r.body ? [r.body] : []));
      let imported = 0;
      if (mode === 'commit' && valid.length > 0) {
        imported = await repo.insertMany(valid, randomBytes(32 * valid.length));
        await record(q, { actor, entity: 'device', action: 'import', after: { count: imported } });
      }
      return {
        mode,
        encoding,
        ignoredColumns,
        rows: rows.length,
        valid: valid.length,
        invalid: invalidRows(rows),
        sample: valid.slice(0, IMPORT_SAMPLE),
        imported,
      };
    };
    if (mode === 'preview') return run(this.db);
    try {
      return await transaction(this.db, run);
    } catch (err) {
      throw constraintError(err, undefined);
    }
  }

  /** The import template (BOM, header, one example row). */
  template(): { fileName: string; content: string } {
    return { fileName: M.csv.templateFileName, content: importTemplate() };
  }

  /**
   * Whether the database writes the dates of `tz` as Node does (csvZone): a zone name (never an
   * offset, which PostgreSQL reads with the opposite sign) the database knows, with the same
   * offsets now, half a year ago and a year ago (a database with older zone rules is not used).
   */
  private async zoneInSql(repo: DeviceRepository, tz: string, now: Date): Promise<boolean> {
    if (!/^[A-Za-z][A-Za-z0-9_/+-]*$/.test(tz)) return false;
    const zone = csvZone(tz);
    const probes = [0, 182, 365].map((days) => new Date(now.getTime() - days * 86_400_000));
    const written = await repo.instantsIn(tz, probes);
    return written !== undefined && probes.every((at, i) => zone.instant(at) === written[i]);
  }

  /**
   * Records the export (its own small transaction), then hands out the whole filtered set in
   * id order, EXPORT_BATCH devices per query (keyset: constant memory and cost per batch), each
   * batch written as CSV by the database (DeviceRepository.exportCsvBatch) while the previous
   * one is sent. The dates are written in the zone `tz` (the browser's), UTC without one; a zone
   * the database does not know is written by Node (exportLines), as the same text.
   */
  async export(actor: AuditActor, q: DeviceFilter, tz?: string): Promise<CsvDownload> {
    const filter = filterOf(q);
    const now = this.settings.now();
    const cutoff = offlineCutoff(now, this.settings.offlineAfterHours);
    await transaction(this.db, (tx) => record(tx, { actor, entity: 'device', action: 'export', detail: JSON.stringify(filter) }));
    const repo = new DeviceRepository(this.db);
    const zone = csvZone(tz);
    const inSql = tz === undefined || (await this.zoneInSql(repo, tz, now));
    async function* written(): AsyncGenerator<string> {
      // The next batch is read while this one is sent (a reader that stops leaves it unread:
      // its failure then is nobody's, hence the catch; awaiting it still throws).
      const read = (after: number) => {
        const batch = repo.exportCsvBatch(filter, cutoff, after, EXPORT_BATCH, tz);
        batch.catch(() => undefined);
        return batch;
      };
      let next = read(0);
      for (;;) {
        const batch = await next;
        if (batch.count === EXPORT_BATCH) next = read(batch.lastId);
        if (batch.count > 0) yield batch.csv;
        if (batch.count < EXPORT_BATCH) return;
      }
    }
    async function* lines(): AsyncGenerator<string> {
      let after = 0;
      for (;;) {
        const batch = await repo.exportBatch(filter, cutoff, after, EXPORT_BATCH);
        if (batch.length > 0) yield exportLines(batch, zone);
        if (batch.length < EXPORT_BATCH) return;
        after = batch[batch.length - 1]![0];
      }
    }
    async function* chunks(): AsyncGenerator<string> {
      yield exportHeader(zone);
      yield* inSql ? written() : lines();
    }
    return { fileName: M.csv.exportFileName(now.toISOString().slice(0, 10)), chunks: chunks() };
  }
}
