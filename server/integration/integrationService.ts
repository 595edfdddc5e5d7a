import type { Device } from '../../shared/contracts/devices';
import type { Command } from '../../shared/contracts/deviceActions';
import type { DeviceRef } from '../../shared/contracts/integration';
import { INTEGRATION_MESSAGES as M } from '../../shared/areaMessages/integration';
import { offlineCutoff } from '../../shared/deviceStatus';
import { record, type AuditActor } from '../audit/auditRepository';
import type { Db } from '../db/Db';
import { AppError } from '../errors';
import { CommandRepository, toCommand, type InventorySettings, DeviceRepository } from '../devices';

/** Devices one credit reference may name in a lookup's answer. */
const LOOKUP_MAX = 100;

const deviceNotFound = () => new AppError(404, 'DEVICE_NOT_FOUND', M.integration.deviceNotFound);

/** The integration API's own reads: devices by IMEI or credit reference, commands by id. */
export class IntegrationService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
  ) {}

  private cutoff(): Date {
    return offlineCutoff(this.settings.now(), this.settings.offlineAfterHours);
  }

  private async ids(ref: DeviceRef, limit: number): Promise<number[]> {
    const repo = new DeviceRepository(this.db);
    const rows =
      ref.imei !== undefined
        ? await repo.idsByReference('imei', [ref.imei], limit)
        : await repo.idsByReference('creditReference', [ref.creditReference!], limit);
    return rows.map((r) => r.id);
  }

  /** GET /devices?imei=…|creditReference=…: the devices it names (audited as a lookup). */
  async lookup(actor: AuditActor, ref: DeviceRef): Promise<{ data: Device[]; total: number }> {
    const repo = new DeviceRepository(this.db);
    const cutoff = this.cutoff();
    const ids = await this.ids(ref, LOOKUP_MAX);
    const data = (await Promise.all(ids.map((id) => repo.find(id, cutoff)))).filter((d): d is Device => d !== undefined);
    await record(this.db, { actor, entity: 'device', entityId: data.length === 1 ? data[0]!.id : null, action: 'lookup', detail: describe(ref) });
    return { data, total: data.length };
  }

  /** The one device a reference names: 404 when none, 409 when a credit reference names several. */
  async resolveOne(ref: DeviceRef): Promise<number> {
    const ids = await this.ids(ref, 10);
    if (ids.length === 0) throw deviceNotFound();
    if (ids.length > 1) throw new AppError(409, 'AMBIGUOUS_REFERENCE', M.integration.ambiguous(ids.length), 'device.creditReference');
    return ids[0]!;
  }

  /** The devices a list of IMEIs or credit references names (every match of a reference), and the references that name none. */
  async resolveMany(by: 'imei' | 'creditReference', values: readonly string[], limit: number): Promise<{ ids: number[]; notFound: string[] }> {
    const rows = await new DeviceRepository(this.db).idsByReference(by, [...new Set(values)], limit);
    const found = new Set(rows.map((r) => r.ref));
    const key = (v: string) => (by === 'imei' ? v : v.toLowerCase());
    return { ids: [...new Set(rows.map((r) => r.id))], notFound: [...new Set(values.filter((v) => !found.has(key(v))))] };
  }

  /** GET /commands/:id (audited as a lookup of its device). */
  async command(actor: AuditActor, id: number): Promise<Command> {
    const row = await new CommandRepository(this.db).findCommandById(id);
    if (!row) throw new AppError(404, 'COMMAND_NOT_FOUND', M.integration.commandNotFound);
    await record(this.db, { actor, entity: 'device', entityId: Number(row.device_id), action: 'lookup', detail: `comando ${id}` });
    return toCommand(row);
  }

  /** Audits a read of a job (its progress or results). */
  async jobRead(actor: AuditActor, id: number): Promise<void> {
    await record(this.db, { actor, entity: 'job', entityId: id, action: 'lookup' });
  }
}

const describe = (ref: DeviceRef) => (ref.imei !== undefined ? `IMEI ${ref.imei}` : `referencia de crédito ${ref.creditReference}`);
