/**
 * All SQL of a device's credentials: `enrollment_tokens` (what a QR code or a TV's short code
 * carries: a group's, the devices' with no group, or one device's, single-use) and `agent_tokens`
 * (the device token an enrollment issues, bound to the public key its agent signs with). Tokens are
 * stored as their SHA-256, never in clear.
 */
import type { Queryable } from '../db/Db';

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
  revoked_at: Date | null;
  /** A device's token that its one enrollment used (revoked then). */
  used_at: Date | null;
}

const COLUMNS = 'id, group_id, device_id, hint, created_at, created_by, expires_at, uses, last_used_at, revoked_at, used_at';

/** The scope of a token: a group, one device, or neither (devices with no group). */
export interface TokenScope {
  groupId: number | null;
  deviceId: number | null;
}

const SCOPE = 'coalesce(group_id, 0) = coalesce($1::integer, 0) AND coalesce(device_id, 0) = coalesce($2::bigint, 0)';

const normalise = (r: EnrollmentTokenRow): EnrollmentTokenRow => ({ ...r, device_id: r.device_id === null ? null : Number(r.device_id) });

export class CredentialRepository {
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

  /** The enrollment token with this hash, locked (its use is counted). */
  async lockEnrollmentToken(hash: Buffer): Promise<EnrollmentTokenRow | undefined> {
    const res = await this.db.query<EnrollmentTokenRow>(`SELECT ${COLUMNS} FROM enrollment_tokens WHERE token_hash = $1 FOR UPDATE`, [hash]);
    const row = res.rows[0];
    return row && normalise(row);
  }

  async countEnrollmentUse(id: number, now: Date): Promise<void> {
    await this.db.query('UPDATE enrollment_tokens SET uses = uses + 1, last_used_at = $2 WHERE id = $1', [id, now]);
  }

  /**
   * After a device enrolled: its own tokens are spent (the one it used is marked used; any other
   * live one is revoked), so enrolling it again takes a new authorisation.
   */
  async spendDeviceTokens(deviceId: number, usedTokenId: number | null, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE enrollment_tokens SET revoked_at = $3, used_at = CASE WHEN id = $2 THEN $3 ELSE used_at END
        WHERE device_id = $1 AND revoked_at IS NULL`,
      [deviceId, usedTokenId, now],
    );
  }

  // The agent's token ------------------------------------------------------------------------

  /** The device behind a live token and the public key its agent signs with (acknowledgements, events). */
  async tokenOwner(hash: Buffer): Promise<{ deviceId: number; publicKey: Buffer | null } | undefined> {
    const res = await this.db.query<{ device_id: number; public_key: Buffer | null }>(
      `SELECT t.device_id, t.public_key FROM agent_tokens t JOIN devices d ON d.id = t.device_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND d.deleted_at IS NULL`,
      [hash],
      { name: 'agent_token_owner' },
    );
    const row = res.rows[0];
    return row && { deviceId: Number(row.device_id), publicKey: row.public_key };
  }

  /** A new device token and the key its agent signs with; every earlier token of the device stops working. */
  async replaceAgentToken(deviceId: number, hash: Buffer, publicKey: Buffer, now: Date): Promise<void> {
    await this.revokeAgentTokens([deviceId], now);
    await this.db.query('INSERT INTO agent_tokens (token_hash, device_id, public_key, created_at) VALUES ($1, $2, $3, $4)', [
      hash,
      deviceId,
      publicKey,
      now,
    ]);
  }

  async revokeAgentTokens(deviceIds: readonly number[], now: Date): Promise<void> {
    await this.db.query('UPDATE agent_tokens SET revoked_at = $2 WHERE device_id = ANY($1::bigint[]) AND revoked_at IS NULL', [deviceIds, now]);
  }
}
