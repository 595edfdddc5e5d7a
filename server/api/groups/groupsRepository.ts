import { DEVICE_STATUS } from '../../../shared/constants/domain';
import type { Group, GroupBody, GroupList } from '../../../shared/contracts/groups';
import type { Queryable } from '../../db/Db';

interface GroupRecord {
  id: number;
  name: string;
  description: string | null;
  device_count: number | string;
  enrolled_count: number | string;
  pre_enrolled_count: number | string;
  created_at: Date;
  updated_at: Date;
}

const toGroup = (r: GroupRecord): Group => ({
  id: r.id,
  name: r.name,
  description: r.description,
  deviceCount: Number(r.device_count),
  enrolledCount: Number(r.enrolled_count),
  preEnrolledCount: Number(r.pre_enrolled_count),
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** Live devices per group (0: none), enrolled and pre-enrolled apart, from the maintained counters (no scan of devices). */
const COUNTS = `SELECT group_id, sum(n) FILTER (WHERE base_status <> ${DEVICE_STATUS.PRE_ENROLLED}) AS enrolled,
                       sum(n) FILTER (WHERE base_status = ${DEVICE_STATUS.PRE_ENROLLED}) AS pre_enrolled
                  FROM device_counts GROUP BY group_id`;

/** Groups with their live devices. */
const SELECT = `SELECT g.id, g.name, g.description, g.created_at, g.updated_at,
                       (coalesce(c.enrolled, 0) + coalesce(c.pre_enrolled, 0))::bigint AS device_count,
                       coalesce(c.enrolled, 0)::bigint AS enrolled_count, coalesce(c.pre_enrolled, 0)::bigint AS pre_enrolled_count
                  FROM device_groups g
                  LEFT JOIN (${COUNTS}) c ON c.group_id = g.id`;

/** All SQL of device groups. */
export class GroupsRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Group[]> {
    const res = await this.db.query<GroupRecord>(`${SELECT} ORDER BY lower(g.name), g.id`);
    return res.rows.map(toGroup);
  }

  /** The live devices in no group, enrolled and pre-enrolled. */
  async ungrouped(): Promise<GroupList['ungrouped']> {
    const res = await this.db.query<{ enrolled: string | number | null; pre_enrolled: string | number | null }>(
      `SELECT sum(n) FILTER (WHERE base_status <> ${DEVICE_STATUS.PRE_ENROLLED}) AS enrolled,
              sum(n) FILTER (WHERE base_status = ${DEVICE_STATUS.PRE_ENROLLED}) AS pre_enrolled
         FROM device_counts WHERE group_id = 0`,
    );
    const r = res.rows[0];
    return { enrolledCount: Number(r?.enrolled ?? 0), preEnrolledCount: Number(r?.pre_enrolled ?? 0) };
  }

  async find(id: number): Promise<Group | undefined> {
    const res = await this.db.query<GroupRecord>(`${SELECT} WHERE g.id = $1`, [id]);
    return res.rows[0] && toGroup(res.rows[0]);
  }

  /** Locks the group row until the transaction ends (devices cannot be added to it meanwhile). */
  async lock(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE id = $1 FOR UPDATE', [id]);
    return res.rowCount > 0;
  }

  /** Whether another group already has this name (case-insensitive). */
  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE lower(name) = lower($1) AND id <> $2', [name, exceptId ?? 0]);
    return res.rowCount > 0;
  }

  async insert(body: GroupBody): Promise<number> {
    const res = await this.db.query<{ id: number }>('INSERT INTO device_groups (name, description) VALUES ($1, $2) RETURNING id', [
      body.name,
      body.description,
    ]);
    return res.rows[0]!.id;
  }

  async update(id: number, body: GroupBody): Promise<void> {
    await this.db.query('UPDATE device_groups SET name = $2, description = $3, updated_at = now() WHERE id = $1', [id, body.name, body.description]);
  }

  async exists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE id = $1', [id]);
    return res.rows.length > 0;
  }

  async delete(id: number): Promise<void> {
    await this.db.query('DELETE FROM device_groups WHERE id = $1', [id]);
  }
}
