import * as z from 'zod';
import { DEVICE_ACTION } from '../constants/deviceActions';
import type { DeviceStatusCode } from '../constants/domain';
import { ADMIN_API_MESSAGES, INVENTORY_MESSAGES as M } from '../messages';
import { actionPayload } from './deviceActions';
import { deviceFilter } from './devices';
import { idField } from './fields';

const F = ADMIN_API_MESSAGES.field;

/** Bulk actions (/v5/devices/bulk-actions) and the jobs that run them (/v5/jobs). */

export const BULK_MAX_DEVICES = 10_000;
export const BULK_BATCH_SIZE = 5_000;

const selection = z
  .object(
    {
      ids: z
        .array(idField('ids'), { error: M.field.ids('ids', BULK_MAX_DEVICES) })
        .min(1, { error: M.field.ids('ids', BULK_MAX_DEVICES) })
        .max(BULK_MAX_DEVICES, { error: M.field.ids('ids', BULK_MAX_DEVICES) })
        .optional(),
      filter: deviceFilter.optional(),
    },
    { error: M.field.selection },
  )
  .refine((s) => (s.ids === undefined) !== (s.filter === undefined), { error: M.field.selection });
export type BulkSelection = z.infer<typeof selection>;

/** POST /v5/devices/bulk-actions/preview and /v5/devices/bulk-actions. */
export const bulkBody = z
  .object({ selection, payload: actionPayload }, { error: F.body })
  .refine((b) => b.payload.action !== DEVICE_ACTION.UNLOCK_OFFLINE && b.payload.action !== DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE && b.payload.action !== DEVICE_ACTION.RELEASE_OFFLINE, {
    error: M.field.action('payload.action'),
    path: ['payload', 'action'],
  });
export type BulkBody = z.infer<typeof bulkBody>;
export type BulkBodyInput = z.input<typeof bulkBody>;

/** The dry run of a bulk action. */
export interface BulkPreview {
  /** Devices the selection matches. */
  total: number;
  /** Devices that will get the action. */
  eligible: number;
  /** Matched devices per derived status. */
  byStatus: { status: DeviceStatusCode; count: number }[];
  /** Devices skipped, grouped by the reason. */
  skipped: { reason: string; count: number }[];
  /** Eligible devices that are offline and will get the command when they next check in. */
  offline: number;
  /** The selection exceeds BULK_MAX_DEVICES. */
  overLimit: boolean;
}

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A bulk action job and its progress. */
export interface Job {
  id: number;
  kind: 'bulk_action';
  action: number;
  status: JobStatus;
  total: number;
  processed: number;
  succeeded: number;
  skipped: number;
  failed: number;
  createdAt: string;
  createdBy: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export const JOB_RESULT_OUTCOMES = ['done', 'skipped', 'failed'] as const;
export interface JobResult {
  deviceId: number;
  imei: string;
  outcome: (typeof JOB_RESULT_OUTCOMES)[number];
  reason: string | null;
  commandId: number | null;
}
