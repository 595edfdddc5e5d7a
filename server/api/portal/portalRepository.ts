import type { Queryable } from '../../db/Db';

export interface AppVersion {
  versionName: string;
  versionApp: string;
}

export class PortalRepository {
  constructor(private readonly db: Queryable) {}

  /** The current lock-app version of a device type (1 smartphone, 2 TV), if any. */
  async currentAppVersion(deviceType: 1 | 2): Promise<AppVersion | undefined> {
    const res = await this.db.query<{ version_name: string; version_app: string }>(
      'SELECT version_name, version_app FROM lock_app_versions WHERE device_type = $1 AND is_current',
      [deviceType],
    );
    const r = res.rows[0];
    return r && { versionName: r.version_name, versionApp: r.version_app };
  }
}
