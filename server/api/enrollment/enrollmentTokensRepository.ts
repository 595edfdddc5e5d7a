/** The SQL of enrollment tokens and what the provisioning QR code needs (the current lock-app version). */
import type { Queryable } from '../../db/Db';
import { appVersionLabel } from '../../../shared/constants/domain';
import type { Lifecycle } from '../../../shared/deviceStatus';

export interface EnrollmentTokenRow {
  id: number;
  group_id: number | null;
  device_id: number | null;
  hint: string;
  created_at: Date;
  created_by: string | null;
  expires_at: Date;
  uses: number;
  last_used_at: Date | null;
}

const COLUMNS = 'id, group_id, device_id, hint, created_at, created_by, expires_at, uses, last_used_at';

/** The scope of a token: a group, one device, or neither (devices with no group). */
export interface TokenScope {
  groupId: number | null;
  deviceId: number | null;
}

const SCOPE = 'coalesce(group_id, 0) = coalesce($1::integer, 0) AND coalesce(device_id, 0) = coalesce($2::bigint, 0)';

export class EnrollmentTokensRepository {
  constructor(private readonly db: Queryable) {}

  /** Live tokens of a scope (not revoked, not expired), newest first. */
  async live(scope: TokenScope, now: Date): Promise<EnrollmentTokenRow[]> {
    const res = await this.db.query<EnrollmentTokenRow>(
      `SELECT ${COLUMNS} FROM enrollment_tokens WHERE ${SCOPE} AND revoked_at IS NULL AND expires_at > $3 ORDER BY id DESC`,
      [scope.groupId, scope.deviceId, now],
    );
    return res.rows.map(normalise);
  }

  async find(id: number): Promise<EnrollmentTokenRow | undefined> {
    const res = await this.db.query<EnrollmentTokenRow>(`SELECT ${COLUMNS} FROM enrollment_tokens WHERE id = $1 AND revoked_at IS NULL`, [id]);
    return res.rows[0] && normalise(res.rows[0]);
  }

  /** Revokes the live tokens of a scope ('Regenerar'); returns their ids. */
  async revokeScope(scope: TokenScope, now: Date): Promise<number[]> {
    const res = await this.db.query<{ id: number }>(
      `UPDATE enrollment_tokens SET revoked_at = $3 WHERE ${SCOPE} AND revoked_at IS NULL RETURNING id`,
      [scope.groupId, scope.deviceId, now],
    );
    return res.rows.map((r) => r.id);
  }

  async revoke(id: number, now: Date): Promise<boolean> {
    const res = await this.db.query('UPDATE enrollment_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, now]);
    return res.rowCount > 0;
  }

  async insert(
    t: TokenScope & { hash: Buffer; hint: string; adminId: number | null; by: string | null; now: Date; expiresAt: Date },
  ): Promise<EnrollmentTokenRow> {
    const res = await this.db.query<EnrollmentTokenRow>(
      `INSERT INTO enrollment_tokens (token_hash, hint, group_id, device_id, created_by_admin_id, created_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [t.hash, t.hint, t.groupId, t.deviceId, t.adminId, t.by, t.now, t.expiresAt],
    );
    return normalise(res.rows[0]!);
  }

  async groupExists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE id = $1', [id]);
    return res.rows.length > 0;
  }

  /** A live device's facts that say whether it awaits enrollment, locked for the token's issue. */
  async lockDevice(id: number): Promise<{ imei: string; lifecycle: Lifecycle; failureReason: string | null } | undefined> {
    const res = await this.db.query<{ imei: string; lifecycle: Lifecycle; failure_reason: string | null }>(
      'SELECT imei, lifecycle, failure_reason FROM devices WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
      [id],
    );
    const r = res.rows[0];
    return r && { imei: r.imei, lifecycle: r.lifecycle, failureReason: r.failure_reason };
  }

  /** The current smartphone lock-app version's download (what a factory-reset phone installs). */
  async currentAgentPackage(): Promise<{ version: string; packageName: string | null; url: string | null; checksum: string | null } | undefined> {
    const res = await this.db.query<{
      version_name: string;
      version_app: string;
      package_name: string | null;
      download_url: string | null;
      package_checksum: string | null;
    }>('SELECT version_name, version_app, package_name, download_url, package_checksum FROM lock_app_versions WHERE device_type = 1 AND is_current');
    const r = res.rows[0];
    return (
      r && { version: appVersionLabel(r.version_name, r.version_app), packageName: r.package_name, url: r.download_url, checksum: r.package_checksum }
    );
  }
}

const normalise = (r: EnrollmentTokenRow): EnrollmentTokenRow => ({ ...r, device_id: r.device_id === null ? null : Number(r.device_id) });
