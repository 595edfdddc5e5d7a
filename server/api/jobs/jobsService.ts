import type { BulkBody, Job, JobResult } from '../../../shared/contracts/jobs';
import { BULK_BATCH_SIZE } from '../../../shared/contracts/jobs';
import type { ListResponse } from '../../../shared/contracts/fields';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { ACTION_ORIGIN } from '../../../shared/constants/domain';
import { actionLabel } from '../../../shared/deviceActionRules';
import { STATEFUL_ACTIONS, offlineCutoff } from '../../../shared/deviceStatus';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { record, type AuditActor } from '../../audit/auditRepository';
import { UTF8_BOM, csvLines } from '../../audit/csv';
import { isConnectionError } from '../../db/connectionErrors';
import type { Db } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import { CommandRepository, DeviceRepository, commandPayload, deleteDevices, pendingUntil, refusalMemo, type InventorySettings } from '../../devices';
import { idempotent, type Answer, type IdempotencyRequest } from '../../middleware/idempotency';
import { JobsRepository, toJob, type JobRow, type Outcome } from './jobsRepository';
import { RELEASE_CANCEL_HOURS, BULK_MAX_DEVICES } from '../../../shared/constants/limits';

/** A running job whose heartbeat is older than this is taken over by another runner (JobRunner beats every 2 s). */
export const JOB_STALE_SECONDS = 10;

/** The columns of a job's results CSV. */
export const JOB_RESULT_COLUMNS = ['id_dispositivo', 'imei', 'resultado', 'motivo', 'id_comando'] as const;

/** Actions a job may carry (commands and deletion; offline codes and the history are per device). */
const BULK_ACTIONS: readonly number[] = [...STATEFUL_ACTIONS, DEVICE_ACTION.SEND_NOTIFICATION, DEVICE_ACTION.CODE_BAR, DEVICE_ACTION.DELETE_DEVICE];

const jobNotFound = () => new AppError(404, 'JOB_NOT_FOUND', M.bulk.jobNotFound);

/** What one batch did. */
export type BatchOutcome = 'more' | 'done' | 'lost';

