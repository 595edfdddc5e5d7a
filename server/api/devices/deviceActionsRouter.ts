import { Router } from 'express';
import type { Guard } from '../../middleware/authorize';
import type { JobsService } from '../jobs/jobsService';
import type { DeviceActionsService } from './deviceActionsService';

/** /api/v5/devices/:id/actions and /api/v5/devices/bulk-actions. */
export function deviceActionsRouter(can: Guard, service: DeviceActionsService, jobs: JobsService): Router {
  const router = Router();
  return router;
}
