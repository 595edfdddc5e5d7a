import { appVersionLabel } from '../../../shared/constants/domain';
import type { BusinessApp, BusinessAppBody, LockAppBody, LockAppVersion, SettingsChange } from '../../../shared/contracts/agentSettings';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { FACT } from '../dashboard/dashboardRepository';
import type { Queryable } from '../../db/Db';

export interface SettingsRow {
  device_type: number;
  group_id: number | null;
  settings: Record<string, unknown>;
  version: number;
  updated_at: string | null;
  updated_by: string | null;
  group_name: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const toSettingsRow = (r: SettingsRow): SettingsRow => ({
  ...r,
  version: Number(r.version),
  updated_at: iso(r.updated_at),
});

interface LockAppRecord {
  id: number;
  device_type: DeviceTypeCode;
  version_name: string;
  version_app: string;
  app_type: number;
  package_name: string | null;
  download_url: string | null;
  sha256: string | null;
  release_notes: string | null;
  is_current: boolean;
  created_at: Date;
  created_by: string | null;
}

const toLockApp = (r: LockAppRecord, devices: number): LockAppVersion => ({
  id: r.id,
  deviceType: Number(r.device_type) as DeviceTypeCode,
  versionName: r.version_name,
  versionApp: r.version_app,
  appType: r.app_type,
  packageName: r.package_name,
  downloadUrl: r.download_url,
  sha256: r.sha256,
  releaseNotes: r.release_notes,
  isCurrent: r.is_current,
  devices,
  createdAt: iso(r.created_at)!,
  createdBy: r.created_by,
});

interface BusinessAppRecord {
  id: number;
  name: string;
  package_name: string;
  version_name: string;
  version_code: number;
  app_type: number;
  download_url: string;
  sha256: string;
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
  groups: { id: number; name: string }[] | null;
}

const toBusinessApp = (r: BusinessAppRecord): BusinessApp => ({
  id: r.id,
  name: r.name,
  packageName: r.package_name,
  versionName: r.version_name,
  versionCode: r.version_code,
  appType: r.app_type,
  downloadUrl: r.download_url,
  sha256: r.sha256,
  groups: (r.groups ?? []).map((g) => ({ id: Number(g.id), name: g.name })).sort((a, b) => a.name.localeCompare(b.name, 'es')),
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
  updatedBy: r.updated_by,
});

const BUSINESS_APP_SELECT = `SELECT a.*,
    (SELECT json_agg(json_build_object('id', g.id, 'name', g.name))
       FROM business_app_groups ag JOIN device_groups g ON g.id = ag.group_id WHERE ag.app_id = a.id) AS groups
  FROM business_apps a`;

/** All SQL of the agent settings pages: settings rows and their history, logos, business apps, lock-app versions. */
/** A row of `agent_settings`: a device type's global values (group_id null) or a group's overrides. */
export interface AgentSettingsRow {
  device_type: number;
  group_id: number | null;
  settings: Record<string, unknown>;
}

export class AgentSettingsRepository {
  constructor(private readonly db: Queryable) {}

  // Settings rows ----------------------------------------------------------------------

  /** Every row of a device type (global first), with the group's name. */
  async rows(deviceType: DeviceTypeCode): Promise<SettingsRow[]> {
    const res = await this.db.query<SettingsRow>(
      `SELECT s.device_type, s.group_id, s.settings, s.version, s.updated_at, s.updated_by, g.name AS group_name
         FROM agent_settings s LEFT JOIN device_groups g ON g.id = s.group_id
        WHERE s.device_type = $1
        ORDER BY s.group_id NULLS FIRST`,
      [deviceType],
    );
    return res.rows.map(toSettingsRow);
  }

  /** The row of a scope, locked until the transaction ends (a concurrent save waits, then sees the new version). */
  async lockRow(deviceType: DeviceTypeCode, groupId: number | null): Promise<SettingsRow | undefined> {
    const res = await this.db.query<SettingsRow>(
      `SELECT device_type, group_id, settings, version, updated_at, updated_by, NULL AS group_name
         FROM agent_settings WHERE device_type = $1 AND coalesce(group_id, 0) = coalesce($2::integer, 0) FOR UPDATE`,
      [deviceType, groupId],
    );
    return res.rows[0] && toSettingsRow(res.rows[0]);
  }