/** Bulk-action jobs: creation, progress, per-device results. */
export class JobsService {
  /** Devices per batch (one transaction each); tests lower it to make several batches. */
  batchSize = BULK_BATCH_SIZE;
  private readonly queuedListeners: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
    private readonly logger: Logger,
  ) {}

  /** Called after a job is queued (the runner of this process starts working at once). */
  onQueued(listener: () => void): void {
    this.queuedListeners.push(listener);
  }

  private clock() {
    const now = this.settings.now();
    return { now, cutoff: offlineCutoff(now, this.settings.offlineAfterHours) };
  }

  /**
   * POST /devices/bulk-actions: the matched devices (in id order) become a queued job. 400 over
   * the limit, 409 when no device admits the action. The rules are checked again per batch.
   */
  async create(actor: AuditActor, body: BulkBody, idem?: IdempotencyRequest): Promise<Answer<Job>> {
    const answer = await idempotent(this.db, idem, 202, async (tx) => {
      const { cutoff } = this.clock();
      const devices = await new DeviceRepository(tx).selectionDevices(body.selection, cutoff, BULK_MAX_DEVICES + 1);
      if (devices.length > BULK_MAX_DEVICES) throw new AppError(400, 'BULK_TOO_MANY', M.bulk.tooMany(BULK_MAX_DEVICES));
      const refused = refusalMemo(body.payload.action);
      if (!devices.some((d) => refused(d) === null)) throw new AppError(409, 'BULK_NOTHING_TO_DO', M.bulk.nothingToDo);
      const job = await new JobsRepository(tx).insert({
        action: body.payload.action,
        payload: body.payload,
        deviceIds: devices.map((d) => d.id),
        actor,
      });
      await record(tx, {
        actor,
        entity: 'job',
        entityId: job.id,
        action: 'create',
        after: { id: Number(job.id), action: job.action, payload: body.payload, selection: body.selection, total: job.total },
      });
      return toJob(job);
    });
    if (!answer.replayed) for (const listener of this.queuedListeners) listener();
    return answer;
  }

  /** A job with where its commands are (waiting, received, acknowledged…), for the progress view. */
  async get(id: number): Promise<Job> {
    const repo = new JobsRepository(this.db);
    const job = await repo.find(id);
    if (!job) throw jobNotFound();
    return toJob(job, await repo.commandProgress(id));
  }

  async results(id: number, page: { page: number; perPage: number }): Promise<ListResponse<JobResult>> {
    const repo = new JobsRepository(this.db);
    if (!(await repo.find(id))) throw jobNotFound();
    const [data, total] = await Promise.all([
      repo.results(id, { offset: (page.page - 1) * page.perPage, limit: page.perPage }),
      repo.countResults(id),
    ]);
    return { data, total };
  }

  /** The results as CSV (UTF-8 with BOM so spreadsheets read the accents), one row per device. */
  async resultsCsv(id: number): Promise<string> {
    const repo = new JobsRepository(this.db);
    if (!(await repo.find(id))) throw jobNotFound();
    const rows = await repo.results(id, { offset: 0, limit: BULK_MAX_DEVICES });
    return (
      UTF8_BOM +
      csvLines([JOB_RESULT_COLUMNS, ...rows.map((r) => [r.deviceId, r.imei, M.bulk.outcome[r.outcome], r.reason ?? '', r.commandId ?? ''])])
    );
  }

  // The runner's side ----------------------------------------------------------------------

  /** The next job to work on for `runner` (queued, or abandoned by a runner that stopped beating). */
  claim(runner: string): Promise<JobRow | undefined> {
    return new JobsRepository(this.db).claim(runner, JOB_STALE_SECONDS);
  }

  /**
   * Works a claimed job to its end, batch after batch. `stopping` is asked between batches: the
   * job then goes back to the queue for the next runner. An error marks the job failed with a
   * Spanish reason (the batches done stay done: each was one transaction).
   */
  async run(job: JobRow, runner: string, stopping: () => boolean): Promise<void> {
    try {
      for (;;) {
        if (stopping()) {
          // If this fails too, the heartbeat goes stale and another runner takes the job over.
          await new JobsRepository(this.db).release(job.id, runner).catch((err: unknown) => {
            this.logger.warn({ err, jobId: job.id }, 'bulk job: could not give the job back to the queue');
          });
          return;
        }
        const outcome = await this.runBatch(job.id, runner);
        if (outcome !== 'more') return;
      }
    } catch (err) {
      // The database went away mid-batch (that batch rolled back): the job stays this runner's
      // and is resumed by its next poll, or by another runner once the heartbeat is stale.
      if (isConnectionError(err)) throw err;
      this.logger.error({ err, jobId: job.id }, 'bulk job failed');
      await new JobsRepository(this.db).fail(job.id, runner, M.bulk.failed).catch((e: unknown) => {
        this.logger.error({ err: e, jobId: job.id }, 'bulk job: could not mark the job failed (another runner will take it over)');
      });
    }
  }

  /**
   * One batch in one transaction: the devices locked in id order, the rules checked again (the
   * state may have changed since the dry run), commands inserted and devices updated set-based,
   * the results, the counters and the heartbeat, one audit row. 'lost' when another runner owns
   * the job now; 'done' when this was the last batch (the job is completed in it).
   */
  runBatch(jobId: number, runner: string): Promise<BatchOutcome> {
    return transaction(this.db, async (tx): Promise<BatchOutcome> => {
      const jobs = new JobsRepository(tx);
      const job = await jobs.lockOwned(jobId, runner);
      if (!job) return 'lost';
      const ids = await jobs.remainingIds(jobId, this.batchSize);
      if (ids.length === 0) {
        await jobs.complete(jobId);
        return 'done';
      }
      const payload = job.payload;
      if (!BULK_ACTIONS.includes(payload.action)) throw new Error(`action ${payload.action} cannot run in bulk`);
      const { now, cutoff } = this.clock();
      const devices = new DeviceRepository(tx);
      const commandRepo = new CommandRepository(tx);
      const found = new Map((await devices.lockBatch(ids, cutoff)).map((d) => [d.id, d]));
      const refused = refusalMemo(payload.action);

      const outcomes = new Map<number, { outcome: Outcome; reason: string | null }>();
      const eligible: number[] = [];
      for (const id of ids) {
        const d = found.get(id);
        if (!d || d.deleted) outcomes.set(id, { outcome: 'failed', reason: M.devices.notFound });
        else {
          const r = refused(d);
          if (r) outcomes.set(id, { outcome: 'skipped', reason: r.reason });
          else eligible.push(id);
        }
      }

      let commands = new Map<number, number>();
      if (eligible.length) {
        const actor = job.actor ?? { adminId: job.created_by_admin_id, email: job.created_by, ip: null, requestId: null };
        const common = {
          action: payload.action,
          payload: commandPayload(payload),
          requestedAt: now,
          requestedByAdminId: actor.adminId,
          requestedBy: actor.email,
          jobId,
        };
        if (payload.action === DEVICE_ACTION.DELETE_DEVICE) {
          await deleteDevices(tx, eligible, now);
          commands = await commandRepo.insertCommands(eligible, {
            ...common,
            origin: ACTION_ORIGIN.DELETE_DEVICE,
            status: 'acknowledged',
            deliverAfter: now,
            acknowledgedAt: now,
          });
        } else {
          const release = payload.action === DEVICE_ACTION.RELEASE;
          commands = await commandRepo.insertCommands(eligible, {
            ...common,
            origin: payload.action === DEVICE_ACTION.LOCK && payload.stolen ? ACTION_ORIGIN.LOCK_BY_STOLEN : null,
            status: 'pending',
            deliverAfter: release ? new Date(now.getTime() + RELEASE_CANCEL_HOURS * 3600_000) : now,
          });
          if (STATEFUL_ACTIONS.includes(payload.action)) await devices.setPendingMany(commands, payload.action, pendingUntil(payload), now);
        }
        for (const id of eligible) outcomes.set(id, { outcome: 'done', reason: null });
      }

      const counts = { done: 0, skipped: 0, failed: 0 };
      const rows = { deviceIds: [] as number[], outcomes: [] as Outcome[], reasons: [] as (string | null)[], commandIds: [] as (number | null)[] };
      for (const id of ids) {
        const o = outcomes.get(id)!;
        counts[o.outcome] += 1;
        rows.deviceIds.push(id);
        rows.outcomes.push(o.outcome);
        rows.reasons.push(o.reason);
        rows.commandIds.push(commands.get(id) ?? null);
      }
      await jobs.insertResults(jobId, rows);
      const updated = await jobs.progress(jobId, counts);
      await record(tx, {
        actor: job.actor ?? { adminId: job.created_by_admin_id, email: job.created_by, ip: null, requestId: null },
        entity: 'job',
        entityId: jobId,
        action: 'bulk_action',
        after: {
          action: payload.action,
          firstDeviceId: ids[0],
          lastDeviceId: ids[ids.length - 1],
          ...counts,
          processed: updated.processed,
          total: updated.total,
        },
        detail: M.bulk.batchDetail(actionLabel(payload.action), counts.done, counts.skipped, counts.failed),
      });
      if (updated.processed >= updated.total || ids.length < this.batchSize) {
        await jobs.complete(jobId);
        return 'done';
      }
      return 'more';
    });
  }

  /** The runner's timer beat while it works on a job (see JobsRepository.heartbeat). */
  heartbeat(jobId: number, runner: string): Promise<boolean> {
    return new JobsRepository(this.db).heartbeat(jobId, runner);
  }
}
