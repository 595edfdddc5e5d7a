import type { Role } from '../../../shared/contracts/roles';
import type { Queryable } from '../../db/Db';

interface RoleRecord {
  id: number;
  nombre: string;
  paths: string[];
  actions: number[];
  admin_count: number;
  created_at: Date;
  updated_at: Date;
}

const toRole = (r: RoleRecord): Role => ({
  id: r.id,
  nombre: r.nombre,
  paths: r.paths,
  actions: r.actions,
  adminCount: r.admin_count,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const SELECT = `SELECT p.id, p.nombre, p.paths, p.actions, p.created_at, p.updated_at,
                       (SELECT count(*) FROM admins a WHERE a.profile_id = p.id) AS admin_count
                  FROM profiles p`;

/** All SQL of profiles (roles). */
export class RolesRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Role[]> {
    const res = await this.db.query<RoleRecord>(`${SELECT} ORDER BY lower(p.nombre), p.id`);
    return res.rows.map(toRole);
  }

  async find(id: number): Promise<Role | undefined> {
    const res = await this.db.query<RoleRecord>(`${SELECT} WHERE p.id = $1`, [id]);
    return res.rows[0] && toRole(res.rows[0]);
  }

  /** Whether another role already has this name (case-insensitive). */
  async nameTaken(nombre: string, exceptId?: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM profiles WHERE lower(nombre) = lower($1) AND id <> $2', [nombre, exceptId ?? 0]);
    return res.rowCount > 0;
  }

  async insert(r: { nombre: string; paths: string[]; actions: number[] }): Promise<number> {
    const res = await this.db.query<{ id: number }>('INSERT INTO profiles (nombre, paths, actions) VALUES ($1, $2, $3) RETURNING id', [
      r.nombre,
      r.paths,
      r.actions,
    ]);
    return res.rows[0]!.id;
  }

  async update(id: number, r: { nombre: string; paths: string[]; actions: number[] }): Promise<void> {
    await this.db.query('UPDATE profiles SET nombre = $2, paths = $3, actions = $4, updated_at = now() WHERE id = $1', [
      id,
      r.nombre,
      r.paths,
      r.actions,
    ]);
  }

  /** Whether an enabled administrator holds this role. */
  async hasEnabledHolder(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM admins WHERE profile_id = $1 AND enabled LIMIT 1', [id]);
    return res.rowCount > 0;
  }

  async delete(id: number): Promise<void> {
    await this.db.query('DELETE FROM profiles WHERE id = $1', [id]);
  }
}
