import * as z from 'zod';
import { BULK_MAX_DEVICES } from '../constants/limits';
import { DEVICE_ACTION } from '../constants/deviceActions';
import { DEVICE_STATUSES, type DeviceStatusCode } from '../constants/domain';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { INVENTORY_MESSAGES as M } from '../areaMessages/inventory';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { actionPayload } from './deviceActions';
import { deviceFilterFields } from './devices';
import { fieldError, idField, listResponse } from './fields';

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.bulk;

/** Bulk actions (/v5/devices/bulk-actions) and the jobs that run them (/v5/jobs). */

export const BULK_BATCH_SIZE = 5_000;

const selection = z
  .object(
    {
      ids: z
        .array(idField(L.ids), { error: M.field.ids(L.ids, BULK_MAX_DEVICES) })
        .min(1, { error: M.field.ids(L.ids, BULK_MAX_DEVICES) })
        .max(BULK_MAX_DEVICES, { error: M.field.ids(L.ids, BULK_MAX_DEVICES) })
        .optional(),
      filter: z.object(deviceFilterFields, { error: fieldError(L.filter, M.field.filter(L.filter)) }).optional(),
    },
    { error: fieldError(L.selection, M.field.selection) },
  )
  .refine((s) => (s.ids === undefined) !== (s.filter === undefined), { error: M.field.selection });
export type BulkSelection = z.infer<typeof selection>;

/** POST /v5/devices/bulk-actions/preview and /v5/devices/bulk-actions. */
export const bulkBody = z
  .object({ selection, payload: actionPayload }, { error: F.body })
  .refine(
    (b) =>
      b.payload.action !== DEVICE_ACTION.UNLOCK_OFFLINE &&
      b.payload.action !== DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE &&
      b.payload.action !== DEVICE_ACTION.RELEASE_OFFLINE,
    {
      error: M.field.action(FIELD_LABELS.actions.action),
      path: ['payload', 'action'],
    },
  );
export type BulkBody = z.infer<typeof bulkBody>;
export type BulkBodyInput = z.input<typeof bulkBody>;

/** The dry run of a bulk action. */
const count = z.number().int();
const DEVICE_STATUS_CODES = DEVICE_STATUSES.map((s) => s.code) as readonly DeviceStatusCode[];

export const bulkPreviewResponse = z.strictObject({
  /** Devices the selection matches. */
  total: count,
  /** Devices that will get the action. */
  eligible: count,
  /** Matched devices per derived status. */
  byStatus: z.array(z.strictObject({ status: z.custom<DeviceStatusCode>((v) => (DEVICE_STATUS_CODES as readonly unknown[]).includes(v)), count })),
  /** Devices skipped, grouped by the reason. */
  skipped: z.array(z.strictObject({ reason: z.string(), count })),
  /** Eligible devices that are offline and will get the command when they next check in. */
  offline: count,
  /** The selection exceeds BULK_MAX_DEVICES. */
  overLimit: z.boolean(),
});
export type BulkPreview = z.infer<typeof bulkPreviewResponse>;

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A bulk action job and its progress. */
export const jobResponse = z.strictObject({
  id: z.number().int(),
  kind: z.literal('bulk_action'),
  action: z.number().int(),
  status: z.enum(JOB_STATUSES),
  total: count,
  processed: count,
  succeeded: count,
  skipped: count,
  failed: count,
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /**
   * Where the job's commands are (GET /v5/jobs/:id): waiting for the device, received by it,
   * acknowledged, rejected, cancelled. Null in the creation answer.
   */
  commands: z.strictObject({ waiting: count, delivered: count, acknowledged: count, rejected: count, cancelled: count }).nullable(),
});
export type Job = z.infer<typeof jobResponse>;
export type JobCommandProgress = NonNullable<Job['commands']>;

export const JOB_RESULT_OUTCOMES = ['done', 'skipped', 'failed'] as const;
export const jobResultResponse = z.strictObject({
  deviceId: z.number().int(),
  imei: z.string(),
  outcome: z.enum(JOB_RESULT_OUTCOMES),
  reason: z.string().nullable(),
  commandId: z.number().int().nullable(),
});
export type JobResult = z.infer<typeof jobResultResponse>;

/** GET /v5/jobs/:id/results. */
export const jobResultListResponse = listResponse(jobResultResponse);
