import { Router } from 'express';
import type { Guard } from '../../middleware/authorize';
import type { GroupsService } from './groupsService';

/** /api/v5/groups. */
export function groupsRouter(can: Guard, service: GroupsService): Router {
  const router = Router();
  return router;
}