  /**
   * Creates a group's empty row for its first override; false when another transaction created
   * it meanwhile (the caller then reads it, locked, and sees a version it did not load).
   */
  async createGroupRow(deviceType: DeviceTypeCode, groupId: number): Promise<boolean> {
    const res = await this.db.query(
      `INSERT INTO agent_settings (device_type, group_id, settings) VALUES ($1, $2, '{}')
       ON CONFLICT (device_type, (coalesce(group_id, 0))) DO NOTHING`,
      [deviceType, groupId],
    );
    return res.rowCount > 0;
  }

  /**
   * Writes a scope's values as a new version (the row is created for a group's first override).
   * Returns the new version; concurrent first overrides of the same group meet on the unique index.
   */
  async saveRow(deviceType: DeviceTypeCode, groupId: number | null, settings: Record<string, unknown>, by: string | null): Promise<number> {
    const res = await this.db.query<{ version: number }>(
      `INSERT INTO agent_settings (device_type, group_id, settings, updated_at, updated_by)
       VALUES ($1, $2, $3::jsonb, now(), $4)
       ON CONFLICT (device_type, (coalesce(group_id, 0)))
       DO UPDATE SET settings = EXCLUDED.settings, version = nextval('agent_settings_version'), updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING version`,
      [deviceType, groupId, JSON.stringify(settings), by],
    );
    return Number(res.rows[0]!.version);
  }

  /**
   * A new version of a type's global row without changing its values: what the agents fetch
   * changed elsewhere (business apps, the current lock-app version).
   */
  async bumpGlobal(deviceType: DeviceTypeCode): Promise<void> {
    await this.db.query(`UPDATE agent_settings SET version = nextval('agent_settings_version') WHERE device_type = $1 AND group_id IS NULL`, [
      deviceType,
    ]);
  }

  async insertHistory(e: {
    deviceType: DeviceTypeCode;
    groupId: number | null;
    version: number;
    changes: SettingsChange['changes'];
    sections: string[];
    by: string | null;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_settings_history (device_type, group_id, version, changes, sections, changed_by)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6)`,
      [e.deviceType, e.groupId, e.version, JSON.stringify(e.changes), e.sections, e.by],
    );
  }

  /** A scope's last saves that touched a section, newest first. */
  async history(deviceType: DeviceTypeCode, groupId: number | null, section: string, limit: number): Promise<SettingsChange[]> {
    const res = await this.db.query<{ version: number; changed_at: Date; changed_by: string | null; changes: SettingsChange['changes'] }>(
      `SELECT version, changed_at, changed_by, changes FROM agent_settings_history
        WHERE device_type = $1 AND coalesce(group_id, 0) = coalesce($2::integer, 0) AND $3 = ANY (sections)
        ORDER BY version DESC LIMIT $4`,
      [deviceType, groupId, section, limit],
    );
    return res.rows.map((r) => ({ version: Number(r.version), changedAt: iso(r.changed_at)!, changedBy: r.changed_by, changes: r.changes }));
  }

  /** Whether the group exists; inside a transaction it cannot be deleted until the end (FOR SHARE). */
  async groupExists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE id = $1 FOR SHARE', [id]);
    return res.rowCount > 0;
  }

  /** Which of these groups exist (kept from deletion until the transaction ends). */
  async existingGroups(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const res = await this.db.query<{ id: number }>('SELECT id FROM device_groups WHERE id = ANY ($1::integer[]) FOR SHARE', [ids]);
    return res.rows.map((r) => r.id);
  }

  // Logos ------------------------------------------------------------------------------

  async insertLogo(sha256: string, contentType: string, bytes: Buffer, by: string | null): Promise<void> {
    await this.db.query(`INSERT INTO agent_logos (sha256, content_type, bytes, created_by) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING`, [
      sha256,
      contentType,
      bytes,
      by,
    ]);
  }

  async logo(sha256: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
    const res = await this.db.query<{ content_type: string; bytes: Uint8Array }>('SELECT content_type, bytes FROM agent_logos WHERE sha256 = $1', [
      sha256,
    ]);
    const r = res.rows[0];
    return r && { contentType: r.content_type, bytes: Buffer.from(r.bytes) };
  }

  async logoExists(sha256: string): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM agent_logos WHERE sha256 = $1', [sha256]);
    return res.rowCount > 0;
  }

  // Lock-app versions ------------------------------------------------------------------

  /** The versions of a type, newest first, with how many devices report each. */
  async lockApps(deviceType: DeviceTypeCode): Promise<LockAppVersion[]> {
    const [versions, counts] = await Promise.all([
      this.db.query<LockAppRecord>('SELECT * FROM lock_app_versions WHERE device_type = $1 ORDER BY created_at DESC, id DESC', [deviceType]),
      this.agentVersionCounts(deviceType),
    ]);
    return versions.rows.map((r) => toLockApp(r, counts.get(r.version_app) ?? 0));
  }

  async lockApp(deviceType: DeviceTypeCode, id: number, forUpdate = false): Promise<LockAppVersion | undefined> {
    const res = await this.db.query<LockAppRecord>(
      `SELECT * FROM lock_app_versions WHERE device_type = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [deviceType, id],
    );
    const r = res.rows[0];
    if (!r) return undefined;
    const counts = await this.agentVersionCounts(deviceType);
    return toLockApp(r, counts.get(r.version_app) ?? 0);
  }

