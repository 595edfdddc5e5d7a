import type { Db } from '../../db/Db';
import type { Logger } from '../../logger';
import type { InventorySettings } from '../devices/deviceQueries';

/** Bulk-action jobs: creation, progress, per-device results. */
export class JobsService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
    private readonly logger: Logger,
  ) {}
}
