/**
 * The SQL of bulk-action jobs: creation, the atomic claim of a runner, progress per batch, and
 * the per-device results. Timestamps of the job's life (heartbeat, start, end) come from the
 * database clock, which every replica shares.
 */
import type { ActionPayload } from '../../../shared/contracts/deviceActions';
import type { Job, JobCommandProgress, JobResult, JobStatus } from '../../../shared/contracts/jobs';
import type { AuditActor } from '../../audit/auditRepository';
import type { Queryable } from '../../db/Db';

export interface JobRow {
  id: number;
  kind: 'bulk_action';
  action: number;
  payload: ActionPayload;
  status: JobStatus;
  total: number;
  processed: number;
  succeeded: number;
  skipped: number;
  failed: number;
  created_by_admin_id: number | null;
  created_by: string | null;
  actor: AuditActor | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
  runner: string | null;
  heartbeat_at: Date | null;
}

const JOB_COLUMNS = `id, kind, action, payload, status, total, processed, succeeded, skipped, failed, created_by_admin_id, created_by,
  actor, created_at, started_at, finished_at, error, runner, heartbeat_at`;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toJob(r: JobRow, commands: Job['commands'] = null): Job {
  return {
    id: Number(r.id),
    kind: r.kind,
    action: r.action,
    status: r.status,
    total: r.total,
    processed: r.processed,
    succeeded: r.succeeded,
    skipped: r.skipped,
    failed: r.failed,
    createdAt: iso(r.created_at)!,
    createdBy: r.created_by,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    error: r.error,
    commands,
  };
}

export type Outcome = JobResult['outcome'];

export interface NewJob {
  action: number;
  payload: ActionPayload;
  deviceIds: readonly number[];
  actor: AuditActor;
}

export interface ResultRow {
  device_id: number;
  imei: string | null;
  outcome: Outcome;
  reason: string | null;
  command_id: number | null;
}

const toResult = (r: ResultRow): JobResult => ({
  deviceId: Number(r.device_id),
  imei: r.imei ?? '',
  outcome: r.outcome,
  reason: r.reason,
  commandId: r.command_id === null ? null : Number(r.command_id),
});

export class JobsRepository {
  constructor(private readonly db: Queryable) {}

  async insert(j: NewJob): Promise<JobRow> {
    const res = await this.db.query<JobRow>(
      `INSERT INTO jobs (action, payload, device_ids, total, created_by_admin_id, created_by, actor)
       VALUES ($1, $2::jsonb, $3::bigint[], $4, $5, $6, $7::jsonb) RETURNING ${JOB_COLUMNS}`,
      [j.action, JSON.stringify(j.payload), j.deviceIds, j.deviceIds.length, j.actor.adminId, j.actor.email, JSON.stringify(j.actor)],
    );
    return res.rows[0]!;
  }

  /** The job's commands by where they are (index device_commands_job of migration 0010). */
  async commandProgress(id: number): Promise<JobCommandProgress> {
    const res = await this.db.query<{ status: string; delivered: boolean; n: number }>(
      `SELECT status, delivered_at IS NOT NULL AS delivered, count(*) AS n FROM device_commands WHERE job_id = $1 GROUP BY 1, 2`,
      [id],
    );
    const p: JobCommandProgress = { waiting: 0, delivered: 0, acknowledged: 0, rejected: 0, cancelled: 0 };
    for (const r of res.rows) {
      const n = Number(r.n);
      if (r.status === 'pending') p[r.delivered ? 'delivered' : 'waiting'] += n;
      else if (r.status === 'acknowledged' || r.status === 'rejected' || r.status === 'cancelled') p[r.status] += n;
    }
    return p;
  }