  /** The current version of a type, without device counts (what the agents download). */
  async currentLockApp(deviceType: DeviceTypeCode): Promise<LockAppVersion | undefined> {
    const res = await this.db.query<LockAppRecord>('SELECT * FROM lock_app_versions WHERE device_type = $1 AND is_current', [deviceType]);
    return res.rows[0] && toLockApp(res.rows[0], 0);
  }

  /**
   * Enrolled devices of a type reporting each agent version (released ones no longer run it), from
   * the counters the Android dashboard reads (device_fact_counts, migration 0013).
   */
  async agentVersionCounts(deviceType: DeviceTypeCode): Promise<Map<string, number>> {
    const res = await this.db.query<{ agent_version: string; n: number }>(
      `SELECT value AS agent_version, n FROM device_fact_counts WHERE fact = $2 AND device_type = $1 AND value <> '' AND n > 0`,
      [deviceType, FACT.agentVersion],
    );
    return new Map(res.rows.map((r) => [r.agent_version, Number(r.n)]));
  }

  async versionTaken(deviceType: DeviceTypeCode, versionApp: string, exceptId = 0): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM lock_app_versions WHERE device_type = $1 AND lower(version_app) = lower($2) AND id <> $3', [
      deviceType,
      versionApp,
      exceptId,
    ]);
    return res.rowCount > 0;
  }

  async insertLockApp(deviceType: DeviceTypeCode, b: LockAppBody, checksum: string, by: string | null): Promise<number> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO lock_app_versions (device_type, version_name, version_app, app_type, package_name, download_url, sha256, package_checksum, release_notes, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [deviceType, b.versionName, b.versionApp, b.appType, b.packageName, b.downloadUrl, b.sha256, checksum, b.releaseNotes, by],
    );
    return res.rows[0]!.id;
  }

  async updateLockApp(id: number, b: LockAppBody, checksum: string): Promise<void> {
    await this.db.query(
      `UPDATE lock_app_versions SET version_name = $2, version_app = $3, app_type = $4, package_name = $5, download_url = $6,
              sha256 = $7, package_checksum = $8, release_notes = $9 WHERE id = $1`,
      [id, b.versionName, b.versionApp, b.appType, b.packageName, b.downloadUrl, b.sha256, checksum, b.releaseNotes],
    );
  }

  async deleteLockApp(id: number): Promise<void> {
    await this.db.query('DELETE FROM lock_app_versions WHERE id = $1', [id]);
  }

  /** Makes a version the current one of its type (the previous current one stops being it first: unique index). */
  async setCurrentLockApp(deviceType: DeviceTypeCode, id: number): Promise<void> {
    await this.db.query('UPDATE lock_app_versions SET is_current = false WHERE device_type = $1 AND is_current AND id <> $2', [deviceType, id]);
    await this.db.query('UPDATE lock_app_versions SET is_current = true WHERE id = $1', [id]);
  }

  // Business apps ----------------------------------------------------------------------

  async businessApps(): Promise<BusinessApp[]> {
    const res = await this.db.query<BusinessAppRecord>(`${BUSINESS_APP_SELECT} ORDER BY lower(a.name), a.id`);
    return res.rows.map(toBusinessApp);
  }

  async businessApp(id: number, forUpdate = false): Promise<BusinessApp | undefined> {
    if (forUpdate) await this.db.query('SELECT 1 FROM business_apps WHERE id = $1 FOR UPDATE', [id]);
    const res = await this.db.query<BusinessAppRecord>(`${BUSINESS_APP_SELECT} WHERE a.id = $1`, [id]);
    return res.rows[0] && toBusinessApp(res.rows[0]);
  }

  /** The business apps a smartphone of a group installs (those of every smartphone and its group's). */
  async businessAppsFor(groupId: number | null): Promise<BusinessApp[]> {
    const res = await this.db.query<BusinessAppRecord>(
      `${BUSINESS_APP_SELECT}
        WHERE NOT EXISTS (SELECT 1 FROM business_app_groups x WHERE x.app_id = a.id)
           OR EXISTS (SELECT 1 FROM business_app_groups x WHERE x.app_id = a.id AND x.group_id = $1)
        ORDER BY lower(a.name), a.id`,
      [groupId],
    );
    return res.rows.map(toBusinessApp);
  }

  async businessAppCount(): Promise<number> {
    const res = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM business_apps');
    return Number(res.rows[0]!.n);
  }

  async packageTaken(packageName: string, exceptId = 0): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM business_apps WHERE lower(package_name) = lower($1) AND id <> $2', [packageName, exceptId]);
    return res.rowCount > 0;
  }

  async insertBusinessApp(b: BusinessAppBody, by: string | null): Promise<number> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO business_apps (name, package_name, version_name, version_code, app_type, download_url, sha256, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [b.name, b.packageName, b.versionName, b.versionCode, b.appType, b.downloadUrl, b.sha256, by],
    );
    const id = res.rows[0]!.id;
    await this.setBusinessAppGroups(id, b.groupIds);
    return id;
  }

  async updateBusinessApp(id: number, b: BusinessAppBody, by: string | null): Promise<void> {
    await this.db.query(
      `UPDATE business_apps SET name = $2, package_name = $3, version_name = $4, version_code = $5, app_type = $6,
              download_url = $7, sha256 = $8, updated_at = now(), updated_by = $9 WHERE id = $1`,
      [id, b.name, b.packageName, b.versionName, b.versionCode, b.appType, b.downloadUrl, b.sha256, by],
    );
    await this.db.query('DELETE FROM business_app_groups WHERE app_id = $1', [id]);
    await this.setBusinessAppGroups(id, b.groupIds);
  }

  private async setBusinessAppGroups(id: number, groupIds: readonly number[]): Promise<void> {
    if (groupIds.length === 0) return;
    await this.db.query('INSERT INTO business_app_groups (app_id, group_id) SELECT DISTINCT $1::integer, unnest($2::integer[])', [id, groupIds]);
  }

  async deleteBusinessApp(id: number): Promise<void> {
    await this.db.query('DELETE FROM business_apps WHERE id = $1', [id]);
  }

  /** The global row and the group's override of a device type: their values and the greater version. */
  async settingsRows(
    deviceType: number,
    groupId: number | null,
  ): Promise<{ global?: Record<string, unknown>; group?: Record<string, unknown>; version: number }> {
    const res = await this.db.query<{ group_id: number | null; settings: Record<string, unknown>; version: number }>(
      'SELECT group_id, settings, version FROM agent_settings WHERE device_type = $1 AND (group_id IS NULL OR group_id = $2)',
      [deviceType, groupId],
    );
    const global = res.rows.find((r) => r.group_id === null);
    const group = res.rows.find((r) => r.group_id !== null);
    return { global: global?.settings, group: group?.settings, version: Math.max(0, ...res.rows.map((r) => Number(r.version))) };
  }

  /**
   * The agent settings rows of every device type (the global one and each group's override),
   * read for the lock type the portal proposes (GET /devices/lock-defaults).
   */
  async allRows(): Promise<AgentSettingsRow[]> {
    const res = await this.db.query<AgentSettingsRow>(
      'SELECT device_type, group_id, settings FROM agent_settings ORDER BY device_type, group_id NULLS FIRST',
    );
    return res.rows.map((r) => ({
      device_type: Number(r.device_type),
      group_id: r.group_id === null ? null : Number(r.group_id),
      settings: r.settings,
    }));
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
