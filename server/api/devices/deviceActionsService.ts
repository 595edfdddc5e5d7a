import type { Db } from '../../db/Db';
import type { InventorySettings } from './deviceQueries';

/** Actions on one device: commands, offline codes, release cancellation; bulk previews. */
export class DeviceActionsService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
  ) {}
}