  async find(id: number): Promise<JobRow | undefined> {
    const res = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id]);
    return res.rows[0];
  }

  /**
   * Takes the oldest job that is queued, running under a runner whose heartbeat is older than
   * `staleSeconds` (a replica died or this process restarted), or running under `runner` itself
   * (its run was cut short by a database fault: a runner works one job at a time, so a job it
   * owns while it claims is one it left), for `runner`. Atomic: a locked candidate (a batch in
   * flight) is skipped, so two runners never take the same job.
   */
  async claim(runner: string, staleSeconds: number): Promise<JobRow | undefined> {
    const res = await this.db.query<JobRow>(
      `UPDATE jobs SET status = 'running', runner = $1, heartbeat_at = clock_timestamp(), started_at = coalesce(started_at, now())
        WHERE id = (SELECT id FROM jobs
                     WHERE status = 'queued'
                        OR (status = 'running' AND (runner = $1 OR heartbeat_at IS NULL
                                                    OR heartbeat_at < clock_timestamp() - make_interval(secs => $2)))
                     ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${JOB_COLUMNS}`,
      [runner, staleSeconds],
    );
    return res.rows[0];
  }

  /**
   * The runner's timer beat: `runner` still works on the job. Never waits: while a batch holds
   * the job's row the beat is skipped (the batch beats when it commits, and a locked job is
   * never taken over). False when the job is no longer this runner's.
   */
  async heartbeat(id: number, runner: string): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE jobs SET heartbeat_at = clock_timestamp()
        WHERE id = (SELECT id FROM jobs WHERE id = $1 AND runner = $2 AND status = 'running' FOR UPDATE SKIP LOCKED)`,
      [id, runner],
    );
    return res.rowCount > 0;
  }

  /** The job, locked for one batch, if `runner` still owns it (another may have claimed it since). */
  async lockOwned(id: number, runner: string): Promise<JobRow | undefined> {
    const res = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND runner = $2 AND status = 'running' FOR UPDATE`, [
      id,
      runner,
    ]);
    return res.rows[0];
  }

  /** The next device ids of the job without a result, in id order. */
  async remainingIds(id: number, limit: number): Promise<number[]> {
    const res = await this.db.query<{ id: number }>(
      `SELECT u.id FROM jobs j CROSS JOIN LATERAL unnest(j.device_ids) AS u(id)
        WHERE j.id = $1 AND NOT EXISTS (SELECT 1 FROM job_results r WHERE r.job_id = $1 AND r.device_id = u.id)
        ORDER BY u.id LIMIT $2`,
      [id, limit],
    );
    return res.rows.map((r) => Number(r.id));
  }

  /** The results of one batch, set-based. */
  async insertResults(
    id: number,
    rows: { deviceIds: number[]; outcomes: Outcome[]; reasons: (string | null)[]; commandIds: (number | null)[] },
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO job_results (job_id, device_id, outcome, reason, command_id)
       SELECT $1, u.device_id, u.outcome, u.reason, u.command_id
         FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS u(device_id, outcome, reason, command_id)`,
      [id, rows.deviceIds, rows.outcomes, rows.reasons, rows.commandIds],
    );
  }

  /** Adds a batch's counts and beats the heart (the clock at commit time, not the batch's start). */
  async progress(id: number, c: { done: number; skipped: number; failed: number }): Promise<JobRow> {
    const res = await this.db.query<JobRow>(
      `UPDATE jobs SET processed = processed + $2, succeeded = succeeded + $3, skipped = skipped + $4, failed = failed + $5,
                       heartbeat_at = clock_timestamp()
        WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
      [id, c.done + c.skipped + c.failed, c.done, c.skipped, c.failed],
    );
    return res.rows[0]!;
  }

  async complete(id: number): Promise<void> {
    await this.db.query("UPDATE jobs SET status = 'completed', finished_at = now(), heartbeat_at = now() WHERE id = $1", [id]);
  }

  /** Marks a job this runner owns as failed, with the reason shown to the administrator. */
  async fail(id: number, runner: string, error: string): Promise<void> {
    await this.db.query("UPDATE jobs SET status = 'failed', error = $3, finished_at = now() WHERE id = $1 AND runner = $2 AND status = 'running'", [
      id,
      runner,
      error,
    ]);
  }

  /** Gives a job back to the queue (this runner is stopping between batches). */
  async release(id: number, runner: string): Promise<void> {
    await this.db.query(
      "UPDATE jobs SET status = 'queued', runner = NULL, heartbeat_at = NULL WHERE id = $1 AND runner = $2 AND status = 'running'",
      [id, runner],
    );
  }

  async results(id: number, page: { offset: number; limit: number }): Promise<JobResult[]> {
    const res = await this.db.query<ResultRow>(
      `SELECT r.device_id, d.imei, r.outcome, r.reason, r.command_id
         FROM job_results r LEFT JOIN devices d ON d.id = r.device_id
        WHERE r.job_id = $1 ORDER BY r.device_id LIMIT $2 OFFSET $3`,
      [id, page.limit, page.offset],
    );
    return res.rows.map(toResult);
  }

  async countResults(id: number): Promise<number> {
    const res = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM job_results WHERE job_id = $1', [id]);
    return res.rows[0]!.n;
  }
}
