import type { Db } from '../../db/Db';
import type { InventorySettings } from './deviceQueries';

/** Devices: list, read, register (one or from CSV), edit, delete, export, history. */
export class DevicesService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
  ) {}
}
