import type { Db } from '../../db/Db';

export interface AdminWithProfile {
  id: number;
  correo: string;
  nombres: string;
  apellidos: string;
  enabled: boolean;
  profileId: number;
  profileNombre: string;
  paths: string[];
  actions: number[];
}

export class UsersRepository {
  constructor(readonly db: Db) {}

  /** An administrator by id (the guard found the one bound to the caller's identity user). */
  async findById(id: number): Promise<AdminWithProfile | undefined> {
    const res = await this.db.query<{
      id: number;
      correo: string;
      nombres: string;
      apellidos: string;
      enabled: boolean;
      profile_id: number;
      profile_nombre: string;
      paths: string[];
      actions: number[];
    }>(
      `SELECT a.id, a.correo, a.nombres, a.apellidos, a.enabled, p.id AS profile_id, p.nombre AS profile_nombre, p.paths, p.actions
         FROM admins a JOIN profiles p ON p.id = a.profile_id
        WHERE a.id = $1`,
      [id],
    );
    const r = res.rows[0];
    return (
      r && {
        id: r.id,
        correo: r.correo,
        nombres: r.nombres,
        apellidos: r.apellidos,
        enabled: r.enabled,
        profileId: r.profile_id,
        profileNombre: r.profile_nombre,
        paths: r.paths,
        actions: r.actions,
      }
    );
  }
}
