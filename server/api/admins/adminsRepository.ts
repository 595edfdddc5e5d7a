import type { Admin, ListAdminsQuery } from '../../../shared/contracts/admins';
import type { Queryable } from '../../db/Db';

interface AdminRecord {
  id: number;
  correo: string;
  nombres: string;
  apellidos: string;
  enabled: boolean;
  sub: string | null;
  profile_id: number;
  profile_nombre: string;
  paths: string[];
  actions: number[];
  created_at: Date;
  updated_at: Date;
}

/** An administrator with what their profile grants (for the guards; the API answers `admin`). */
export interface AdminWithGrants {
  admin: Admin;
  /** The identity user the record is bound to (null until the first sign-in of an older record). */
  sub: string | null;
  paths: string[];
  actions: number[];
}

const toAdmin = (r: AdminRecord): Admin => ({
  id: r.id,
  correo: r.correo,
  nombres: r.nombres,
  apellidos: r.apellidos,
  enabled: r.enabled,
  profileId: r.profile_id,
  profileNombre: r.profile_nombre,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const SELECT = `SELECT a.id, a.sub, a.correo, a.nombres, a.apellidos, a.enabled, a.created_at, a.updated_at,
                       p.id AS profile_id, p.nombre AS profile_nombre, p.paths, p.actions
                  FROM admins a JOIN profiles p ON p.id = a.profile_id`;

const SORTS: Record<ListAdminsQuery['sort'], string> = {
  nombres: 'lower(a.nombres) {o}, lower(a.apellidos) {o}',
  correo: 'lower(a.correo) {o}',
  profile: 'lower(p.nombre) {o}',
  createdAt: 'a.created_at {o}',
};

/** `%text%` for LIKE, with the wildcards of the text escaped. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** All SQL of administrators. */
export class AdminsRepository {
  constructor(private readonly db: Queryable) {}

  async list(q: ListAdminsQuery): Promise<{ data: Admin[]; total: number }> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (q.search !== undefined) {
      params.push(contains(q.search));
      where.push(`((a.nombres || ' ' || a.apellidos) ILIKE $${params.length} OR a.correo ILIKE $${params.length})`);
    }
    if (q.profileId !== undefined) {
      params.push(q.profileId);
      where.push(`a.profile_id = $${params.length}`);
    }
    if (q.enabled !== undefined) {
      params.push(q.enabled);
      where.push(`a.enabled = $${params.length}`);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const order = SORTS[q.sort].replaceAll('{o}', q.order === 'desc' ? 'DESC' : 'ASC');
    const total = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM admins a ${w}`, params);
    const page = await this.db.query<AdminRecord>(`${SELECT} ${w} ORDER BY ${order}, a.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
      ...params,
      q.perPage,
      (q.page - 1) * q.perPage,
    ]);
    return { data: page.rows.map(toAdmin), total: total.rows[0]!.n };
  }

  async find(id: number): Promise<AdminWithGrants | undefined> {
    const res = await this.db.query<AdminRecord>(`${SELECT} WHERE a.id = $1`, [id]);
    const r = res.rows[0];
    return r && { admin: toAdmin(r), sub: r.sub, paths: r.paths, actions: r.actions };
  }

  async emailTaken(correo: string): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM admins WHERE lower(correo) = lower($1)', [correo]);
    return res.rowCount > 0;
  }

  async profileGrants(profileId: number): Promise<{ paths: string[]; actions: number[] } | undefined> {
    const res = await this.db.query<{ paths: string[]; actions: number[] }>('SELECT paths, actions FROM profiles WHERE id = $1', [profileId]);
    return res.rows[0];
  }

  async insert(a: { correo: string; nombres: string; apellidos: string; profileId: number }): Promise<number> {
    const res = await this.db.query<{ id: number }>(
      'INSERT INTO admins (correo, nombres, apellidos, profile_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [a.correo, a.nombres, a.apellidos, a.profileId],
    );
    return res.rows[0]!.id;
  }

  async update(id: number, a: { nombres: string; apellidos: string; profileId: number }): Promise<void> {
    await this.db.query('UPDATE admins SET nombres = $2, apellidos = $3, profile_id = $4, updated_at = now() WHERE id = $1', [
      id,
      a.nombres,
      a.apellidos,
      a.profileId,
    ]);
  }

  /** Binds the record to its identity user. */
  async setSub(id: number, sub: string): Promise<void> {
    await this.db.query('UPDATE admins SET sub = $2 WHERE id = $1', [id, sub]);
  }

  async setEnabled(id: number, enabled: boolean): Promise<void> {
    await this.db.query('UPDATE admins SET enabled = $2, updated_at = now() WHERE id = $1', [id, enabled]);
  }

  async delete(id: number): Promise<void> {
    await this.db.query('DELETE FROM admins WHERE id = $1', [id]);
  }
}
