import { Router } from 'express';
import type { Guard } from '../../middleware/authorize';
import type { DevicesService } from './devicesService';

/** /api/v5/devices: the device registry. */
export function devicesRouter(can: Guard, service: DevicesService): Router {
  const router = Router();
  return router;
}
