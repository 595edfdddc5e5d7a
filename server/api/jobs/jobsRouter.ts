import { Router } from 'express';
import type { Guard } from '../../middleware/authorize';
import type { JobsService } from './jobsService';

/** /api/v5/jobs: progress and results of bulk actions. */
export function jobsRouter(can: Guard, service: JobsService): Router {
  const router = Router();
  return router;
}
